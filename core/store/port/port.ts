/**
 * The store port: what the engine may ask of a store, grouped by what it reads and writes
 * (memories, edges, access events, journal, tombstones, beliefs, changes), each group split into a
 * read side and a write side. `StoreReader` is every read; `StoreWriter` adds the writes. A path
 * that only reads (recall's ranking, explain, stats, the graph and list views) takes a reader, so a
 * write from it is a compile error rather than a review comment.
 *
 * The port names no database handle and no SQL: MemoryStore (sqlite/sqlite-store.ts) is the SQLite adapter
 * behind it, and its connection stays inside core/store/ (connection.ts). The methods are
 * synchronous because better-sqlite3 is; docs/architecture.md says which of them a network
 * backend (PostgreSQL) would make asynchronous and why recall's hot path would not pay for it.
 */
import type { Clock } from '../../clock.js';
import type { EdgeType } from '../../model/enums.js';
import type { StoreAsOf } from '../../model/history.js';
import type { AccessRecord, Edge, Memory, ScoreTerms } from '../../model/memory.js';
import type { OwnerScope } from '../../model/owner.js';
import type { RunPacing } from '../../model/run-pacing.js';
import type { BeforeFinish, JobProgressSink } from '../../model/job-phase.js';
import type { SchemaVersions } from './count-rows.js';
import type { AccessEvent, AuditEvent, AuditFilter, EventFilter, LoggedRecall, SessionEvent } from './event-rows.js';
import type { FeedChanges, FeedPosition } from './feed-position.js';
import type { StoreSqlReads, StoreSqlWrites } from './store-sql.js';
import type { HistoryChanges } from './history-changes.js';
import type { GraphFilter, GraphResult, ListFilter, ListRow, MemoryFacets } from './memory-views.js';
import type { BodyRow, EmbeddingRow, RawEdgeRow, RawMemoryRow, SourceRow, TextRows, VectorRow } from './source-rows.js';
import type {
  BulkLoad,
  ChangeEvent,
  ChangeRow,
  ChangeRun,
  ChangeSummary,
  FeedStatus,
  GroupUndoOptions,
  GroupUndoResult,
  IndexSidecarLocation,
  Pacer,
  PruneReport,
} from './store-rows.js';
import type { EraseOutcome, ErasePlan, EraseRunOptions, EraseSelector } from './erase.js';

/* The row and filter types of the port's methods, owned by the port's files beside this one; re-exported so that callers name them through the port. */
export type { AliasRow, DeltaRow, DimensionRow, DistJson, NewDelta, RejectionRow } from './belief-rows.js';
export type { CountBucket, KeyCount, OverviewColumn, OwnerSummaries, OwnerSummary, RetentionPoint, SchemaVersions, StatsColumn, TableCounts, ValueCount } from './count-rows.js';
export type { AccessEvent, AuditEvent, AuditFilter, EventFilter, LoggedRecall, MaintenanceEntry, SessionEvent } from './event-rows.js';
export type { FeedChanges, FeedPosition } from './feed-position.js';
export type { SqlDialectName, StoreQuery, StoreSqlReads, StoreSqlWrites } from './store-sql.js';
export type { EdgeImage, HistoryChanges, MemoryImage, RowAuthor } from './history-changes.js';
export type { DuplicateCandidateRow, FacetRow, GraphEdgeRow, GraphFilter, GraphNodeRow, GraphResult, ListFilter, ListRow, MemoryFacets, MemoryHead, OwnerState, UsageRecord } from './memory-views.js';
export type { BodyRow, EmbeddingRow, RawEdgeRow, RawMemoryRow, SourceEdge, SourceRow, TextRow, TextRows, VectorRow } from './source-rows.js';
export type {
  BulkLoad,
  BulkMemoryRow,
  ChangeEvent,
  ChangeRow,
  ChangeRun,
  ChangeSummary,
  CredentialUse,
  FeedRetention,
  FeedStatus,
  GroupUndoOptions,
  GroupUndoResult,
  IndexSidecarLocation,
  IngestMarker,
  Pacer,
  PruneReport,
  SavedProfileRow,
  StoredCredential,
  Tombstone,
} from './store-rows.js';
export type { EraseOutcome, ErasePlaceCounts, ErasePlan, EraseReclaim, EraseRunOptions, EraseSelector, EraseTarget, ErasePhase } from './erase.js';

