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
import type { StoreAsOf } from '../../model/history.js';
import type { HistoryChanges } from './history-changes.js';
import type { EdgeType } from '../../model/enums.js';
import type { AccessRecord, Edge, Memory, ScoreTerms } from '../../model/memory.js';
import type { OwnerScope } from '../../model/owner.js';
import type { AccessEvent, EventFilter } from '../sqlite/access-events.js';
import type { SessionEvent } from '../sqlite/session-events.js';
import type { AliasRow, DeltaRow, DimensionRow, DistJson, NewDelta, RejectionRow } from '../sqlite/belief-tables.js';
import type { ChangeRow, ChangeSummary } from '../shared/journal.js';
import type { MaintenanceEntry } from '../sqlite/maintenance-log.js';
import type { ChangeEvent } from '../shared/store-handle.js';
import type { Tombstone } from '../sqlite/tombstones.js';
import type { AuditEvent, AuditFilter } from '../sqlite/access-queries.js';
import type { BodyRow, SourceEdge, SourceRow, VectorRow } from '../sqlite/derived-sources.js';
import type { DuplicateCandidateRow } from '../sqlite/duplicate-rows.js';
import type { memoryFacets } from '../sqlite/facets.js';
import type { EmbeddingRow, RawEdgeRow, RawMemoryRow } from '../sqlite/fingerprint-rows.js';
import type { GraphFilter, GraphResult } from '../sqlite/graph-query.js';
import type { ListFilter, ListRow } from '../sqlite/list-query.js';
import type { LoggedRecall } from '../sqlite/logged-recalls.js';
import type { CountBucket, OverviewColumn, RetentionPoint, ValueCount } from '../sqlite/overview-counts.js';
import type { OwnerState } from '../sqlite/recall-reads.js';
import type { OwnerSummaries } from '../sqlite/owner-summaries.js';
import type { MemoryHead } from '../sqlite/review-heads.js';
import type { KeyCount, SchemaVersions, StatsColumn, TableCounts } from '../sqlite/store-counts.js';
import type { UsageRecord } from '../sqlite/usage-rows.js';
import type { FeedChanges, FeedPosition } from './feed-position.js';
import type { CredentialRef } from '../../model/agent-credential.js';
import type { RunPacing } from '../../model/run-pacing.js';
import type { BeforeFinish, JobProgressSink } from '../../model/job-phase.js';
import type { CredentialUse, StoredCredential } from '../sqlite/agent-credentials.js';
import type { BulkLoad } from '../sqlite/bulk-load.js';
import type { ChangeRun, Pacer } from '../shared/change-run.js';
import type { FeedRetention, FeedStatus, PruneReport } from '../sqlite/feed-retention.js';
import type { IngestMarker } from '../shared/ingest-run.js';
import type { GroupUndoOptions, GroupUndoResult } from '../shared/undo-group.js';
import type { SavedProfileRow } from '../sqlite/saved-profiles.js';
import type { IndexSidecar, IndexSidecarLocation } from '../derived/index-sidecar.js';
import type { EraseOutcome, ErasePlan, EraseRunOptions, EraseSelector } from './erase.js';
export type { IndexSidecarLocation } from '../derived/index-sidecar.js';

