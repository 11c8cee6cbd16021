/**
 * Live refresh, shared by the HTTP server and the Electron main process: polls the store's
 * `PRAGMA data_version` (which moves when ANOTHER connection commits) and counts our own mutations,
 * bumping one generation number the UI waits on. Open views refetch when it moves.
 */
import type { ApiSession } from '../api/context.js';

export type GenerationListener = (generation: number) => void;

export class LiveRefresh {
  private gen = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly listeners = new Set<GenerationListener>();

  constructor(
    private readonly session: ApiSession,
    private readonly intervalMs = 400,
  ) {}

  get generation(): number {
    return this.gen;
  }

  /** Call after our own writes (they do not move our connection's data_version). */
  bump(): void {
    this.gen += 1;
    for (const l of this.listeners) l(this.gen);
  }

  /** One poll: true when another process committed since the last look. */
  check(): boolean {
    if (!this.session.hasEngine) return false;
    let changed: boolean;
    try {
      changed = this.session.engine().store.refreshIfChanged();
    } catch {
      return false; // a busy or closing store: try again on the next tick
    }
    if (changed) this.bump();
    return changed;
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

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.check(), this.intervalMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const l of [...this.listeners]) l(this.gen);
    this.listeners.clear();
  }
}
