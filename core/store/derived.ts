/**
 * Keeps an in-memory structure derived from the store (vector index, keyword index, …) in step
 * with it: built lazily on first use, patched row by row on our own writes and on the rows another
 * process changed (the store diffs per-row digests when `data_version` moves), rebuilt after a
 * reset (the first commit by another process, a large external change, or a bulk load).
 *
 * An index that can snapshot itself (PersistableIndex) is, when the engine keeps snapshots
 * (index-snapshots.ts), read from the sidecar instead of rebuilt and patched with what the change
 * feed says changed since (derived-snapshot.ts).
 */
import type { FeedPosition, StoreReader } from './port.js';
import type { DerivedIndex, PersistableIndex, SidecarResidentIndex } from './derived-index.js';
import { DerivedSnapshot } from './derived-snapshot.js';
import type { IndexSnapshots } from './index-snapshots.js';

export type { DerivedIndex, PersistableIndex, SidecarResidentIndex } from './derived-index.js';

export function isPersistable(index: DerivedIndex): index is PersistableIndex {
  return typeof (index as Partial<PersistableIndex>).saveSnapshot === 'function';
}

function isSidecarResident(index: DerivedIndex): index is SidecarResidentIndex {
  return typeof (index as Partial<SidecarResidentIndex>).recordPosition === 'function';
}

export class Derived<T extends DerivedIndex> {
  private stale = true;
  private readonly unsubscribe: () => void;
  private readonly snapshot: DerivedSnapshot | null;
  /** A feed position the index reflects at least (read before each catch-up). */
  private position: FeedPosition | null = null;
  /** Whether to follow the feed position at all (snapshots on for this engine). */
  private readonly tracksPosition: boolean;
  private readonly unregister: () => void;

  constructor(
    private readonly store: StoreReader,
    readonly index: T,
    persistence?: { name: string; snapshots: IndexSnapshots },
  ) {
    this.snapshot = persistence && isPersistable(index) ? new DerivedSnapshot(store, index, persistence.name, persistence.snapshots) : null;
    this.tracksPosition = !!persistence?.snapshots.enabled && (isPersistable(index) || isSidecarResident(index));
    this.unregister = this.snapshot ? persistence!.snapshots.register(() => this.persistNow()) : () => {};
    this.unsubscribe = store.onChange((e) => {
      if (this.stale) return;
      if (e.kind === 'reset') this.stale = true;
      else if (e.kind === 'delete') this.index.remove(e.id);
      else this.index.update(this.store, e.id);
      this.snapshot?.notePatch();
    });
  }

  /** The index, current with the store (checks for other processes' commits first). */
  get(): T {
    // Read before catching up: whatever the catch-up applies is at or after it, and patching
    // again from a slightly older position is harmless (updates re-read their rows).
    const before = this.tracksPosition ? this.store.feedPosition() : null;
    this.store.catchUp();
    if (this.stale) {
      this.position = this.snapshot ? this.snapshot.loadOrBuild(before) : (this.index.load(this.store), before);
      this.stale = false;
    } else if (before) {
      this.position = before;
    }
    if (this.position) this.snapshot?.saveIfDue(this.position);
    return this.index;
  }

  /** Writes the index's snapshot now if it changed since the last one (IndexSnapshots.persistAllNow). */
  persistNow(): void {
    if (!this.stale && this.position) this.snapshot?.saveNow(this.position);
  }

  invalidate(): void {
    this.stale = true;
  }

  dispose(): void {
    this.unsubscribe();
    this.unregister();
    if (!this.stale && this.position) {
      this.snapshot?.saveOnClose(this.position);
      if (isSidecarResident(this.index)) {
        try {
          this.index.recordPosition(this.position, this.store.clock.now());
        } catch (err) {
          // Closing must not fail over it: the position stays older and the next open patches a little more.
          this.store.warn('index-position', `could not record how far the list's text search is current (${(err as Error).message})`);
        }
      }
    }
    this.snapshot?.cancel();
    this.index.dispose?.();
  }
}