/** A built-in profile (`nooa-0.0.9`, `mnemo`) or one saved in the store (saved-profiles.ts). */
export type ProfileName = string;
export type ChangeListener = (e: ChangeEvent) => void;

export interface ListScope {
  includeArchived?: boolean;
  owner?: OwnerScope;
}

export interface AccessWrite {
  id: string;
  record: AccessRecord;
  reinforce?: boolean;
  /** Kept in the event table only (recall context for replay); the ring keeps nooa's fields. */
  context?: Record<string, unknown>;
  /** Kept in the event table only: the score's named contributions. */
  terms?: ScoreTerms;
}

export interface IncomingEdge {
  src: string;
  type: EdgeType;
  weight: number;
  created_at: number;
}

// ---------------------------------------------------------------- the store itself

/** What every store says about itself, and its small key/value table. */
export interface StoreInfo {
  readonly path: string;
  /** The file name, for people (`:memory:` for an in-memory store). */
  readonly name: string;
  readonly clock: Clock;
  readonly readonly: boolean;
  /** Embedding dimension the store's vectors have. */
  readonly dim: number;
  readonly isClosed: boolean;
  /** Whether the store has mnemo's own tables yet (a nooa file gets them on its first write). */
  hasMnemo(): boolean;
  getMeta(key: string): string | null;
  /** nooa's schema version (SQLite's `user_version`) and Mnemo's (0 before Mnemo's tables exist). */
  schemaVersions(): SchemaVersions;
  /** Reports a problem with the data once per key (an unreadable row, a wrong-sized vector). */
  warn(key: string, message: string): void;
  /**
   * Where the engine keeps this store's derived-index snapshots (index-sidecar.ts), and whether it
   * may write there: beside a SQLite file; in this machine's cache for a PostgreSQL store
   * (pg-index-cache.ts). Null when there is nowhere (an in-memory store).
   */
  indexSidecarLocation(): IndexSidecarLocation | null;
  /**
   * The read replicas this store reads from, each with its state and lag (a PostgreSQL store
   * opened with replicas: pg-replicas.ts); empty for every other store. Asks them now.
   */
  replicas(): PgReplicaStatus[];
  close(): void;
}

/** A read replica as the store sees it: whether reads go to it, and how far behind the primary it is. */
export interface PgReplicaStatus {
  /** Its URL, the password shown as `***`. */
  url: string;
  /**
   * `streaming`: reads go to it. `behind`: it had not replayed this store's last write within the
   * wait, so reads go to the primary until it has. `down`: it cannot be reached (reads go to the
   * next replica or the primary, and it is tried again). `not_standby`: it answers but is not in
   * recovery (promoted, or not a standby).
   */
  state: 'streaming' | 'behind' | 'down' | 'not_standby';
  /** Bytes of the primary's log it has not replayed; null when either side could not say. */
  lag_bytes: number | null;
  /** Seconds since the last transaction it replayed was committed, while it has more to replay (0 when it has replayed everything it received). */
  lag_seconds: number | null;
  /** Where its replay stands (an LSN such as 0/3000148). */
  replay_lsn: string | null;
  /** Reads it served, and reads that went elsewhere because it was down or behind, since the store opened. */
  served: number;
  fell_back: number;
  /** How long a read waits for it to replay this store's last write before reading the primary (ms; MNEMO_PG_REPLICA_WAIT_MS). */
  wait_ms: number;
  /** Why it is down (or why the lag is unknown), else null. */
  error: string | null;
}


export interface StoreAdmin {
  /** Creates or upgrades mnemo's tables; a write of ours calls it first. */
  ensureMnemo(): void;
  setMeta(key: string, value: string): void;
  /** Runs fn all-or-nothing: a throw inside leaves the store as it was. */
  transaction<T>(fn: () => T): T;
}

