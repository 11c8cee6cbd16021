/**
 * What a derived index offers its Derived wrapper (derived.ts): loading and patching, and, for an
 * index worth persisting, a snapshot of itself (derived-snapshot.ts writes it to the sidecar).
 */
import type { FeedPosition, StoreReader } from './port.js';
import type { SnapshotParts } from './snapshot-parts.js';

export interface DerivedIndex {
  /** Rebuilds everything from the store. */
  load(store: StoreReader): void;
  /** Re-reads one row (it may now be archived or gone). */
  update(store: StoreReader, id: string): void;
  remove(id: string): void;
  /** Releases what the index holds outside the JS heap (a SQLite handle, a tokenizer); called once, when its engine closes. */
  dispose?(): void;
}

/**
 * An index that can be written to the index sidecar and read back. `update` and `remove` must be
 * idempotent (they re-read the row), since a snapshot is patched from a position that may be
 * slightly older than what it holds.
 */
export interface PersistableIndex extends DerivedIndex {
  /** The encoding (name and version): a snapshot in another encoding is rebuilt. */
  readonly snapshotFormat: string;
  /** Whatever the index's content depends on besides the rows (embedder and dim, stemming, …). */
  snapshotConditions(): string;
  /** The index as parts; null when it cannot be snapshotted (then it is simply rebuilt next time). */
  saveSnapshot(): SnapshotParts | null;
  /** Replaces the index's content with a snapshot's; throws SnapshotMismatch when the parts do not fit. */
  restoreSnapshot(parts: SnapshotParts, store: StoreReader): void;
  /** Live memories it holds (for the build report). */
  readonly size: number;
}

/** An index that lives in the sidecar itself (the list's text search) and records how far it is current. */
export interface SidecarResidentIndex extends DerivedIndex {
  /** Called with a feed position the index reflects at least, when the engine closes (`now` from the store's clock). */
  recordPosition(position: FeedPosition, now: number): void;
}