/* The row and filter types of the port's methods, so that callers name them through the port. */
export type { AccessEvent, EventFilter } from '../sqlite/access-events.js';
export type { SessionEvent } from '../sqlite/session-events.js';
export type { AuditEvent, AuditFilter } from '../sqlite/access-queries.js';
export type { AliasRow, DeltaRow, DimensionRow, DistJson, NewDelta, RejectionRow } from '../sqlite/belief-tables.js';
export type { BodyRow, SourceEdge, SourceRow, VectorRow } from '../sqlite/derived-sources.js';
export type { DuplicateCandidateRow } from '../sqlite/duplicate-rows.js';
export type { FacetRow } from '../sqlite/facets.js';
export type { EmbeddingRow, RawEdgeRow, RawMemoryRow } from '../sqlite/fingerprint-rows.js';
export type { GraphEdgeRow, GraphFilter, GraphNodeRow, GraphResult } from '../sqlite/graph-query.js';
export type { EdgeImage, HistoryChanges, MemoryImage, RowAuthor } from './history-changes.js';
export type { ChangeRow, ChangeSummary } from '../shared/journal.js';
export type { ListFilter, ListRow } from '../sqlite/list-query.js';
export type { LoggedRecall } from '../sqlite/logged-recalls.js';
export type { MaintenanceEntry } from '../sqlite/maintenance-log.js';
export type { CountBucket, OverviewColumn, RetentionPoint, ValueCount } from '../sqlite/overview-counts.js';
export type { OwnerState } from '../sqlite/recall-reads.js';
export type { OwnerSummaries, OwnerSummary } from '../sqlite/owner-summaries.js';
export type { MemoryHead } from '../sqlite/review-heads.js';
export type { KeyCount, SchemaVersions, StatsColumn, TableCounts } from '../sqlite/store-counts.js';
export type { ChangeEvent } from '../shared/store-handle.js';
export type { SavedProfileRow } from '../sqlite/saved-profiles.js';
export type { Tombstone } from '../sqlite/tombstones.js';
export type { UsageRecord } from '../sqlite/usage-rows.js';
export type { FeedChanges, FeedPosition } from './feed-position.js';
export type { CredentialUse, StoredCredential } from '../sqlite/agent-credentials.js';
export type { BulkLoad, BulkMemoryRow } from '../sqlite/bulk-load.js';
export type { ChangeRun, Pacer } from '../shared/change-run.js';
export type { EraseOutcome, ErasePlaceCounts, ErasePlan, EraseReclaim, EraseRunOptions, EraseSelector, EraseTarget, ErasePhase } from './erase.js';
export type { FeedRetention, FeedStatus, PruneReport } from '../sqlite/feed-retention.js';
export type { IngestMarker } from '../shared/ingest-run.js';
export type { GroupUndoOptions, GroupUndoResult } from '../shared/undo-group.js';

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
  profile(): ProfileName;
  maintenanceHistory(limit?: number): MaintenanceEntry[];
  /** Reports a problem with the data once per key (an unreadable row, a wrong-sized vector). */
  warn(key: string, message: string): void;
  /**
   * Where the engine keeps this store's derived-index snapshots (index-sidecar.ts), and whether it
   * may write there: beside a SQLite file; in this machine's cache for a PostgreSQL store
   * (pg-index-cache.ts). Null when there is nowhere (an in-memory store).
   */
  indexSidecarLocation(): IndexSidecarLocation | null;
  close(): void;
}


export interface StoreAdmin {
  /** Creates or upgrades mnemo's tables; a write of ours calls it first. */
  ensureMnemo(): void;
  setMeta(key: string, value: string): void;
  /** Runs fn all-or-nothing: a throw inside leaves the store as it was. */
  transaction<T>(fn: () => T): T;
  logMaintenance(kind: string, report: Record<string, unknown>): void;
}

// ---------------------------------------------------------------- memories

export interface MemoryReads {
  get(id: string): Memory | null;
  /** Missing ids are absent from the map. */
  getMany(ids: readonly string[]): Map<string, Memory>;
  require(idOrPrefix: string): Memory;
  exists(id: string): boolean;
  /** An exact id, or a unique prefix of at least 6 characters; null when nothing matches. */
  resolveId(idOrPrefix: string): string | null;
  requireId(idOrPrefix: string): string;
  ownerOf(id: string): string | null;
  count(scope?: ListScope): number;
  /** Whether no memory is in scope (stops at the first row). */
  isEmpty(scope?: ListScope): boolean;
  /** In insertion order (nooa's iteration order), edges attached. */
  iter(scope?: ListScope, batch?: number): Generator<Memory>;
  all(scope?: ListScope): Memory[];
  getEmbedding(id: string): Float32Array | null;
  /**
   * The memory's place in insertion order (SQLite's rowid): nooa breaks ties by it, so a reflection
   * pass run as the reference does needs it. A second backend keeps an equivalent sequence.
   */
  rowidOf(id: string): number | null;
}

export interface MemoryWrites {
  /** Insert or replace, with the embedding (nooa's `add`). */
  add(m: Memory, embedding: Float32Array | null): void;
  /** Update that keeps the embedding (nooa's `save`). */
  save(m: Memory): void;
  setEmbedding(id: string, embedding: Float32Array | null): void;
  archive(id: string): boolean;
  restore(id: string): boolean;
  /** Removes the memory and every edge into or out of it. */
  delete(id: string): boolean;
  renameOwner(from: string, to: string): number;
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
  accessEventCount(): number;
}