// ---------------------------------------------------------------- memories


/*
 * Read above the port from these and the SQL seam (queries/memory-lookups.ts): the memory or id a
 * prefix names or an error saying why none does, a memory's owner, place in insertion order and
 * embedding, and a scope's count, emptiness and memories.
 */
export interface MemoryReads {
  get(id: string): Memory | null;
  /** Missing ids are absent from the map. */
  getMany(ids: readonly string[]): Map<string, Memory>;
  exists(id: string): boolean;
  /** An exact id, or a unique prefix of at least 6 characters; null when nothing matches. */
  resolveId(idOrPrefix: string): string | null;
  /** In insertion order (nooa's iteration order), edges attached. */
  iter(scope?: ListScope, batch?: number): Generator<Memory>;
}

export interface MemoryWrites {
  /** Insert or replace, with the embedding (nooa's `add`). */
  add(m: Memory, embedding: Float32Array | null): void;
  /** Update that keeps the embedding (nooa's `save`). */
  save(m: Memory): void;
  setEmbedding(id: string, embedding: Float32Array | null): void;
  /** Archives the memory (true) or restores it (false); whether its row changed. */
  setArchived(id: string, archived: boolean): boolean;
  /** Removes the memory and every edge into or out of it. */
  delete(id: string): boolean;
  /**
   * Inside a change: the memories the next writes will read and change, so that a store whose
   * every read is a round trip (PostgreSQL) can lock and read them all in one statement first.
   * A hint only: nothing changes, and a store without round trips (SQLite) need not have it.
   */
  lockAhead?(ids: readonly string[]): void;
}

// ---------------------------------------------------------------- edges

export interface EdgeReads {
  /** Outgoing edges in insertion order. */
  neighbors(id: string): Edge[];
  edgesFrom(ids: readonly string[]): Map<string, Edge[]>;
  /** Who points at this memory. */
  incoming(id: string): IncomingEdge[];
}

export interface EdgeWrites {
  addEdge(src: string, dst: string, type: string, weight?: number): boolean;
  removeEdge(src: string, dst: string, type: string): boolean;
}

// ---------------------------------------------------------------- access events

export interface AccessEventReads {
  accessEvents(filter: EventFilter): { total: number; events: AccessEvent[] };
}

export interface AccessEventWrites {
  /**
   * Each access onto its memory's ring (counters, recency, strength) and into the event table.
   * `deferIfBusy`: where one lock holds the whole store (SQLite) and another connection has it, the
   * accesses are written once it is free instead of waiting here (a recall's).
   */
  logAccesses(writes: readonly AccessWrite[], opts?: { deferIfBusy?: boolean }): void;
  /** Ring entries a memory already carries (a new or imported memory) into the event table only. */
  recordAccessEvents(memoryId: string, records: readonly AccessRecord[], strengthAfter: number | null, opts?: { backfilled?: boolean }): void;
}

// ---------------------------------------------------------------- journal

export interface JournalReads {
  /** The row kinds this store can undo. */
  readonly kinds: string[];
  /** Newest first; `credentialId` narrows to one credential's changes, or (null) to those made without one. */
  history(limit?: number, offset?: number, credentialId?: string | null): ChangeSummary[];
  get(changeId: number): ChangeSummary;
  rows(changeId: number): ChangeRow[];
  /** Later applied changes that depend on this one. */
  dependents(changeId: number): ChangeSummary[];
}

export interface JournalWrites extends JournalReads {
  undo(changeId: number): ChangeSummary;
  /** Redoes the given change, or the last one undone. */
  redo(changeId?: number): ChangeSummary;
  /**
   * Records the before-image of the row named `ns:key` in the change being written (store.change),
   * once per change; a no-op outside one. Writers of rows the store's own writes do not capture
   * (the belief aliases and rejections) call it before writing.
   */
  capture(key: string): void;
}

/**
 * What a layer above the store does after the journal restores one of its rows (undo, redo): the
 * belief layer replays the entities an alias row names. Handed to the store when it opens.
 */
