/**
 * MemoryStore: the SQLite adapter of the store port (port.ts). It reads and writes nooa v0.0.9's
 * tables unchanged and keeps its own state in `mnemo_*` tables, created on the first write we make
 * (a read never changes a nooa file). Every write goes through a handful of primitives that
 * (1) record before-images for the journal when a change is open and (2) notify listeners such as
 * the in-memory vector index, so derived state never drifts from the file.
 *
 * It is a facade, as PgStore (pg/pg-store.ts) is: it keeps the opening, the transaction and the
 * writes of one memory (add, save), and hands the rest to modules of this folder: rows
 * (sqlite-memory-rows.ts), reads over a scope (scoped-reads.ts) and the other writes
 * (memory-writes.ts), both shared with PgStore, the access log (sqlite-access-log.ts), what listeners hear and the
 * change feed (sqlite-live-changes.ts), time travel (sqlite-history-open.ts, history-*.ts), meta
 * values (sqlite-meta.ts), the journal (journal.ts, sqlite-journal-sql.ts), and store.queries and
 * store.runs (sqlite-queries.ts, sqlite-runs.ts).
 */
import { basename } from 'node:path';
import { fixedClock, systemClock, type Clock } from '../../clock.js';
import { MnemoError } from '../../errors.js';
import type { AccessRecord, Memory } from '../../model/memory.js';
import { backfillAccessEvents } from './access-events.js';
import { beliefAliasTarget, beliefRejectionTarget, indexSqliteEvidence, searchSqliteEvidence } from './sqlite-belief-rows.js';
import { bindConnection } from './connection.js';
import { feedPosition } from './feed-reads.js';
import { pruneFeedStep } from './feed-retention.js';
import { isSqliteBusy, markLockNotTaken } from '../shared/lock-not-taken.js';
import { beginFeedStamp, dropFeedStamp, endFeedStamp } from './feed-stamp.js';
import type { HistoryChanges } from '../port/history-changes.js';
import { changesBetween } from './history-diff.js';
import { resolveInstant, type HistoryInstant } from './history-instant.js';
import { sidecarPath } from '../derived/index-sidecar.js';
import { Journal, type JournalTarget } from '../shared/journal.js';
import { memoryRowTarget } from './memory-images.js';
import { hasMnemoSchema, migrateMnemo, prepareNooaSchema, readMnemoVersion } from './migrations.js';
import { ensureViewIndexes } from './view-indexes.js';
import type { AccessWrite, ChangeListener, FeedChanges, FeedPosition, IndexSidecarLocation, JournalFollowUp, PgReplicaStatus, ProfileName, SchemaVersions, StoreQueries, StoreReader, StoreRuns, StoreSqlWrites, StoreWriter, TextRows } from '../port/port.js';
import { recoverInterruptedWork } from '../shared/recover-on-open.js';
import { metaTarget, savedProfileTarget } from './saved-profiles.js';
import { connect, StatementCache, type ConnectOptions, type DB } from './sqlite.js';
import { enterSqlitePast, releasePastSnapshot, resumePastSnapshot } from './sqlite-history-open.js';
import { sqliteIngestSql } from './sqlite-ingest-sql.js';
import { sqliteJournalSql } from './sqlite-journal-sql.js';
import { SqliteAccessLog } from './sqlite-access-log.js';
import { SqliteLiveChanges } from './sqlite-live-changes.js';
import { SqliteMemoryRows } from './sqlite-memory-rows.js';
import { readSqliteMeta, writeSqliteMeta } from './sqlite-meta.js';
import { sqliteQueries } from './sqlite-queries.js';
import { sqliteSql } from './sqlite-sql.js';
import { sqliteRuns } from './sqlite-runs.js';
import { RowBackedStore } from '../shared/row-backed-store.js';
import type { StoreHandle } from '../shared/store-handle.js';
import { notAStore, probeStoreFile } from './store-probe.js';
import { sqliteTextRows } from './sqlite-text-rows.js';
import { tombstoneTarget } from './tombstones.js';
import { checkpointsInBackground, startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer.js';
import type { AccessEvent, EventFilter } from '../port/event-rows.js';
import type { ChangeEvent } from '../port/store-rows.js';

export type { HistoryInstant } from './history-instant.js';
export type { AccessWrite, ChangeListener, ListScope, ProfileName } from '../port/port.js';
export type { MaintenanceEntry } from '../port/event-rows.js';
export type { ChangeEvent } from '../port/store-rows.js';

export interface OpenOptions extends ConnectOptions {
  clock?: Clock;
  /** Profile recorded when mnemo tables are created; defaults to `mnemo` for a new file, else `nooa-0.0.9`. */
  initialProfile?: ProfileName;
  onWarning?: (message: string) => void;
  /** Embedding dimension expected in blobs; 256 for the default hashing embedder. */
  dim?: number;
  /**
   * Turn an existing file that is not a store (an empty file, another program's SQLite database)
   * into one. Only `mnemo init` sets this: every other open refuses such a file untouched.
   */
  convert?: boolean;
  /**
   * What layers above do after the journal restores their rows: the belief layer replays the
   * entities an alias row names (core/beliefs/journal-target.ts). Without it, alias rows are not restored.
   */
  journalFollowUps?: readonly JournalFollowUp[];
  /** Feed rows another process wrote past which a catch-up rebuilds instead (default CATCH_UP_FEED_LIMIT; tests lower it). */
  catchUpFeedLimit?: number;
}

const STORE_JOURNAL_TARGETS: readonly JournalTarget[] = [memoryRowTarget, tombstoneTarget, savedProfileTarget, metaTarget, beliefAliasTarget, beliefRejectionTarget];

/**
 * Every this many commits that appended to the change feed, one bounded prune step follows
 * (feed-retention.ts), so a long-running process keeps the feed to its policy without a separate
 * job; each step is its own short transaction of at most AUTO_PRUNE_ROWS rows.
 */
const AUTO_PRUNE_EVERY = 1000;
const AUTO_PRUNE_ROWS = 500;

/** The SQLite adapter of the store port (port.ts). Its connection is private to core/store/ (connection.ts). */
export class MemoryStore extends RowBackedStore implements StoreHandle, StoreWriter {
  readonly path: string;
  readonly #db: DB;
  readonly clock: Clock;
  readonly readonly: boolean;
  readonly dim: number;
  readonly journal: Journal<MemoryStore>;
  /** The whole-table queries (port.ts, StoreQueries), each bound to this store. */
  readonly queries: StoreQueries;
  /** The long changes and bulk writes (port.ts, StoreRuns), each bound to this store. */
  readonly runs: StoreRuns;
  /** The shared queries' statements, run on this connection (sqlite-sql.ts). */
  readonly sql: StoreSqlWrites;
  readonly #st: StatementCache;
  /** Listeners, the feed's position, and other processes' commits. */
  private readonly changes: SqliteLiveChanges;
  protected readonly rows: SqliteMemoryRows;
  private readonly accessLog: SqliteAccessLog;
  /** The memories listeners were told of in the running outermost transaction (retold if it rolls back). */
  private toldInTransaction: { ids: Set<string>; reset: boolean } | null = null;
  private readonly warned = new Set<string>();
  private readonly onWarning: (message: string) => void;
  private readonly initialProfile: ProfileName;
  /** Set on a store opened as of an instant (openAsOf): it shows that instant and never changes. */
  #history: HistoryInstant | null = null;
  /** The feed's head when this past store's views were installed (openAsOf). */
  #historyHead: number | null = null;
  private closed = false;
  private feedCommits = 0;
  /** The thread that checkpoints the WAL for this connection (walCheckpoints: 'background'). */
  private checkpointer: WalCheckpointer | null = null;

  private constructor(path: string, db: DB, opts: OpenOptions, fresh: boolean, history: HistoryInstant | null = null) {
    super();
    this.path = path;
    this.#db = db;
    this.clock = opts.clock ?? systemClock;
    this.readonly = opts.readonly ?? false;
    this.dim = opts.dim ?? 256;
    this.#st = new StatementCache(db);
    bindConnection(this, { db, statement: (sql) => this.#st.get(sql), ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}) });
    this.onWarning = opts.onWarning ?? ((m) => process.emitWarning(m, { code: 'MNEMO_STORE' }));
    this.initialProfile = opts.initialProfile ?? (fresh ? 'mnemo' : 'nooa-0.0.9');
    this.rows = new SqliteMemoryRows(db, this.#st);
    this.accessLog = new SqliteAccessLog(this, db, this.rows, history);
    this.journal = new Journal<MemoryStore>(this, sqliteJournalSql(this), STORE_JOURNAL_TARGETS, opts.journalFollowUps ?? []);
    // Made before the instant is set: the catch-up starts from the connection's data_version, as for a store of now.
    this.changes = new SqliteLiveChanges(this, history, opts.catchUpFeedLimit);
    this.sql = sqliteSql(db, this.#st);
    this.queries = sqliteQueries(this);
    this.runs = sqliteRuns(this);
    if (history) {
      this.#history = history;
      this.#historyHead = feedPosition(this)?.seq ?? null;
    }
  }

  static open(path: string, opts: OpenOptions = {}): MemoryStore {
    // Looked at before connect(), which already writes (WAL mode; even a read-only connection leaves
    // -wal/-shm beside a WAL file): a refused file stays byte for byte, with nothing beside it.
    if (!opts.convert) {
      const kind = probeStoreFile(path, opts.nativeBinding);
      if (kind === 'empty' || kind === 'foreign') throw notAStore(path, kind);
    }
    const db = connect(path, opts);
    try {
      const fresh = prepareNooaSchema(db, path, opts.readonly ?? false);
      const store = new MemoryStore(path, db, opts, fresh);
      if (fresh && !opts.readonly) store.ensureMnemo();
      else if (!opts.readonly && hasMnemoSchema(db)) {
        store.ensureMnemo(); // upgrade older mnemo tables
        ensureViewIndexes(db, (message) => store.warn('view-indexes', `${path}: ${message}`));
      }
      recoverInterruptedWork(store, sqliteIngestSql(store));
      if (checkpointsInBackground(path, opts)) {
        store.checkpointer = startWalCheckpointer(path, opts.nativeBinding, (message) =>
          store.warn('wal-checkpointer', `${path}: the WAL's background checkpoints stopped (${message}); this connection's commits checkpoint it again`),
        );
      }
      return store;
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /**
   * Opens a store for reading only: the result is the port's read side, so a write does not
   * compile, and the connection refuses one too (readonly-open.ts keeps the file untouched).
   */
  static openReader(path: string, opts: Omit<OpenOptions, 'readonly' | 'convert' | 'create'> = {}): StoreReader {
    return MemoryStore.open(path, { ...opts, readonly: true });
  }

  /**
   * Opens the store as it stood at instant `at` (epoch seconds), on a read-only connection of its
   * own that keeps one read transaction for its life (sqlite-history-open.ts). Every read works on
   * it unchanged; it never changes, whatever others write meanwhile. Its clock stops at `at` unless
   * nothing changed after it (then it is the store as it is now, on the caller's clock). Refuses an instant before the
   * history starts (history-instant.ts).
   */
  static openAsOf(path: string, at: number, opts: Omit<OpenOptions, 'readonly' | 'convert' | 'create'> = {}): MemoryStore {
    const kind = probeStoreFile(path, opts.nativeBinding);
    if (kind === 'empty' || kind === 'foreign') throw notAStore(path, kind);
    const db = connect(path, { ...opts, readonly: true });
    try {
      prepareNooaSchema(db, path, true);
      const instant = enterSqlitePast(db, path, at, (opts.clock ?? systemClock).now());
      // Recency, idle time and retention read as they did then: the clock stops at the instant (unless it is now).
      const clock = instant.live ? opts.clock : fixedClock(at);
      return new MemoryStore(path, db, { ...opts, ...(clock ? { clock } : {}), readonly: true }, false, instant);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  /** What `at` resolves to in this store's change feed (history-instant.ts), read as one snapshot. */
  asOf(at: number): HistoryInstant {
    return this.readConsistent(() => resolveInstant(this.#db, this.path, at, this.clock.now()));
  }

  changesBetween(from: FeedPosition, to: FeedPosition): HistoryChanges {
    return this.readConsistent(() => changesBetween(this, from, to));
  }

  /** A past store lets go of its read snapshot between requests, so it does not pin the WAL (sqlite-history-open.ts). */
  releaseSnapshot(): void {
    if (this.#history && !this.closed) releasePastSnapshot(this.#db);
  }

  /** Takes the read snapshot again; false when the store changed since openAsOf (open the instant anew). */
  resumeSnapshot(): boolean {
    if (!this.#history) return true;
    return resumePastSnapshot(this.#db, this, this.#historyHead);
  }

  /** The instant this store shows (openAsOf); null for the store as it is now. */
  get history(): HistoryInstant | null {
    return this.#history;
  }

  get name(): string {
    return this.path === ':memory:' ? ':memory:' : basename(this.path);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    if (this.closed) return;
    try {
      // Accesses a taken write lock kept (sqlite-access-log.ts) are written before the connection goes.
      this.accessLog.flushKept();
    } catch (err) {
      this.warn('access-log-kept', `could not write the accesses kept while the store was locked (${(err as Error).message})`);
    }
    this.closed = true;
    this.checkpointer?.stop();
    this.#db.close();
  }

  // ---------------------------------------------------------------- listeners and the feed (sqlite-live-changes.ts)

  /** Tells listeners (derived indexes) that a memory changed; the journal calls it after a restore. */
  emit(e: ChangeEvent): void {
    if (this.toldInTransaction) {
      if (e.kind === 'reset') this.toldInTransaction.reset = true;
      else this.toldInTransaction.ids.add(e.id);
    }
    this.changes.tell(e);
  }

  /**
   * Listeners hear our writes as they are made, inside the transaction (a batch may read an index
   * it has just changed). When the transaction rolls back, what they heard did not happen: each
   * memory they were told of is told again, and they re-read its committed row. Without this, an
   * index kept in another file (the list's text search in the sidecar) kept the rolled-back text
   * across reopens.
   */
  private retellAfterRollback(told: { ids: Set<string>; reset: boolean }): void {
    if (told.reset) {
      this.emit({ kind: 'reset' });
      return;
    }
    for (const id of told.ids) this.emit({ kind: 'upsert', id });
  }

  /** `PRAGMA data_version`: moves when another connection commits. */
  dataVersion(): number {
    // The past does not move: derived indexes built on it never need to catch up.
    if (this.#history) return 0;
    // A cached statement: this runs before every derived-index read (several per recall).
    return this.#st.get('PRAGMA data_version').pluck().get() as number;
  }

  /** Rows this connection has written since it opened (SQLite's total_changes()). */
  totalChanges(): number {
    return this.#st.get('SELECT total_changes()').pluck().get() as number;
  }

  /** SQLite has no commit notification: a live view polls data_version (one pragma, no I/O). */
  watchCommits(_onCommit: () => void): null {
    return null;
  }

  /** One check for other processes' commits for everything fn reads (sqlite-live-changes.ts says why). */
  readonly readFresh = <T>(fn: () => T): T => this.changes.readFresh(fn);

  // A method the live changes answer as they are takes one line, which names them (as on PgStore).
  readonly onChange = (listener: ChangeListener): (() => void) => this.changes.onChange(listener);
  readonly refreshIfChanged = (): boolean => this.changes.refreshIfChanged();
  readonly catchUp = (): void => this.changes.catchUp();
  readonly feedPosition = (): FeedPosition | null => this.changes.feedPosition();
  readonly heardPosition = (): FeedPosition | null => this.changes.heardPosition();
  readonly changedSince = (pos: FeedPosition, limit: number): FeedChanges | null => this.changes.changedSince(pos, limit);

  // ---------------------------------------------------------------- transactions

  /** A DEFERRED transaction reads one snapshot of a WAL file, whatever other processes commit meanwhile. */
  readConsistent<T>(fn: () => T): T {
    if (this.#db.inTransaction) return fn();
    return this.#db.transaction(fn).deferred();
  }

  /** Runs fn in one IMMEDIATE transaction (so a writer never deadlocks upgrading a read lock). */
  transaction<T>(fn: () => T): T {
    if (this.#db.inTransaction) return fn();
    // The change feed's rows this transaction appends are stamped as ours before it commits
    // (feed-stamp.ts); once it has committed, catch-up need not read them back (external-changes.ts).
    let fedThrough = 0;
    const told = { ids: new Set<string>(), reset: false };
    this.toldInTransaction = told;
    let result: T;
    let entered = false;
    try {
      result = this.#db
        .transaction(() => {
          entered = true;
          beginFeedStamp(this);
          try {
            const out = fn();
            fedThrough = endFeedStamp(this, this.clock.now());
            return out;
          } finally {
            dropFeedStamp(this);
          }
        })
        .immediate();
    } catch (err) {
      this.toldInTransaction = null;
      this.retellAfterRollback(told);
      // BEGIN IMMEDIATE waited out the busy timeout: nothing ran, and a long change may try again (lock-not-taken.ts).
      if (!entered && isSqliteBusy(err)) markLockNotTaken(err);
      throw err;
    } finally {
      this.toldInTransaction = null;
    }
    this.changes.ownCommit(fedThrough);
    if (fedThrough > 0 && ++this.feedCommits % AUTO_PRUNE_EVERY === 0) this.pruneFeedQuietly();
    return result;
  }

  /** A prune step after a commit: the commit stands whatever happens here, so a failure is only warned about. */
  private pruneFeedQuietly(): void {
    try {
      pruneFeedStep(this, this.clock.now(), AUTO_PRUNE_ROWS);
    } catch (err) {
      this.warn('feed-prune', `pruning the change feed failed (${err instanceof Error ? err.message : String(err)}); the next prune retries`);
    }
  }

  // ---------------------------------------------------------------- the store itself

  hasMnemo(): boolean {
    return hasMnemoSchema(this.#db);
  }

  /** Creates or upgrades the mnemo tables; called before any write of ours. */
  ensureMnemo(): void {
    if (this.readonly) throw new MnemoError('bad_input', `${this.path} was opened read-only; reopen it writable to change it`);
    migrateMnemo(this.#db, this.path, this.initialProfile, this.clock.now(), (db) => backfillAccessEvents(db));
  }

  getMeta(key: string): string | null {
    if (!this.hasMnemo()) return null;
    return readSqliteMeta(this.#st, key);
  }

  setMeta(key: string, value: string): void {
    this.ensureMnemo();
    writeSqliteMeta(this.#st, key, value);
  }

  /** nooa's `PRAGMA user_version` and Mnemo's schema version (0 before its tables exist). */
  schemaVersions(): SchemaVersions {
    return { nooa: this.#db.pragma('user_version', { simple: true }) as number, mnemo: readMnemoVersion(this.#db) };
  }

  warn(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.onWarning(message);
  }

  /** The sidecar beside the file; a read-only store reads it, never writes it. */
  indexSidecarLocation(): IndexSidecarLocation | null {
    if (this.path === ':memory:' || this.path === '') return null;
    return { path: sidecarPath(this.path), writable: !this.readonly };
  }

  /** A SQLite file has no replicas. */
  replicas(): PgReplicaStatus[] {
    return [];
  }

  // ---------------------------------------------------------------- memory reads

  get(id: string): Memory | null {
    const row = this.rows.row(id);
    return row ? this.decode(row, this.rows.neighbors(id)) : null;
  }

  /** Reads many memories at once (missing ids are absent from the map). */
  getMany(ids: readonly string[]): Map<string, Memory> {
    const out = new Map<string, Memory>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 500) {
      const chunk = unique.slice(i, i + 500);
      const rows = this.rows.rows(chunk);
      const edges = this.rows.edgesFrom(chunk);
      for (const row of rows) out.set(row.id, this.decode(row, edges.get(row.id) ?? []));
    }
    return out;
  }

  /** A read here costs microseconds: nothing to read ahead. */
  withRowsAhead<T>(_ids: readonly string[], fn: () => T): T {
    return fn();
  }

  // ---------------------------------------------------------------- memory writes (the rest: shared/row-backed-store.ts)

  /** Before a memory's row is written: refuse on a read-only store, and give the open change (if any) its before-image. */
  protected beforeWrite(id: string): void {
    if (this.readonly) throw new MnemoError('bad_input', `${this.path} was opened read-only; reopen it writable to change it`);
    this.journal.capture(`m:${id}`);
  }

  // ---------------------------------------------------------------- the journal

  /** Runs fn as one journalled change (one transaction, one history row, undoable). */
  change<T>(label: string, kind: string, fn: () => T, meta?: Record<string, unknown>): { result: T; changeId: number | null } {
    return this.journal.record(label, kind, fn, meta);
  }

  // ---------------------------------------------------------------- access events (sqlite-access-log.ts)

  readonly logAccesses = (writes: readonly AccessWrite[], opts?: { deferIfBusy?: boolean }): void => this.accessLog.logAccesses(writes, opts);
  readonly recordAccessEvents = (memoryId: string, records: readonly AccessRecord[], strengthAfter: number | null, opts: { backfilled?: boolean } = {}): void =>
    this.accessLog.recordAccessEvents(memoryId, records, strengthAfter, opts);
  readonly accessEvents = (filter: EventFilter): { total: number; events: AccessEvent[] } => this.accessLog.events(filter);

  // ---------------------------------------------------------------- beliefs and the list's text search

  // ---------------------------------------------------------------- belief evidence (sqlite-belief-rows.ts: FTS5 in the store)

  readonly searchEvidence = (match: string, limit: number): { id: number; score: number }[] => searchSqliteEvidence(this, match, limit);
  readonly indexEvidence = (firstId: number, lastId: number): void => indexSqliteEvidence(this, firstId, lastId);

  /** The list's text search may live in the sidecar: the change feed catches it up there. */
  textRows(): { rows: TextRows; sidecarKept: boolean } {
    return { rows: sqliteTextRows(this), sidecarKept: true };
  }
}
