/**
 * What a derived index offers its Derived wrapper (derived.ts): loading and patching, and, for an
 * index worth persisting, a snapshot of itself (derived-snapshot.ts writes it to the sidecar).
 */
import type { FeedPosition, StoreReader } from '../port/port.js';
import type { SourceRow } from '../port/source-rows.js';
import type { PartSource, SnapshotParts } from './snapshot-parts.js';

/** How far a build is: `done` of `total` rows (called every few thousand rows, and at the end). */
export type LoadProgress = (done: number, total: number) => void;

/** A point in a stepped build (DerivedIndex.loadSteps) where other work may run. */
export interface LoadStep {
  done: number;
  total: number;
}

/** Rows between two progress reports from a load. */
const REPORT_EVERY = 4096;

/** A counter for a load's rows that calls `progress` every few thousand of them; `end()` reports the last. */
export function rowCounter(total: number, progress: LoadProgress | undefined): { tick(): void; end(): void } {
  let done = 0;
  return {
    tick: () => {
      done++;
      if (progress && done % REPORT_EVERY === 0) progress(Math.min(done, total), Math.max(total, done));
    },
    end: () => progress?.(done, Math.max(total, done)),
  };
}

export interface DerivedIndex {
  /** Rebuilds everything from the store, reporting how far it is to `progress` (n of N rows). */
  load(store: StoreReader, progress?: LoadProgress): void;
  /**
   * The same build as `load`, in steps: each yield is a point where other work may run (a server
   * answering a progress poll), so every row the build needs is read before the first one (no
   * SQLite statement stays open across a yield). Only the indexes whose build takes seconds on a
   * big store have it; Derived.getReady builds the others in one go.
   */
  loadSteps?(store: StoreReader): Iterator<LoadStep, void>;
  /** Re-reads one row (it may now be archived or gone). */
  update(store: StoreReader, id: string): void;
  /**
   * True when nothing the index holds comes from edges: a memory whose only change is an edge at
   * it (ChangeEvent `edges`) is not re-read. Left out, every change is re-read.
   */
  readonly readsNoEdges?: boolean;
  /** Re-reads what the index holds of `id`'s edges only (its row did not change); left out, `update` runs. */
  updateEdges?(store: StoreReader, id: string): void;
  /**
   * True when nothing the index holds comes from a memory's usage (what an access changes: its
   * counters, strength, recency and access ring): a memory whose only change is an access
   * (ChangeEvent `usage`) is not re-read. Left out, every change is re-read.
   */
  readonly readsNoUsage?: boolean;
  /**
   * Takes in an access of `id` only (its text, owner and edges did not change); left out, `update`
   * runs. `row`: the row as this connection just wrote it, when the change says so (else read it).
   */
  updateUsage?(store: StoreReader, id: string, row?: SourceRow): void;
  /**
   * True when nothing the index holds comes from a memory's importance, salience or usage: a
   * memory whose only change is to those (ChangeEvent `scores`, a rescore) is not re-read. Implies
   * `readsNoUsage`. Left out, every such change is re-read.
   */
  readonly readsNoScores?: boolean;
  remove(id: string): void;
  /** Releases what the index holds outside the JS heap (a SQLite handle, a tokenizer); called once, when its engine closes. */
  dispose?(): void;
}

/** What changed of a memory, as ChangeEvent tells it: its row (`upsert`), only edges at it, only its usage, or only its scores and usage. */
export type PatchKind = 'upsert' | 'edges' | 'usage' | 'scores';

/** True when `index` reads nothing a change of `kind` touches: the memory is not re-read, no patch counted. */
export function skipsPatch(index: DerivedIndex, kind: PatchKind): boolean {
  return (
    (kind === 'edges' && index.readsNoEdges === true) ||
    (kind === 'usage' && (index.readsNoUsage === true || index.readsNoScores === true)) ||
    (kind === 'scores' && index.readsNoScores === true)
  );
}

/**
 * Patches one memory that changed into `index`: only its edges, only its usage, or its row (a
 * change of its scores is re-read whole by an index that reads them). False
 * when the index reads nothing such a change touched (skipsPatch), so the caller counts no patch.
 * The one rule for both paths an index is patched by: live changes (derived.ts) and a snapshot's
 * catch-up (derived-snapshot.ts).
 */
export function patchChanged(index: DerivedIndex, store: StoreReader, id: string, kind: PatchKind, written?: SourceRow): boolean {
  if (skipsPatch(index, kind)) return false;
  if (kind === 'edges' && index.updateEdges) index.updateEdges(store, id);
  else if (kind === 'usage' && index.updateUsage) index.updateUsage(store, id, written);
  else index.update(store, id);
  return true;
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
  /**
   * Replaces the index's content with a snapshot's; throws SnapshotMismatch when the parts do not
   * fit. A part is read (and its CRC checked) when first asked for: an index may leave a part
   * unread until a caller needs it, and must then answer from the store if it is damaged
   * (SnapshotDamaged), never from bytes it could not check.
   */
  restoreSnapshot(parts: PartSource, store: StoreReader): void;
  /**
   * Reads now what restoreSnapshot left for first use. A copy loaded ahead of a hand-over
   * (index-handoff.ts) calls it, so the first call after the swap does not wait for those reads.
   */
  warm?(): void;
  /** Live memories it holds (for the build report). */
  readonly size: number;
}

/** An index that lives in the sidecar itself (the list's text search) and records how far it is current. */
export interface SidecarResidentIndex extends DerivedIndex {
  /** Called with a feed position the index reflects at least, when the engine closes (`now` from the store's clock). */
  recordPosition(position: FeedPosition, now: number): void;
}