export interface JournalFollowUp {
  /** The row kind (`<ns>:` of the journal key) it follows. */
  ns: string;
  afterRestore(store: StoreWriter, key: string, image: unknown | null, expected: unknown | null): void;
}

export interface ChangeWrites {
  /** Runs fn as one journalled change: one transaction, one history row, undoable. */
  change<T>(label: string, kind: string, fn: () => T, meta?: Record<string, unknown>): { result: T; changeId: number | null };
}

// ---------------------------------------------------------------- beliefs

/*
 * The belief tables are written once above the port (core/store/queries/belief-tables.ts), over
 * store.sql; only the search over delta evidence is each backend's own.
 */

export interface BeliefEvidenceReads {
  /** BM25 over delta evidence (lower is better); `match` is an FTS5 query string. The caller checks the belief tables exist. */
  searchEvidence(match: string, limit: number): { id: number; score: number }[];
}

export interface BeliefEvidenceWrites {
  /** Adds a range of new deltas to the evidence search (SQLite's FTS5 table; PostgreSQL's copy catches up when searched). */
  indexEvidence(firstId: number, lastId: number): void;
}

// ---------------------------------------------------------------- changes made by others

export interface ChangeFeed {
  /** Where the change feed stands; null when the file has none (a nooa-only store, or an old one opened read-only). */
  feedPosition(): FeedPosition | null;
  /**
   * The memories changed after `pos`; null when `pos` is from another feed, reaches back past what
   * retention kept, or more than `limit` rows changed (rebuild instead).
   */
  changedSince(pos: FeedPosition, limit: number): FeedChanges | null;
  /** Runs fn in one read transaction, so the rows it reads and the feed position it takes agree. */
  readConsistent<T>(fn: () => T): T;
  /**
   * Runs fn, which reads these memories' rows and edges (an index patching them), with them read
   * ahead in two statements where each read is a round trip (PostgreSQL); on SQLite, just fn.
   */
  withRowsAhead<T>(ids: readonly string[], fn: () => T): T;
  /** Listeners hear every write of this store, and the rows other processes changed (after catchUp). */
  onChange(listener: ChangeListener): () => void;
  /** Whether another process committed since the last check. */
  refreshIfChanged(): boolean;
  /**
   * Calls `onCommit` soon after any connection commits a change to the store, so a live view can
   * check (refreshIfChanged) at once rather than at its next poll; returns the way to stop. Null
   * when the backend has no such wake-up (SQLite: a view polls `data_version`, which is cheap).
   */
  watchCommits(onCommit: () => void): (() => void) | null;
  /** Tells listeners which memories other processes changed since the last catch-up. */
  catchUp(): void;
  /**
   * Runs fn with the store caught up once, at its start: the indexes fn reads do not each check
   * for other processes' commits again. On PostgreSQL a check is a round trip, and a recall reads
   * about eight indexes; a commit that lands while fn runs is heard by the next call, as if it had
   * landed just after this one. Our own writes inside fn are heard as they are made, as always.
   */
  readFresh<T>(fn: () => T): T;
  /**
   * The feed position the listeners have heard up to (after catchUp). Behind feedPosition() while
   * another process writes a long change: its rows are not told until it finishes.
   */
  heardPosition(): FeedPosition | null;
  /**
   * A number that moves whenever another connection commits (SQLite's `PRAGMA data_version`; 0 for
   * a store shown as of an instant). With totalChanges it tells a long change whether what it
   * planned on is still what it is about to write over.
   */
  dataVersion(): number;
  /** How many rows this connection has written since it opened: moves on every write of our own. */
  totalChanges(): number;
}

/** The store's history (time travel over the change feed: history-views.ts, history-diff.ts). */
export interface StoreHistory {
  /**
   * What instant `at` resolves to in the feed; throws a bad_input MnemoError (details.reason
   * "before_history" with details.earliest, or "no_history") when it cannot be shown.
   */
  asOf(at: number): StoreAsOf;
  /** The memories and edges changed between two positions of this feed, with their rows at both ends and who wrote them. */
  changesBetween(from: FeedPosition, to: FeedPosition): HistoryChanges;
  /** The instant this store shows when it was opened as of one; null for the store as it is now. */
  readonly history: StoreAsOf | null;
  /** Lets go of a past store's read snapshot between requests, so it does not hold back the log of later writes. */
  releaseSnapshot(): void;
  /** Takes a past store's read snapshot again; false when the store changed since it was opened (open the instant anew). */
  resumeSnapshot(): boolean;
}

