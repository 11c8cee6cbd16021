/**
 * PgStore: the PostgreSQL adapter of the store port (port.ts), over one synchronous connection
 * (sync-pg.ts) to a store's schema (pg-schema.ts, the one `mnemo copy` makes). It is built in
 * slices (issue #17). What it does today: the store's info and meta, memories (reads and writes,
 * owner scopes, id prefixes, embeddings), edges, access events, the journal (change, undo, redo,
 * dependents) over memory, tombstone and belief alias rows, tombstones, all-or-nothing
 * transactions, the maintenance log (written and read), the belief tables (pg-belief-tables.ts),
 * the memory list's text search (SQLite's index over this store's rows), listeners told of this
 * connection's own writes and of what other connections commit (the change feed: pg-feed.ts,
 * pg-external-changes.ts), read-only connections, store.queries and store.runs with feed
 * retention (long changes and ingest runs run SQLite's code over this adapter's statements), and
 * time travel: the store as of an instant (openAsOf, asOf) and what changed between two
 * (changesBetween), from the feed's before-images (pg-history-*.ts). The engine opens PostgreSQL
 * stores through open-location.ts.
 *
 * Differences from the SQLite adapter that later slices must settle:
 * - The change feed is its own table, read by transaction id. A position is a transaction-id
 *   watermark (pg-feed.ts); a position of the past is its instant (pg-history-instant.ts).
 * - A transaction is READ COMMITTED, not SQLite's IMMEDIATE (one writer at a time). The
 *   read-modify-writes of one memory (an edge added or removed, an access logged) lock its row
 *   first, and so does a read of a memory inside a change (get), which is how a reflection op's
 *   read and write of it stay one step; a save of a memory read earlier outside a transaction
 *   overwrites, as on SQLite. The journal's checks lock what they read, row by row
 *   (pg-journal-guards.ts): an undo or redo locks its change's journal row and the rows it
 *   restores before checking (a second undo of it is refused, a writer of those rows waits), the
 *   undo order is given out under a lock of its own, and a long run's marker is claimed by an
 *   insert a second run finds. A paced run locks rows only in its first batch: between batches
 *   other writers write, as on SQLite. Deadlocks, serialization failures and lock timeouts reach
 *   the caller as `busy`, the transaction rolled back.
 * - Inside a transaction, the memories a change read are held with its writes (pg-held-rows.ts)
 *   and writes nobody reads wait for the next statement (SyncPg.defer): a reflection apply sends
 *   a request every twenty operations or so rather than eleven per operation.
 * - A statement that fails inside a transaction aborts the whole transaction in PostgreSQL; SQLite
 *   would let the transaction go on. The adapter's own statements do not fail that way.
 */
import { randomUUID } from 'node:crypto';
import { fixedClock, systemClock, type Clock } from '../../clock.js';
import { badInput, MnemoError, notFound } from '../../errors.js';
import { isEdgeType } from '../../model/enums.js';
import { addEdge as addEdgeToMemory, logAccess, type AccessRecord, type Edge, type Memory } from '../../model/memory.js';
import { validateOwner } from '../../model/owner.js';
import { pyDumps } from '../../model/pyjson.js';
import { accessEventValues } from '../access-events.js';
import { currentCredentialId } from '../attribution.js';
import { recoverInterruptedRun } from '../change-run.js';
import { recoverInterruptedIngest } from '../ingest-run.js';
import { ingestRuns } from '../ingest-runs.js';
import { Journal } from '../journal.js';
import { journalRuns } from '../journal-runs.js';
import { beliefJournalTargets } from '../belief-journal-targets.js';
import type { MaintenanceEntry } from '../maintenance-log.js';
import { TextSearchIndex } from '../text-search.js';
import type { IndexSidecar } from '../index-sidecar.js';
import type { StoreHandle } from '../store-handle.js';
import { contentHash } from '../tombstones.js';
import { feedRetention, pruneFeed, setFeedRetention } from '../feed-retention.js';
import { blobToVector, decodeRow, encodeRow, vectorToBlob, type MemoryRow } from '../codec.js';
import { ownerClause } from '../owner-sql.js';
import { DEFAULT_PROFILE_KEY, setDefaultProfileWith, type SavedProfileRow } from '../saved-profiles.js';
import type {
  AccessEvent,
  AccessWrite,
  BeliefWrites,
  ChangeEvent,
  ChangeListener,
  EventFilter,
  FeedChanges,
  FeedPosition,
  HistoryChanges,
  IncomingEdge,
  IndexSidecarLocation,
  JournalFollowUp,
  ListScope,
  ProfileName,
  StoreQueries,
  StoreReader,
  StoreRuns,
  StoreWriter,
  TextSearch,
  Tombstone,
} from '../port.js';
import { untilAsOf, type StoreAsOf } from '../../model/history.js';
import { noHistory } from '../history-instant.js';
import { createHistoryViews, fillHistoryViews } from './pg-history-views.js';
import { resolvePgInstant } from './pg-history-instant.js';
import { pgChangesBetween } from './pg-history-diff.js';
import { PgAudit } from './pg-audit.js';
import { beginPgBulkLoad } from './pg-bulk-load.js';
import { PgCounts } from './pg-counts.js';
import { PgExternalChanges } from './pg-external-changes.js';
import { PgChangeNotices } from './pg-change-notices.js';
import { PgFeed } from './pg-feed.js';
import { pgFeedStatus, pgPruneFeedStep } from './pg-feed-retention.js';
import { definePgJsonFunctions } from './pg-json-sql.js';
import { PgGraph } from './pg-graph.js';
import { PgList } from './pg-list.js';
import { PgCredentials } from './pg-credentials.js';
import { PgBeliefTables } from './pg-belief-tables.js';
import { PgEvidenceMirror } from './pg-evidence-mirror.js';
import { readPgMaintenanceHistory } from './pg-maintenance-log.js';
import { pgTextRows } from './pg-text-rows.js';
import { PgSavedProfiles } from './pg-saved-profiles.js';
import { pgRuns } from './pg-not-yet-groups.js';
import { pgIngestSql } from './pg-ingest-sql.js';
import { pgJournalSqlFor } from './pg-agent-journal-sql.js';
import { pgJournalSql } from './pg-journal-sql.js';
import { pgMemoryRowTarget, pgTombstone, pgTombstoneTarget, putPgTombstone } from './pg-journal-targets.js';
import { pgQueries } from './pg-queries.js';
import { PgMemoryQueries } from './pg-memory-queries.js';
import { PgRowQueries } from './pg-row-queries.js';
import { PgReadAhead } from './pg-read-ahead.js';
import { PgAccessEvents } from './pg-access-events.js';
import { PgMemoryRows } from './pg-memory-rows.js';
import { numbered } from './pg-sql.js';
import { PgStoreConnection } from './pg-store-connection.js';
import { addMnemoToPgStore, preparePgStore } from './pg-store-init.js';
import { parsePgStoreUrl, type PgStoreUrl } from './pg-url.js';
import { pgIndexCacheDir, pgIndexCachePath, pgStoreView } from './pg-index-cache.js';