export interface AccessEventWrites {
  /** Each access onto its memory's ring (counters, recency, strength) and into the event table. */
  logAccesses(writes: readonly AccessWrite[]): void;
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

// ---------------------------------------------------------------- tombstones

export interface TombstoneReads {
  /** The tombstone left by forgetting this content, if any. */
  tombstoneFor(content: string): Tombstone | null;
}

export interface TombstoneWrites {
  putTombstone(t: Tombstone): void;
}

// ---------------------------------------------------------------- beliefs

export interface BeliefReads {
  exists(): boolean;
  dimension(entity: string, attribute: string, tablesExist?: boolean): DimensionRow | null;
  dimensionsOf(entity: string): DimensionRow[];
  allDimensions(): DimensionRow[];
  entities(search: string | undefined, limit: number, offset: number): { entity: string; dimensions: number; deltas: number; t_last: number }[];
  entityCount(search: string | undefined): number;
  delta(id: number): DeltaRow | null;
  deltasOf(entity: string, attribute: string, until?: number): DeltaRow[];
  lastDeltaAtOrBefore(entity: string, attribute: string, t: number): DeltaRow | null;
  timeline(entity: string, attribute: string | undefined, limit: number, offset: number, until?: number): DeltaRow[];
  deltasOfEntities(names: readonly string[]): DeltaRow[];
  scan(): Generator<Pick<DeltaRow, 'entity' | 'attribute' | 'value' | 't' | 'reliability' | 'surprise'>>;
  deltasForMemory(memoryId: string): DeltaRow[];
  basis(): string;
  counts(): { dimensions: number; deltas: number; entities: number; aliases: number };
  searchEvidence(match: string, limit: number): { id: number; score: number }[];
  aliases(): AliasRow[];
  alias(name: string): AliasRow | null;
  rejections(): RejectionRow[];
  rejection(a: string, b: string): RejectionRow | null;
}

export interface BeliefWrites extends BeliefReads {
  prepareWrite(): void;
  putDimension(d: DimensionRow): void;
  deleteDimensionsOf(entity: string): void;
  insertDelta(d: NewDelta): number;
  indexEvidence(firstId: number, lastId: number): void;
  updateDerived(id: number, entity: string, prior: DistJson, posterior: DistJson, surprise: number): void;
  putAlias(a: AliasRow): void;
  deleteAlias(name: string): void;
  putRejection(a: string, b: string, at: number): void;
  deleteRejection(a: string, b: string): void;
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

export type MemoryFacets = ReturnType<typeof memoryFacets>;

export interface MemoryQueries {
  /** One page of the memory list, with its total. */
  listMemories(f: ListFilter): { total: number; rows: ListRow[] };
  /** The ids (at most `max`) the same filter selects, with its total. */
  listIds(f: ListFilter, max: number): { total: number; ids: string[] };
  memoryFacets(archived: 'live' | 'archived' | 'all', tagLimit: number, tagSample?: number): MemoryFacets;
  /** Owner, archived flag and status of each id that exists (recall's owner and status gate). */
  ownerStates(ids: readonly string[]): Map<string, OwnerState>;
  /** Every memory's review head (title, type, owner...), by id. */
  memoryHeads(): Map<string, MemoryHead>;
  liveDuplicateCandidates(): Iterable<DuplicateCandidateRow>;
  duplicateCandidate(id: string): DuplicateCandidateRow | undefined;
  titlesOf(ids: string[]): Map<string, string | null>;
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
  liveEntities(): { id: string; entities: string | null }[];
  allEdges(): Iterable<SourceEdge>;
  edgesOfType(type: EdgeType): { src: string; dst: string }[];
  edgeTargets(src: string, type: EdgeType): string[];
}

export interface AccessEventQueries {
  /** Each memory's access ring and the fields retention needs, in insertion order. */
  iterUsageRecords(scope?: { owner?: OwnerScope; includeArchived?: boolean }): Generator<UsageRecord>;
  usageRecords(ids: readonly string[]): Map<string, UsageRecord>;
  /** The access log with its memories' heads; null before the event table exists. */
  auditEvents(f: AuditFilter): { total: number; events: AuditEvent[] } | null;
  loggedRecalls(limit: number): LoggedRecall[];
  loggedResultIds(queries: readonly string[], k: number): Map<string, string[]>;
  /** Events of the given channels that carry a session, oldest first, streamed (`mnemo tune log`). */
  sessionAccessEvents(channels: readonly string[]): Generator<SessionEvent>;
  /** The newest access event's id (0 when none): whether the log grew since a whole-log pass. */
  latestAccessEventId(): number;
}

export interface JournalQueries {
  /** Up to `limit` ids of memories a change wrote. */
  memoriesTouched(changeId: number, limit: number): string[];
}

/** Counts for the Overview, stats and the store panel. */
export interface CountQueries {
  liveValueCounts(column: OverviewColumn): ValueCount[];
  liveAndArchivedCounts(): { live: number; archived: number };
  liveEdgeTypeCounts(): ValueCount[];
  liveRetentionBucketCounts(now: number, halfLifeHours: number, buckets: readonly CountBucket[]): number[];
  liveIdleBucketCounts(now: number, buckets: readonly CountBucket[]): number[];
  liveCount(): number;
  retentionSample(now: number, halfLifeHours: number, step: number): RetentionPoint[];
  tableCounts(): TableCounts;
  schemaVersions(): SchemaVersions;
  countsByColumn(column: StatsColumn, scope: OwnerScope): KeyCount[];
  archivedCount(scope: OwnerScope): number;
  edgeCountsByType(): { k: string; n: number }[];
  beliefDimensionCount(): number;
  /**
   * One row per owner (memories live and archived, live ones by type, edges out, accesses on its
   * memories, its reads of other roles' memories, newest write and access): each table grouped once,
   * the first `limit` owners in byte order.
   */
  ownerSummaries(limit: number): OwnerSummaries;
}

/** The agent credentials (hashes only) and what each was used for. */
export interface CredentialQueries {
  credentialById(id: string): StoredCredential | null;
  credentialByHash(tokenHash: string): StoredCredential | null;
  /** Every credential, revoked ones too, oldest first. */
  listCredentialRows(): StoredCredential[];
  /** Id to owner and label, for naming who made a change or an access. */
  credentialRefs(): Map<string, CredentialRef>;
  credentialUse(): CredentialUse[];
}

/** The profiles saved in the store by name (mnemo_profiles); empty before the table exists. */
export interface SavedProfileQueries {
  savedProfile(name: string): SavedProfileRow | null;
  /** Every saved profile, by name. */
  savedProfiles(): SavedProfileRow[];
}

/** How long the change feed keeps its rows, and what it holds. */
export interface FeedQueries {
  feedRetention(): FeedRetention;
  feedStatus(): FeedStatus;
}

/** What an erase would remove (store.runs.erase does it): a plan, on the read side, since making it writes nothing. */
export interface EraseQueries {
  planErase(selector: EraseSelector): Promise<ErasePlan>;
}

export interface StoreQueries extends MemoryQueries, EdgeQueries, IndexSources, AccessEventQueries, JournalQueries, CountQueries, CredentialQueries, SavedProfileQueries, FeedQueries, EraseQueries {}

// ---------------------------------------------------------------- long changes and bulk writes

/*
 * The writes that do not fit one call: changes written in paced batches beside other writers (a
 * reflection apply, undo and redo of a large change, a belief ingest, a feed prune), a bulk load,
 * and the credential rows. Reached as `store.runs` on the write side only.
 */

export interface LongChanges {
  /** One journalled change written in batches; a crash part-way is finished or rolled back by the next writable open. */
  changeRun(label: string, kind: string, meta?: Record<string, unknown>, atLock?: () => void): ChangeRun;
  /** Pauses between a run's transactions (and, for SQLite, paces WAL checkpoints). */
  pacer(pacing: Required<RunPacing>): Pacer;
  /** Finishes or rolls back a run whose writer died. */
  recoverDeadRun(): void;
  /** Undoes a change in batches; `shouldCancel` (looked at between batches) turns it back and throws with details.cancelled. */
  undoInBatches(changeId: number, pacing?: RunPacing, onProgress?: JobProgressSink, beforeFinish?: BeforeFinish, shouldCancel?: () => boolean): Promise<ChangeSummary>;
  redoInBatches(changeId: number | undefined, pacing?: RunPacing, onProgress?: JobProgressSink, beforeFinish?: BeforeFinish, shouldCancel?: () => boolean): Promise<ChangeSummary>;
  /** Undoes a change and every later change that depends on it, newest first. */
  undoWithDependents(changeId: number, opts?: GroupUndoOptions): Promise<GroupUndoResult>;
}

/** A belief ingest in batches: its marker lets the next open roll back a half-written one. */
export interface IngestRuns {
  beginIngestRun(): IngestMarker;
  noteIngestBatch(m: IngestMarker, first: number, last: number): void;
  /** Dimensions that other writers' deltas touched while this run was paused. */
  foreignDeltaDimensions(m: IngestMarker): { entity: string; attribute: string }[];
  clearIngestRun(): void;
  rollbackIngestRun(m: IngestMarker): void;
}

export interface FeedWrites {
  setFeedRetention(policy: Partial<FeedRetention>): FeedRetention;
  /** Prunes the whole backlog in paced steps. */
  pruneFeed(now: number, pacing?: RunPacing): Promise<PruneReport>;
}

export interface CredentialWrites {
  insertCredential(c: StoredCredential): void;
  /** Marks the given credentials revoked at `now`; returns the ids that were live. */
  markRevoked(ids: readonly string[], now: number): string[];
}

/**
 * Erasing (shared/erase-run.ts): the one write the journal cannot take back. The plan writes
 * nothing (a dry run); the erase removes what it names from every place, in paced transactions,
 * records a receipt in the journal and makes the removed bytes go from the files.
 */
export interface EraseRuns {
  erase(plan: ErasePlan, opts: EraseRunOptions, pacing?: RunPacing): Promise<EraseOutcome>;
}

export interface StoreRuns extends LongChanges, IngestRuns, FeedWrites, CredentialWrites, EraseRuns {
  /** Switches the store to bulk loading (the demo generator) until `finish()`. */
  beginBulkLoad(): BulkLoad;
}

/**
 * Saved profiles and the store's default, each written inside a journalled change (`store.change`)
 * so that it is undone and redone like any other.
 */
export interface SavedProfileWrites {
  /** Inserts or replaces a saved profile. */
  putSavedProfile(row: SavedProfileRow): void;
  deleteSavedProfile(name: string): void;
  /** Makes `name` (built in or saved) the store's default, and stamps when the saved one became it. */
  setDefaultProfile(name: string): void;
}

// ---------------------------------------------------------------- the two sides

/**
 * The memory list's full-text search: every word must match as a prefix, and a word that looks like
 * a hex id prefix also matches ids. The adapter makes it (SQLite: FTS5 tables, in the index sidecar
 * when one is given, text-search.ts); the engine keeps it current as a derived index (it has the
 * same members as a sidecar-resident DerivedIndex, spelled out here so the port names no module
 * that names the port).
 */
export interface TextSearch {
  load(store: StoreReader): void;
  update(store: StoreReader, id: string): void;
  remove(id: string): void;
  /** Records a feed position the search reflects at least (when the engine closes). */
  recordPosition(position: FeedPosition, now: number): void;
  dispose(): void;
  /** The ids of the memories that match every word. */
  match(words: readonly string[]): string[];
}

/** Everything a read path may do. */
export interface StoreReader extends StoreInfo, MemoryReads, EdgeReads, AccessEventReads, TombstoneReads, ChangeFeed, StoreHistory {
  readonly journal: JournalReads;
  beliefTables(): BeliefReads;
  readonly queries: StoreQueries;
  /** A new full-text search over this store's memories, kept in `sidecar` when one is given (else rebuilt on each load). */
  newTextSearch(sidecar: IndexSidecar | null): TextSearch;
}

/** Everything: the reads and the writes. */
export interface StoreWriter extends StoreReader, StoreAdmin, MemoryWrites, EdgeWrites, AccessEventWrites, ChangeWrites, TombstoneWrites, SavedProfileWrites {
  readonly journal: JournalWrites;
  beliefTables(): BeliefWrites;
  readonly runs: StoreRuns;
}