// ---------------------------------------------------------------- whole-table queries

/*
 * The reads the views and the derived indexes make over whole tables, by group. They are the
 * adapter's (the SQLite one runs one statement each, in core/store/'s query modules); the engine
 * reaches them as `store.queries`, so a second backend provides them or fails the contract suite.
 */

export interface MemoryQueries {
  /** One page of the memory list, with its total. */
  listMemories(f: ListFilter): { total: number; rows: ListRow[] };
  /** The ids (at most `max`) the same filter selects, with its total. */
  listIds(f: ListFilter, max: number): { total: number; ids: string[] };
  memoryFacets(archived: 'live' | 'archived' | 'all', tagLimit: number, tagSample?: number): MemoryFacets;
  /** Every memory row in rowid order, in one statement (consistent only inside readConsistent). */
  memoryRows(): Iterable<RawMemoryRow>;
  /** The memory rows a page at a time, yielding to the event loop between pages (no shared snapshot). */
  memoryRowPages(pageSize?: number): AsyncGenerator<RawMemoryRow[]>;
  embeddingRows(): Iterable<EmbeddingRow>;
}

export interface EdgeQueries {
  graphView(f: GraphFilter): GraphResult;
  edgeRows(): Iterable<RawEdgeRow>;
  edgeRowPages(pageSize?: number): AsyncGenerator<RawEdgeRow[]>;
}

/** What the derived indexes load from: live rows in the shape each index keeps. */
export interface IndexSources {
  liveVectorRows(): Iterable<VectorRow>;
  vectorRow(id: string): VectorRow | undefined;
  sourceRow(id: string): SourceRow | undefined;
  liveSourceRows(): Iterable<SourceRow>;
  liveBodies(): BodyRow[];
}

export interface AccessEventQueries {
  /** The access log with its memories' heads; null before the event table exists. */
  auditEvents(f: AuditFilter): { total: number; events: AuditEvent[] } | null;
  loggedRecalls(limit: number): LoggedRecall[];
  /** Events of the given channels that carry a session, oldest first, streamed (`mnemo tune log`). */
  sessionAccessEvents(channels: readonly string[]): Generator<SessionEvent>;
}


/** What the change feed holds (its retention policy is read above the port: queries/feed-retention.ts). */
export interface FeedQueries {
  feedStatus(): FeedStatus;
}

/** What an erase would remove (store.runs.erase does it): a plan, on the read side, since making it writes nothing. */
export interface EraseQueries {
  planErase(selector: EraseSelector): Promise<ErasePlan>;
}

export interface StoreQueries extends MemoryQueries, EdgeQueries, IndexSources, AccessEventQueries, FeedQueries, EraseQueries {}

// ---------------------------------------------------------------- long changes and bulk writes

/*
 * The writes that do not fit one call: changes written in paced batches beside other writers (a
 * reflection apply, undo and redo of a large change, a belief ingest, a feed prune), a bulk load,
 * and the credential rows. Reached as `store.runs` on the write side only.
 */

export interface LongChanges {
  /**
   * One journalled change written in batches; a crash part-way is finished or rolled back by the
   * next writable open. `handsOver`: it will leave index snapshots before it ends (run-marker.ts).
   */
  changeRun(label: string, kind: string, meta?: Record<string, unknown>, atLock?: () => void, handsOver?: boolean): ChangeRun;
  /** Pauses between a run's transactions (and, for SQLite, paces WAL checkpoints). */
  pacer(pacing: Required<RunPacing>): Pacer;
  /** Finishes or rolls back a run whose writer died. */
  recoverDeadRun(): void;
  /**
   * Undoes a change, or redoes one (the last one undone when no id is given), in batches;
   * `shouldCancel` (looked at between batches) turns it back and throws with details.cancelled.
   */
  replayInBatches(step: ReplayStep, pacing?: RunPacing, onProgress?: JobProgressSink, beforeFinish?: BeforeFinish, shouldCancel?: () => boolean): Promise<ChangeSummary>;
  /** Undoes a change and every later change that depends on it, newest first. */
  undoWithDependents(changeId: number, opts?: GroupUndoOptions): Promise<GroupUndoResult>;
}