export interface PgOpenOptions {
  clock?: Clock;
  /** Make a new store when the schema holds no table (absent or empty). */
  create?: boolean;
  readonly?: boolean;
  /** Profile recorded in a new store; `mnemo`, as for a new SQLite file. */
  initialProfile?: ProfileName;
  onWarning?: (message: string) => void;
  /** Embedding dimension expected in blobs; 256 for the default hashing embedder. */
  dim?: number;
  /** What layers above do after the journal restores their rows (as OpenOptions.journalFollowUps on SQLite). */
  journalFollowUps?: readonly JournalFollowUp[];
}

export class PgStore implements StoreWriter, StoreHandle {
  readonly path: string;
  readonly name: string;
  readonly clock: Clock;
  readonly readonly: boolean;
  readonly dim: number;
  readonly journal: Journal<PgStore>;
  readonly queries: StoreQueries;
  readonly runs: StoreRuns;
  /** Set on a store opened as of an instant (openAsOf): it shows that instant and never changes. */
  readonly history: StoreAsOf | null;
  private readonly conn: PgStoreConnection;
  /** Inside readFresh: the store was caught up at its start, and the indexes read in it do not check again. */
  private freshScope = false;
  /** The commit listeners watchCommits started, closed with the store. */
  private readonly notices = new Set<PgChangeNotices>();
  private readonly feed: PgFeed;
  /** This connection's token in the change feed's rows (`mnemo.writer`): how it leaves out its own. */
  private readonly writerToken = randomUUID();
  /** Hears other connections' commits; null without a feed (an older store opened read-only). */
  private readonly external: PgExternalChanges | null;
  /** Transactions of ours that wrote (totalChanges). */
  private writes = 0;
  private readonly rows: PgMemoryRows;
  private readonly readAhead: PgReadAhead;
  private readonly events: PgAccessEvents;
  private readonly profiles: PgSavedProfiles;
  /** The belief evidence search's copy of the evidence (one per connection, made on first search). */
  private readonly evidence: PgEvidenceMirror;
  private readonly listeners = new Set<ChangeListener>();
  private readonly warned = new Set<string>();
  private readonly onWarning: (message: string) => void;
  /** Whether the store has Mnemo's tables' contents (a nooa-only copy gains them on its first Mnemo write). */
  private mnemo: boolean;
  /** Nesting depth of transaction(): only the outermost one sends BEGIN and COMMIT. */
  private depth = 0;
  /** The memories listeners were told of in the running outermost transaction (retold if it rolls back). */
  private told: { ids: Set<string>; reset: boolean } | null = null;
  private closed = false;
  /** Where this connection's index snapshots are cached, once asked (undefined: not yet). */
  private sidecarLocation: IndexSidecarLocation | null | undefined;

