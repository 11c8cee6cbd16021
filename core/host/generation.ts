/**
 * The number the open views wait on: it moves when what they show may have changed (our own
 * writes, another process's commits, another store opened). Views refetch when it moves; the HTTP
 * server's long poll (/api/_events) and the desktop app's change events both follow it.
 */
export type GenerationListener = (generation: number) => void;

export class Generation {
  private gen = 0;
  private readonly listeners = new Set<GenerationListener>();

  get generation(): number {
    return this.gen;
  }

  bump(): void {
    this.gen += 1;
    for (const l of this.listeners) l(this.gen);
  }

  onChange(listener: GenerationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves with the generation once it is past `after`, or after `timeoutMs` with the current one. */
  waitPast(after: number, timeoutMs: number): Promise<number> {
    if (this.gen > after) return Promise.resolve(this.gen);
    return new Promise((resolve) => {
      const off = this.onChange((g) => {
        clearTimeout(t);
        off();
        resolve(g);
      });
      const t = setTimeout(() => {
        off();
        resolve(this.gen);
      }, timeoutMs);
    });
  }

  /** Wakes every waiter with the generation as it is, and forgets them (the server is closing). */
  release(): void {
    for (const l of [...this.listeners]) l(this.gen);
    this.listeners.clear();
  }
}