/** Which change a paced replay writes: an undo of one, or a redo of one (the last one undone when the id is left out). */
export type ReplayStep = { undo: number } | { redo: number | undefined };

/** A belief ingest in batches: its marker lets the next open roll back a half-written one. */
export interface IngestRuns {
  /** In the first batch's transaction: refuses (busy) while another ingest is written. */
  beginIngestRun(): IngestRun;
}

/** One belief ingest being written (store.runs.beginIngestRun), in the manner of a ChangeRun. */
export interface IngestRun {
  /** In each batch's transaction, with the delta ids it appended. */
  noteBatch(first: number, last: number): void;
  /** Dimensions that other writers' deltas touched while this run was paused. */
  foreignDeltaDimensions(): { entity: string; attribute: string }[];
  /** In the last batch's transaction: the run is done, its marker goes. */
  clear(): void;
  /** Deletes what the run appended, and its marker, in one transaction. */
  rollback(): void;
}

/** Pruning the change feed (its retention policy is recorded above the port: queries/feed-retention.ts). */
export interface FeedWrites {
  /** Prunes the whole backlog in paced steps. */
  pruneFeed(now: number, pacing?: RunPacing): Promise<PruneReport>;
}

/**
 * Erasing (shared/erase-run.ts): the one write the journal cannot take back. The plan writes
 * nothing (a dry run); the erase removes what it names from every place, in paced transactions,
 * records a receipt in the journal and makes the removed bytes go from the files.
 */
export interface EraseRuns {
  erase(plan: ErasePlan, opts: EraseRunOptions, pacing?: RunPacing): Promise<EraseOutcome>;
}

export interface StoreRuns extends LongChanges, IngestRuns, FeedWrites, EraseRuns {
  /** Switches the store to bulk loading (the demo generator) until `finish()`. */
  beginBulkLoad(): BulkLoad;
}

// ---------------------------------------------------------------- above the port

/*
 * Written once above the port for both backends, over the methods here and the SQL seam
 * (core/store/queries/), so that no backend carries them: the memory lookups (memory-lookups.ts),
 * owner renames (owner-rename.ts), tombstones (tombstones.ts), saved profiles and the default
 * profile (saved-profiles.ts), the maintenance log (maintenance-log.ts), the change feed's retention
 * policy (feed-retention.ts), the access log's count, newest id and logged results (access-log.ts),
 * and the edge and entity rows the derived indexes load (edge-sources.ts).
 */

// ---------------------------------------------------------------- the two sides

/** Everything a read path may do. */
export interface StoreReader extends StoreInfo, MemoryReads, EdgeReads, AccessEventReads, BeliefEvidenceReads, ChangeFeed, StoreHistory {
  readonly journal: JournalReads;
  readonly queries: StoreQueries;
  /** Runs the store's own shared queries (core/store/queries/), reads only. */
  readonly sql: StoreSqlReads;
  /**
   * The memories' text as the list's full-text search reads it (derived/text-search.ts), and whether
   * that search may be kept in the index sidecar between opens: only where the change feed can catch
   * it up (SQLite); elsewhere it is rebuilt on each load.
   */
  textRows(): { rows: TextRows; sidecarKept: boolean };
}

/** Everything: the reads and the writes. */
export interface StoreWriter extends StoreReader, StoreAdmin, MemoryWrites, EdgeWrites, AccessEventWrites, ChangeWrites, BeliefEvidenceWrites {
  readonly journal: JournalWrites;
  readonly runs: StoreRuns;
  readonly sql: StoreSqlWrites;
}
