/**
 * The store's own rows and the handles of its long work: journalled changes, tombstones, saved
 * profiles, agent credentials, ingest markers, feed retention, undo groups, bulk loads, and where the
 * index sidecar lives.
 */
import type { AgentCredential } from '../../model/agent-credential.js';
import type { AccessRecord } from '../../model/memory.js';
import type { JobProgressSink } from '../../model/job-phase.js';
import type { RunPacing } from '../../model/run-pacing.js';
import type { MemoryRow } from './codec.js';
import type { SourceRow } from './source-rows.js';

export interface ChangeRow {
  key: string;
  before: unknown | null;
  after: unknown | null;
}

export interface ChangeSummary {
  id: number;
  ts: number;
  label: string;
  kind: string;
  counts: Record<string, number>;
  state: 'applied' | 'undone';
  undone_at: number | null;
  meta: Record<string, unknown> | null;
  rows: number;
  /** The agent credential the change was made with (null: none, or made before credentials existed). */
  credential_id: string | null;
}

/**
 * A change listeners hear. `edges`: only edges with this memory at one end changed, not its row
 * (another process erased or linked its neighbours). `usage`: only what an access changes (its
 * counters, strength, recency and access ring; every recall logs some). `scores`: only how it scores
 * (importance, salience) and its usage (another process's reflection rescored it). A listener that
 * reads no edges, no usage, or no scores, may skip the one it does not read; any other treats it as
 * an upsert. A `usage` this connection wrote may carry the row as written (`row`), so an index
 * patching it need not read back what was just written (every recall writes five).
 */
export type ChangeEvent =
  | { kind: 'upsert' | 'delete' | 'edges' | 'scores'; id: string }
  | { kind: 'usage'; id: string; row?: SourceRow }
  | { kind: 'reset' };

export interface Tombstone {
  hash: string;
  memory_id: string;
  owner: string;
  ts: number;
  head: string;
}

export interface SavedProfileRow {
  name: string;
  base: string;
  /** JSON text of `{ knobs, features }`. */
  config: string;
  created_at: number;
  updated_at: number;
  /** When it became the store's default (null: it is not the default). */
  default_since: number | null;
}

/** Use of one credential, from the rows it wrote. */
export interface CredentialUse {
  credential_id: string;
  accesses: number;
  changes: number;
  /** Latest access or change made with it; null when never used. */
  last_used: number | null;
}

export interface StoredCredential extends AgentCredential {
  token_hash: string;
}

export interface IngestMarker {
  pid: number;
  host: string;
  started_at: number;
  /** Delta id ranges [first, last] this ingest appended, one per committed batch. */
  ranges: [number, number][];
}

export interface FeedRetention {
  days: number;
  access_days: number;
}

export interface FeedStatus {
  /** False for a file without the feed (a nooa-only store: it gets one on Mnemo's first write). */
  installed: boolean;
  epoch: string | null;
  /** The last sequence number given out. */
  seq: number;
  rows: number;
  rows_by_op: Record<string, number>;
  /** Bytes on disk of the feed table and its two indexes (SQLite's page accounting). */
  bytes: number;
  oldest_at: number | null;
  pruned_through: number;
  /** Every change after this instant is in the feed (null: nothing pruned yet). */
  history_from: number | null;
  /** Every access after this instant is in the feed (null: no access row pruned yet). */
  accesses_from: number | null;
  retention: FeedRetention;
}

export interface PruneReport {
  /** Rows removed, of every op, and of those how many were `access` rows. */
  removed: number;
  access_removed: number;
  /** Whether the feed holds nothing more to remove under the policy now. */
  done: boolean;
}

export interface GroupUndoOptions {
  /** The owner policy of a scoped caller (undefined: the local user, who may undo anything). */
  actorOwner?: string;
  pacing?: RunPacing;
  /** Rows up to which the group is undone in one transaction (tests lower it to force the paced path). */
  oneTransactionRows?: number;
  onProgress?: JobProgressSink;
  /** Looked at between transactions: a cancel rolls forward what was undone and throws (details.cancelled: true). */
  shouldCancel?: () => boolean;
}

export interface GroupUndoResult {
  /** The change asked for, now undone. */
  change: ChangeSummary;
  /** Every change undone, in the order it was undone (the dependants newest first, the change last). */
  undone: ChangeSummary[];
}

export interface BulkLoad {
  insertMemory(row: BulkMemoryRow): void;
  /** An edge; a duplicate (same src, dst, type) is ignored. */
  insertEdge(src: string, dst: string, type: string, weight: number, createdAt: number): void;
  /** An access event as a live recall would have logged it (reinforcing, not backfilled). */
  insertEvent(memoryId: string, rec: AccessRecord, strengthAfter: number): void;
  archive(id: string): void;
  /** Rebuilds the dropped indexes and restores the connection's settings. */
  finish(): void;
}

/** A whole memory row as the loader writes it (the rowid is assigned by SQLite). */
export type BulkMemoryRow = Omit<MemoryRow, 'rowid' | 'embedding'> & { embedding: Buffer | null };

/** Where a store's sidecar file is, and whether this process may write it. */
export interface IndexSidecarLocation {
  path: string;
  writable: boolean;
}

/**
 * One journalled change written in batches (store.runs.changeRun): `batch(fn)` runs fn in its own
 * transaction with the journal capturing, `finish` closes the change, `rollback` takes back what
 * the committed batches wrote.
 */
export interface ChangeRun {
  /** The change's id once its first batch has written; null before. */
  readonly changeId: number | null;
  batch<T>(fn: () => T): T;
  /** Closes the change in one last short transaction; the change id, or null when nothing changed. */
  finish(meta: () => Record<string, unknown>, last?: () => void): number | null;
  /** `onRows` hears the journal rows taken back so far of those the change holds. */
  rollback(pacing?: RunPacing, onRows?: (done: number, total: number) => void): Promise<void>;
}

/** The pause between a long run's transactions (store.runs.pacer); `end()` when the run stops, however it stops. */
export interface Pacer {
  /** Runs one step, trying it again while another writer keeps the write lock (it never began). */
  take<T>(step: () => T): Promise<T>;
  between(): Promise<void>;
  end(): void;
}