  private constructor(conn: PgStoreConnection, opts: PgOpenOptions, history: StoreAsOf | null = null) {
    this.conn = conn;
    this.history = history;
    this.feed = new PgFeed(conn);
    this.readAhead = new PgReadAhead(conn);
    this.rows = new PgMemoryRows(conn, this.readAhead);
    this.events = new PgAccessEvents(conn);
    this.profiles = new PgSavedProfiles(conn);
    this.evidence = new PgEvidenceMirror(conn);
    const beliefRows = new PgBeliefTables(conn, this, this.evidence);
    this.journal = new Journal<PgStore>(
      this,
      pgJournalSqlFor(conn, pgJournalSql(conn)),
      [pgMemoryRowTarget(this.rows), pgTombstoneTarget(conn), this.profiles.target(), this.profiles.metaTarget(), ...beliefJournalTargets(() => beliefRows)],
      opts.journalFollowUps ?? [],
    );
    const credentials = new PgCredentials(conn);
    const feedQueries = { feedRetention: () => feedRetention(this), feedStatus: () => pgFeedStatus(this, this.feed) };
    this.queries = pgQueries(new PgRowQueries(conn, undefined, this.readAhead), new PgMemoryQueries(conn), credentials, new PgCounts(conn), new PgAudit(conn), this.profiles, new PgList(conn), new PgGraph(conn), feedQueries);
    this.runs = pgRuns({
      ...journalRuns(this),
      ...ingestRuns(this, pgIngestSql(conn)),
      insertCredential: (c) =>
        this.transaction(() => {
          this.ensureMnemo();
          credentials.insert(c);
        }),
      markRevoked: (ids, now) =>
        this.transaction(() => {
          this.ensureMnemo();
          return credentials.markRevoked(ids, now);
        }),
      beginBulkLoad: () => beginPgBulkLoad(conn, this),
      setFeedRetention: (policy) => setFeedRetention(this, policy),
      pruneFeed: (now, pacing) => pruneFeed(this, now, pacing, (store, at) => pgPruneFeedStep(store, this.feed, at)),
    });
    this.path = conn.shown;
    this.name = conn.url.schema;
    this.clock = opts.clock ?? systemClock;
    this.readonly = opts.readonly ?? false;
    this.dim = opts.dim ?? 256;
    this.onWarning = opts.onWarning ?? ((m) => process.emitWarning(m, { code: 'MNEMO_STORE' }));
    this.mnemo = preparePgStore(conn, { create: (opts.create ?? false) && !this.readonly, initialProfile: opts.initialProfile ?? 'mnemo', now: this.clock.now() });
    // A store made before the feed (or before its latest triggers: commit notifications, before-images) gets it at its first writable open; a read-only one goes without.
    if (!this.readonly) this.feed.installOrUpgrade(this.clock.now());
    conn.db().query(`SELECT set_config('mnemo.writer', $1, false)`, [this.writerToken]);
    // The past does not move: nothing to hear.
    const start = history ? null : this.feed.position();
    this.external = start ? new PgExternalChanges(this, this.feed, this.writerToken, start) : null;
  }

  /** Opens the store a `postgres://…?schema=name` URL names (a new one with `create`). */
  static open(location: string | PgStoreUrl, opts: PgOpenOptions = {}): PgStore {
    const conn = new PgStoreConnection(typeof location === 'string' ? parsePgStoreUrl(location) : location);
    try {
      definePgJsonFunctions(conn.db());
      // The server refuses writes on a read-only connection too, whatever a caller gets past the port.
      if (opts.readonly) conn.db().query('SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY');
      const store = new PgStore(conn, opts);
      // A long change a writer that died left half-written is rolled back, a half-done undo or redo
      // completed, and a belief ingest it left is removed, as MemoryStore.open does.
      const recovered = recoverInterruptedRun(store);
      if (recovered) store.warn('recovered-run', recovered);
      const ingest = recoverInterruptedIngest(store, pgIngestSql(conn));
      if (ingest) store.warn('recovered-ingest', ingest);
      return store;
    } catch (err) {
      conn.close();
      throw err;
    }
  }

  /**
   * Opens the store as it stood at instant `at` (epoch seconds), on a connection of its own that
   * holds one REPEATABLE READ, READ ONLY transaction for its life (pg-history-views.ts): every read
   * works on it unchanged, and it never changes, whatever others commit meanwhile. Every write is
   * refused. Its clock stops at `at` unless nothing changed after it (then it is the store as it is
   * now, on the caller's clock). Refuses an instant before the history starts (pg-history-instant.ts).
   */
  static openAsOf(location: string | PgStoreUrl, at: number, opts: Omit<PgOpenOptions, 'readonly' | 'create'> = {}): PgStore {
    const conn = new PgStoreConnection(typeof location === 'string' ? parsePgStoreUrl(location) : location);
    try {
      definePgJsonFunctions(conn.db());
      const feed = new PgFeed(conn);
      if (!feed.installed()) throw noHistory(conn.shown);
      createHistoryViews(conn);
      conn.db().query('SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY');
      conn.db().query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const { instant, rows } = resolvePgInstant(feed, conn.shown, at);
      fillHistoryViews(conn, feed.table, rows);
      // Recency, idle time and retention read as they did then: the clock stops at the instant (unless it is now).
      const clock = instant.live ? opts.clock : fixedClock(at);
      return new PgStore(conn, { ...opts, ...(clock ? { clock } : {}), readonly: true }, instant);
    } catch (err) {
      conn.close();
      throw err;
    }
  }

