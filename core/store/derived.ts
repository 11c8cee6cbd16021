/**
 * Keeps an in-memory structure derived from the store (vector index, keyword index, …) in step
 * with it: built lazily on first use, patched row by row on our own writes and on the rows another
 * process changed (the store diffs per-row digests when `data_version` moves), rebuilt after a
 * reset (the first commit by another process, a large external change, or a bulk load).
 */
import type { StoreReader } from './port.js';

export interface DerivedIndex {
  /** Rebuilds everything from the store. */
  load(store: StoreReader): void;
  /** Re-reads one row (it may now be archived or gone). */
  update(store: StoreReader, id: string): void;
  remove(id: string): void;
  /** Releases what the index holds outside the JS heap (a SQLite handle, a tokenizer); called once, when its engine closes. */
  dispose?(): void;
}

export class Derived<T extends DerivedIndex> {
  private stale = true;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: StoreReader,
    readonly index: T,
  ) {
    this.unsubscribe = store.onChange((e) => {
      if (this.stale) return;
      if (e.kind === 'reset') this.stale = true;
      else if (e.kind === 'delete') this.index.remove(e.id);
      else this.index.update(this.store, e.id);
    });
  }

  /** The index, current with the store (checks for other processes' commits first). */
  get(): T {
    this.store.catchUp();
    if (this.stale) {
      this.index.load(this.store);
      this.stale = false;
    }
    return this.index;
  }

  invalidate(): void {
    this.stale = true;
  }

  dispose(): void {
    this.unsubscribe();
    this.index.dispose?.();
  }
}