  /** The port's read side on a read-only connection: a write does not compile, and is refused if tried. */
  static openReader(location: string | PgStoreUrl, opts: Omit<PgOpenOptions, 'readonly' | 'create'> = {}): StoreReader {
    return PgStore.open(location, { ...opts, readonly: true });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const n of this.notices) void n.close();
    this.notices.clear();
    this.evidence.close();
    this.conn.close();
  }

  private q(sql: string, params: readonly unknown[] = []): Record<string, unknown>[] {
    return this.conn.db().query(sql, params);
  }

  // ---------------------------------------------------------------- the store itself

  hasMnemo(): boolean {
    return this.mnemo;
  }

  /**
   * A store this adapter made, or a copy of a Mnemo store, has every table at this build's level
   * (checked at open); a copy of a nooa-only store gains Mnemo's rows here (pg-store-init.ts).
   */
  ensureMnemo(): void {
    this.assertWritable();
    if (this.mnemo) return;
    this.transaction(() => addMnemoToPgStore(this.conn, this.clock.now(), (rows) => this.events.insertMany(rows)));
    this.mnemo = true;
  }

  getMeta(key: string): string | null {
    if (!this.mnemo) return null;
    const [r] = this.q(`SELECT value FROM ${this.conn.table('mnemo_meta')} WHERE key = $1`, [key]);
    return r ? (r['value'] as string) : null;
  }

  setMeta(key: string, value: string): void {
    this.transaction(() => {
      this.ensureMnemo();
      this.q(`INSERT INTO ${this.conn.table('mnemo_meta')}(key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [key, value]);
    });
  }

  profile(): ProfileName {
    return this.getMeta(DEFAULT_PROFILE_KEY) ?? 'nooa-0.0.9';
  }

  warn(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.onWarning(message);
  }

  /**
   * This machine's cache of the store's index snapshots for what this connection's role sees
   * (pg-index-cache.ts); written even on a read-only connection, since it is no part of the store.
   * Null (and a warning) when the server cannot say who the session is.
   */
  indexSidecarLocation(): IndexSidecarLocation | null {
    if (this.sidecarLocation === undefined) {
      try {
        this.sidecarLocation = { path: pgIndexCachePath(pgStoreView(this.conn), pgIndexCacheDir()), writable: true };
      } catch (err) {
        this.warn('index-sidecar', `cannot tell which index cache belongs to ${this.path} (${(err as Error).message}); indexes are built in memory instead`);
        this.sidecarLocation = null;
      }
    }
    return this.sidecarLocation;
  }

  maintenanceHistory(limit = 20): MaintenanceEntry[] {
    return readPgMaintenanceHistory(this.conn, limit, this.mnemo);
  }

  logMaintenance(kind: string, report: Record<string, unknown>): void {
    this.transaction(() => {
      this.ensureMnemo();
      this.q(`INSERT INTO ${this.conn.table('maintenance_log')}(ts, kind, report) VALUES ($1, $2, $3)`, [this.clock.now(), kind, pyDumps(report)]);
    });
  }

  /**
   * Runs fn all-or-nothing in one transaction; nested calls join the outer one. Listeners hear our
   * writes as they are made; when the transaction rolls back, each memory they were told of is told
   * again, so they re-read its committed row (as the SQLite adapter does).
   */
  transaction<T>(fn: () => T): T {
    if (this.history) throw pastIsReadOnly(this.path, this.history.at);
    if (this.depth > 0) return fn();
    const db = this.conn.db();
    const told = { ids: new Set<string>(), reset: false };
    this.begin();
    this.depth = 1;
    this.told = told;
    // From here to the end of the transaction locked rows are held and unread writes deferred.
    this.rows.held.reset(true);
    this.conn.deferWrites = true;
    try {
      const result = fn();
      // Whether this transaction wrote anything (it was given a transaction id then), asked in the COMMIT's request.
      const [wrote] = db.query(this.readonly ? 'COMMIT' : 'SELECT pg_current_xact_id_if_assigned() IS NOT NULL AS wrote; COMMIT');
      if (wrote?.['wrote'] === true) this.writes++;
      return result;
    } catch (err) {
      this.rows.held.reset(false);
      this.conn.deferWrites = false;
      db.discardDeferred();
      if (!this.closed) db.query('ROLLBACK');
      // Mnemo's rows added to a nooa-only store in this transaction are gone with it.
      if (!this.closed) this.mnemo = this.conn.storeFacts().get('has_mnemo') === '1';
      this.told = null;
      if (told.reset) this.emit({ kind: 'reset' });
      else for (const id of told.ids) this.emit({ kind: 'upsert', id });
      throw err;
    } finally {
      this.depth = 0;
      this.told = null;
      this.rows.held.reset(false);
      this.conn.deferWrites = false;
    }
  }

  /**
   * BEGIN, and on a writable connection the store's clock for the change feed's rows (`mnemo.now`,
   * pg-feed-ddl.ts) in the same statement: a text without parameters goes over the simple query
   * protocol, which takes two. The clock's reading is a finite number, written as a literal.
   * Deferred: it goes with the transaction's first statement, in the same request.
   */
  private begin(): void {
    const now = this.clock.now();
    this.conn.db().defer(this.readonly || !Number.isFinite(now) ? 'BEGIN' : `BEGIN; SELECT set_config('mnemo.now', '${String(now)}', true)`);
  }

  /** Runs fn with these memories' rows read ahead in one statement (pg-row-queries.ts): a catch-up's indexes read them. */
  withRowsAhead<T>(ids: readonly string[], fn: () => T): T {
    return this.readAhead.with(ids, fn);
  }

  /** One REPEATABLE READ transaction: every read inside sees one snapshot. */
  readConsistent<T>(fn: () => T): T {
    // A past store reads inside the transaction it holds for its life.
    if (this.depth > 0 || this.history) return fn();
    const db = this.conn.db();
    db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    this.depth = 1;
    try {
      const result = fn();
      db.query('COMMIT');
      return result;
    } catch (err) {
      if (!this.closed) db.query('ROLLBACK');
      throw err;
    } finally {
      this.depth = 0;
    }
  }

  // ---------------------------------------------------------------- listeners and the feed

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells listeners (derived indexes) that a memory changed; the journal calls it after a restore. */
  emit(e: ChangeEvent): void {
    if (this.told) {
      if (e.kind === 'reset') this.told.reset = true;
      else this.told.ids.add(e.id);
    }
    for (const l of this.listeners) l(e);
  }

  /** Where the feed stands: a transaction-id watermark (pg-feed.ts); null without a feed. */
  feedPosition(): FeedPosition | null {
    if (this.history) return this.history.position;
    return this.feed.position();
  }

  /** The memories transactions that ended after `pos` changed, this connection's included. */
  changedSince(pos: FeedPosition, limit: number): FeedChanges | null {
    if (this.history) return pos.epoch === this.history.position.epoch && pos.seq === this.history.position.seq ? { upserts: [], deletes: [], position: pos } : null;
    return this.feed.changedSince(pos, limit);
  }

  /** Whether another connection committed since the last check (pg-external-changes.ts); never without a feed. */
  refreshIfChanged(): boolean {
    if (this.history) return false;
    return this.external?.refresh() ?? this.noFeed();
  }

  /**
   * Wakes `onCommit` on each commit to the store's feed, heard on a connection of its own
   * (pg-change-notices.ts). `MNEMO_PG_LISTEN=off` turns it off (views then poll): a pooler in
   * transaction mode (PgBouncer's) cannot hold a LISTEN, and the benchmarks compare with polling.
   */
  watchCommits(onCommit: () => void): (() => void) | null {
    if (process.env.MNEMO_PG_LISTEN === 'off') return null;
    const notices = PgChangeNotices.listen(this.conn.url, onCommit);
    this.notices.add(notices);
    return () => {
      this.notices.delete(notices);
      void notices.close();
    };
  }

  /** Tells listeners which memories other connections changed since the last catch-up. */
  catchUp(): void {
    if (this.freshScope) return;
    this.external?.catchUp();
  }

  /** One feed check for everything fn reads (a recall's eight indexes made eight round trips). */
  readFresh<T>(fn: () => T): T {
    if (this.freshScope) return fn();
    this.external?.catchUp();
    this.freshScope = true;
    try {
      return fn();
    } finally {
      this.freshScope = false;
    }
  }

  heardPosition(): FeedPosition | null {
    if (this.history) return this.history.position;
    return this.external?.heardPosition() ?? null;
  }

  /** Moves whenever a check finds another connection's commit to memories or edges (never for ours). */
  dataVersion(): number {
    return this.external?.version() ?? 0;
  }

  /** The transactions this connection committed that wrote (SQLite counts rows: either moves on every write of ours). */
  totalChanges(): number {
    return this.writes;
  }

  private noFeed(): false {
    this.warn('no-feed', `${this.path} has no change feed (a store made before it, opened read-only): changes other connections make are not heard; open it writable once to add the feed`);
    return false;
  }

  // ---------------------------------------------------------------- history

  /** What `at` resolves to in this store's change feed (pg-history-instant.ts), read as one snapshot. */
  asOf(at: number): StoreAsOf {
    return this.readConsistent(() => resolvePgInstant(this.feed, this.path, at).instant);
  }

  /** What changed between two instants' positions (pg-history-diff.ts), read as one snapshot. */
  changesBetween(from: FeedPosition, to: FeedPosition): HistoryChanges {
    return this.readConsistent(() => pgChangesBetween(this.feed, from, to));
  }

  /**
   * Nothing to let go of between requests: a past store's snapshot is its own connection's
   * transaction, which pins no file (it holds back vacuum's horizon while it lives; the API drops a
   * past engine once the live store moves, api/context.ts), and it still shows its instant.
   */
  releaseSnapshot(): void {}

  resumeSnapshot(): boolean {
    return true;
  }

  // ---------------------------------------------------------------- memory reads

  private decode(row: MemoryRow, edges: Edge[]): Memory {
    const { memory, warning } = decodeRow(row, edges);
    if (warning) this.warn(`row:${row.id}`, warning);
    return memory;
  }

  get(id: string): Memory | null {
    // Inside a change a read is the start of a read-modify-write (a reflection op, an edit): the
    // row stays locked until the change commits, so another connection's write of it waits rather
    // than being overwritten by what was computed from the older row (SQLite holds the whole store).
    // The locked row is held for the rest of the transaction (pg-held-rows.ts): the journal's
    // snapshots and the write's edge comparison that follow answer from it.
    if (this.journal.active) {
      const locked = this.rows.lockedMemory(id);
      return locked ? this.decode(locked.row, locked.edges) : null;
    }
    const row = this.rows.row(id);
    return row ? this.decode(row, this.rows.neighbors(id)) : null;
  }

  getMany(ids: readonly string[]): Map<string, Memory> {
    const out = new Map<string, Memory>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 1000) {
      const chunk = unique.slice(i, i + 1000);
      const edges = this.rows.edgesFrom(chunk);
      for (const row of this.rows.rows(chunk)) out.set(row.id, this.decode(row, edges.get(row.id) ?? []));
    }
    return out;
  }

  require(idOrPrefix: string): Memory {
    const id = this.requireId(idOrPrefix);
    const m = this.get(id);
    if (!m) throw notFound(`no memory with id ${idOrPrefix}`, { id: idOrPrefix });
    return m;
  }

  exists(id: string): boolean {
    return this.rows.exists(id);
  }

  /** An exact id wins; otherwise a literal prefix of at least 6 characters; two matches are an error. */
  resolveId(idOrPrefix: string): string | null {
    if (typeof idOrPrefix !== 'string' || idOrPrefix === '') return null;
    if (this.exists(idOrPrefix)) return idOrPrefix;
    if (idOrPrefix.length < 6) return null;
    const ids = this.rows.idsWithPrefix(idOrPrefix);
    if (ids.length > 1) {
      throw badInput(`id prefix ${JSON.stringify(idOrPrefix)} is ambiguous (matches ${ids[0]} and ${ids[1]}); give more characters`, { field: 'id' });
    }
    return ids[0] ?? null;
  }

  requireId(idOrPrefix: string): string {
    const id = this.resolveId(idOrPrefix);
    if (id) return id;
    const hint =
      idOrPrefix.length < 6
        ? 'an id prefix needs at least 6 characters'
        : /[%_]/.test(idOrPrefix)
          ? 'ids never contain % or _, and prefixes are matched literally'
          : 'check the id, or list memories with "mnemo list"';
    throw notFound(`no memory matches id ${JSON.stringify(idOrPrefix)}; ${hint}`, { id: idOrPrefix });
  }

  ownerOf(id: string): string | null {
    return this.rows.ownerOf(id);
  }

  /** The scope as a condition on memories' columns, its `$n` placeholders numbered from `first`. */
  private scopeWhere(scope: ListScope, first: number): { sql: string; params: unknown[] } {
    const parts: string[] = [];
    const params: unknown[] = [];
    if (!scope.includeArchived) parts.push('archived = 0');
    const oc = ownerClause(scope.owner ?? null);
    if (oc.sql !== '1') {
      parts.push(numbered(oc.sql, first));
      params.push(...oc.params);
    }
    return { sql: parts.length ? parts.join(' AND ') : 'TRUE', params };
  }

  count(scope: ListScope = {}): number {
    const w = this.scopeWhere(scope, 1);
    return this.rows.count(w.sql, w.params);
  }

  isEmpty(scope: ListScope = {}): boolean {
    const w = this.scopeWhere(scope, 1);
    return !this.rows.any(w.sql, w.params);
  }

  /** Memories in rowid order (nooa's iteration order), edges attached, a page at a time. */
  *iter(scope: ListScope = {}, batch = 1000): Generator<Memory> {
    const w = this.scopeWhere(scope, 3);
    let after = -1;
    for (;;) {
      const rows = this.rows.page(w.sql, w.params, after, batch);
      if (rows.length === 0) return;
      const edges = this.rows.edgesFrom(rows.map((r) => r.id));
      for (const row of rows) yield this.decode(row, edges.get(row.id) ?? []);
      after = rows[rows.length - 1]!.rowid!;
    }
  }

  all(scope: ListScope = {}): Memory[] {
    return [...this.iter(scope)];
  }

  rowidOf(id: string): number | null {
    return this.rows.rowidOf(id);
  }

  getEmbedding(id: string): Float32Array | null {
    const blob = this.rows.embedding(id);
    if (!blob) return null;
    const v = blobToVector(blob, this.dim);
    if (!v) this.warn(`emb:${id}`, `memory ${id}: stored embedding has ${blob.byteLength / 4} dimensions, expected ${this.dim}; skipped`);
    return v;
  }

  // ---------------------------------------------------------------- edge reads

  neighbors(id: string): Edge[] {
    return this.rows.neighbors(id);
  }

  edgesFrom(ids: readonly string[]): Map<string, Edge[]> {
    return this.rows.edgesFrom(ids);
  }

  incoming(id: string): IncomingEdge[] {
    return this.rows.incoming(id);
  }

  // ---------------------------------------------------------------- memory writes

  private assertWritable(): void {
    if (this.history) throw pastIsReadOnly(this.path, this.history.at);
    if (this.readonly) throw new MnemoError('bad_input', `${this.path} was opened read-only; reopen it writable to change it`);
  }

  /** Before a memory's row is written: refuse on a read-only store, and give the open change (if any) its before-image. */
  private beforeWrite(id: string): void {
    this.assertWritable();
    this.journal.capture(`m:${id}`);
  }

  private writeEdges(src: string, edges: Edge[]): void {
    const current = this.rows.neighbors(src);
    const same =
      current.length === edges.length &&
      current.every((e, i) => {
        const n = edges[i]!;
        return e.target_id === n.target_id && e.type === n.type && e.weight === n.weight && e.created_at === n.created_at;
      });
    if (!same) this.rows.replaceEdges(src, edges);
  }

  /** Insert or replace, as nooa's `add`: the row, its edges and its embedding. */
  add(m: Memory, embedding: Float32Array | null): void {
    this.transaction(() => {
      this.ensureMnemo();
      this.beforeWrite(m.id);
      for (const e of m.edges) {
        if (!isEdgeType(e.type)) throw badInput(`unknown edge type ${JSON.stringify(e.type)}`, { field: 'type' });
      }
      this.rows.replace(encodeRow(m), embedding ? vectorToBlob(embedding) : null);
      this.writeEdges(m.id, m.edges);
    });
    this.emit({ kind: 'upsert', id: m.id });
  }

  /** Update that keeps the embedding (nooa's `save`), rewriting the edges when they changed. */
  save(m: Memory): void {
    this.transaction(() => {
      this.ensureMnemo();
      this.beforeWrite(m.id);
      if (!this.rows.update(encodeRow(m))) throw notFound(`no memory with id ${m.id}`, { id: m.id });
      this.writeEdges(m.id, m.edges);
    });
    this.emit({ kind: 'upsert', id: m.id });
  }

  setEmbedding(id: string, embedding: Float32Array | null): void {
    this.transaction(() => {
      this.ensureMnemo();
      this.beforeWrite(id);
      this.rows.setEmbedding(id, embedding ? vectorToBlob(embedding) : null);
    });
    this.emit({ kind: 'upsert', id });
  }

  archive(id: string): boolean {
    return this.setArchived(id, true);
  }

  restore(id: string): boolean {
    return this.setArchived(id, false);
  }

  /** Soft delete: flips only the `archived` column, as nooa does (the JSON keeps its old value). */
  private setArchived(id: string, archived: boolean): boolean {
    const changed = this.transaction(() => {
      this.ensureMnemo();
      this.beforeWrite(id);
      return this.rows.setArchived(id, archived);
    });
    if (changed) this.emit({ kind: 'upsert', id });
    return changed;
  }

  delete(id: string): boolean {
    const changed = this.transaction(() => {
      this.ensureMnemo();
      // The memories whose edges into this one go with it change too.
      for (const src of new Set(this.rows.incoming(id).map((e) => e.src))) if (src !== id) this.beforeWrite(src);
      this.beforeWrite(id);
      return this.rows.remove(id);
    });
    if (changed) this.emit({ kind: 'delete', id });
    return changed;
  }

  /** Inside a change, locks and holds these memories' rows in one statement (pg-held-rows.ts): the change's reads of them answer from memory. */
  lockAhead(ids: readonly string[]): void {
    if (this.journal.active) this.rows.lockAndHold(ids);
  }

  renameOwner(from: string, to: string): number {
    if (from === '') throw badInput('rename_owner never claims unowned rows; give a non-empty source owner', { field: 'from' });
    validateOwner(from, 'from');
    validateOwner(to, 'to');
    return this.transaction(() => {
      const ids = this.rows.idsOfOwner(from);
      for (const id of ids) {
        const m = this.get(id)!;
        m.owner = to;
        this.save(m);
      }
      return ids.length;
    });
  }

  // ---------------------------------------------------------------- edge writes

  /** add_edge semantics: the same target and type keeps the larger weight. */
  addEdge(src: string, dst: string, type: string, weight = 1.0): boolean {
    if (!isEdgeType(type)) {
      throw badInput(`unknown edge type ${JSON.stringify(type)}; expected one of derived_from, created_by, supports, contradicts, refines, related, causes, precedes, part_of, triggers`, {
        field: 'type',
      });
    }
    return this.transaction(() => {
      this.rows.lock(src);
      const m = this.get(src);
      if (!m) throw notFound(`no memory with id ${src}`, { id: src });
      if (!this.exists(dst)) throw notFound(`no memory with id ${dst}`, { id: dst });
      const changed = addEdgeToMemory(m, dst, type, weight, this.clock.now());
      if (changed) this.save(m);
      return changed;
    });
  }

  removeEdge(src: string, dst: string, type: string): boolean {
    return this.transaction(() => {
      this.rows.lock(src);
      const m = this.get(src);
      if (!m) throw notFound(`no memory with id ${src}`, { id: src });
      const before = m.edges.length;
      m.edges = m.edges.filter((e) => !(e.target_id === dst && e.type === type));
      if (m.edges.length === before) return false;
      this.save(m);
      return true;
    });
  }

  // ---------------------------------------------------------------- the journal and tombstones

  /** Runs fn as one journalled change (one transaction, one history row, undoable). */
  change<T>(label: string, kind: string, fn: () => T, meta?: Record<string, unknown>): { result: T; changeId: number | null } {
    return this.journal.record(label, kind, fn, meta);
  }

  tombstoneFor(content: string): Tombstone | null {
    return pgTombstone(this.conn, contentHash(content));
  }

  /** Journalled: undoing the forget removes the tombstone again. */
  putTombstone(t: Tombstone): void {
    this.transaction(() => {
      this.ensureMnemo();
      this.journal.capture(`t:${t.hash}`);
      putPgTombstone(this.conn, t);
    });
  }

  // ---------------------------------------------------------------- saved profiles (journalled: written inside store.change)

  putSavedProfile(row: SavedProfileRow): void {
    this.ensureMnemo();
    this.journal.capture(`profile:${row.name}`);
    this.profiles.put(row);
  }

  deleteSavedProfile(name: string): void {
    this.ensureMnemo();
    this.journal.capture(`profile:${name}`);
    this.profiles.delete(name);
  }

  setDefaultProfile(name: string): void {
    setDefaultProfileWith(this, name, (profile, since) => this.profiles.stamp(profile, since));
  }

  // ---------------------------------------------------------------- access events

  accessEvents(filter: EventFilter): { total: number; events: AccessEvent[] } {
    // The event table is a log, not rolled back: a past store leaves out what was logged after its instant.
    return this.events.query({ ...filter, until: untilAsOf(this.history, filter.until) });
  }

  accessEventCount(): number {
    return this.events.count();
  }

  /**
   * Each access onto its memory's ring (counters, recency and strength as log_access rules) and
   * into the event table, all in one transaction. Every memory of the call is locked at once, in id
   * order (locked one by one in rank order, two recalls returning overlapping memories in different
   * orders deadlocked), and held: the reads answer from memory, the rows are written in one
   * statement with the events (pg-held-rows.ts, PgStoreConnection.later).
   */
  logAccesses(writes: readonly AccessWrite[]): void {
    if (writes.length === 0) return;
    const touched: string[] = [];
    this.transaction(() => {
      this.ensureMnemo();
      this.rows.lockAndHold(writes.map((w) => w.id));
      const events: unknown[][] = [];
      for (const w of writes) {
        const held = this.rows.held.get(w.id);
        if (!held) continue;
        const m = this.decode(held.row, held.edges);
        logAccess(m, w.record, w.reinforce === undefined ? {} : { reinforce: w.reinforce });
        this.rows.updateUsage(encodeRow(m));
        events.push(accessEventValues(m.id, w.record, m.strength, w.reinforce !== false, false, w.context ?? null, w.terms ?? null, currentCredentialId()));
        touched.push(m.id);
      }
      this.events.insertMany(events);
    });
    for (const id of touched) this.emit({ kind: 'upsert', id });
  }

  /** Ring entries a memory already carries (a new or imported memory) into the event table only. */
  recordAccessEvents(memoryId: string, records: readonly AccessRecord[], strengthAfter: number | null, opts: { backfilled?: boolean } = {}): void {
    if (records.length === 0) return;
    this.transaction(() => {
      this.ensureMnemo();
      this.events.insertMany(records.map((rec) => accessEventValues(memoryId, rec, strengthAfter, true, opts.backfilled ?? false, null, null, currentCredentialId())));
    });
  }

  // ---------------------------------------------------------------- beliefs and the list's text search

  /** The belief tables on this connection (reads on a nooa-only store return nothing). */
  beliefTables(): BeliefWrites {
    return new PgBeliefTables(this.conn, this, this.evidence);
  }

  /**
   * SQLite's index, fed from this store's rows. It is kept in this process's memory and rebuilt on
   * each load, the sidecar unused: catching a persisted index up needs the change feed.
   */
  newTextSearch(_sidecar: IndexSidecar | null): TextSearch {
    const rows = pgTextRows(this.conn, this.readAhead);
    return new TextSearchIndex(null, () => rows);
  }
}

/** The refusal of a write to a store shown as of an instant. */
function pastIsReadOnly(path: string, at: number): MnemoError {
  return new MnemoError('bad_input', `${path} is shown as it stood at ${new Date(at * 1000).toISOString()}: the past is read-only; open the store as it is now to change it`, {
    reason: 'read_only_past',
  });
}
