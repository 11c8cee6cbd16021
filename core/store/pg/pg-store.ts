/**
 * PgStore: the PostgreSQL adapter of the store port (port.ts), over one synchronous connection
 * (sync-pg.ts) to a store's schema (pg-schema.ts, the one `mnemo copy` makes); the engine opens it
 * through open-location.ts. It is a facade: it keeps the transaction and the writes of one memory
 * (add, save, the access log), and hands the rest to modules of this folder, as MemoryStore does:
 * rows (pg-memory-rows.ts), reads over a scope (../scoped-reads.ts) and the other writes
 * (../memory-writes.ts), both shared with MemoryStore, what listeners hear and the change feed (pg-live-changes.ts), time travel
 * (pg-history-*.ts), the journal's statements and targets (pg-journal-*.ts), the belief tables,
 * and store.queries and store.runs (pg-store-groups.ts).
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
import { MnemoError } from '../../errors.js';
import { untilAsOf, type StoreAsOf } from '../../model/history.js';
import { logAccess, type AccessRecord, type Memory } from '../../model/memory.js';
import { accessEventValues } from '../sqlite/access-events.js';
import { currentCredentialId } from '../port/attribution.js';
import { encodeRow } from '../port/codec.js';
import type { Journal } from '../shared/journal.js';
import { recoverInterruptedWork } from '../shared/recover-on-open.js';
import type { AccessEvent, AccessWrite, ChangeEvent, ChangeListener, EventFilter, FeedChanges, FeedPosition, HistoryChanges } from '../port/port.js';
import type { IndexSidecarLocation, JournalFollowUp, PgReplicaStatus, ProfileName, SchemaVersions, StoreQueries, StoreReader, StoreRuns, StoreSqlWrites, StoreWriter, TextRows } from '../port/port.js';
import type { StoreHandle } from '../shared/store-handle.js';
import { PgAccessEvents } from './pg-access-events.js';
import { PgEvidenceMirror } from './pg-evidence-mirror.js';
import { PgFeed } from './pg-feed.js';
import { pgChangesBetween } from './pg-history-diff.js';
import { resolvePgInstant } from './pg-history-instant.js';
import { enterPgPast, pastIsReadOnly } from './pg-history-open.js';
import { pgIndexSidecarLocation } from './pg-index-cache.js';
import { pgIngestSql } from './pg-ingest-sql.js';
import { definePgJsonFunctions, jsonFunctionsOf } from './pg-json-sql.js';
import { pastOnReplica } from './pg-replica-past.js';
import { PgLiveChanges } from './pg-live-changes.js';
import { PgMemoryRows } from './pg-memory-rows.js';
import { readPgMeta, writePgMeta } from './pg-meta.js';
import { PgReadAhead } from './pg-read-ahead.js';
import { PgSavedProfiles } from './pg-saved-profiles.js';
import { RowBackedStore } from '../shared/row-backed-store.js';
import { PgStoreConnection } from './pg-store-connection.js';
import { PG_STORE_TABLE } from './pg-schema.js';
import { pgStoreGroups, pgStoreJournal } from './pg-store-groups.js';
import { addMnemoToPgStore, preparePgStore } from './pg-store-init.js';
import { upgradePgGuards } from './pg-store-guards.js';
import { mayWriteJournal } from './pg-agent-journal-sql.js';
import { pastRefused, readAsAgent, readsWholeRows, refusePastToAgents } from './pg-agent-reads.js';
import { pgTextRows } from './pg-text-rows.js';
import { pgSql } from './pg-sql-seam.js';
import { parsePgStoreUrl, withSchemaOf, type PgStoreUrl } from './pg-url.js';

/**
 * The COMMIT of a transaction on a store with replicas: whether it wrote, and where the primary's
 * log ends after it, in the same request (a setting carries the first across the COMMIT).
 */
const COMMIT_WITH_LSN =
  "SELECT set_config('mnemo.wrote', (pg_current_xact_id_if_assigned() IS NOT NULL)::text, false); COMMIT; SELECT current_setting('mnemo.wrote') = 'true' AS wrote, pg_current_wal_insert_lsn()::text AS lsn";

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
  /**
   * Read replicas: streaming standbys of the primary the location names (pg-replicas.ts). Reads
   * outside a transaction go to them; writes stay on the primary. Default: MNEMO_PG_REPLICAS.
   */
  replicas?: readonly string[];
}

/** The replicas MNEMO_PG_REPLICAS names (comma-separated URLs; blanks ignored). */
export function replicasFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env['MNEMO_PG_REPLICAS'] ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
}

export class PgStore extends RowBackedStore implements StoreWriter, StoreHandle {
  readonly path: string;
  readonly name: string;
  readonly clock: Clock;
  readonly readonly: boolean;
  readonly dim: number;
  readonly journal: Journal<PgStore>;
  readonly queries: StoreQueries;
  readonly runs: StoreRuns;
  /** The shared queries' statements, run on this connection (pg-sql-seam.ts). */
  readonly sql: StoreSqlWrites;
  /** Set on a store opened as of an instant (openAsOf): it shows that instant and never changes. */
  readonly history: StoreAsOf | null;
  private readonly conn: PgStoreConnection;
  private readonly feed: PgFeed;
  /** This connection's token in the change feed's rows (`mnemo.writer`): how it leaves out its own. */
  private readonly writerToken = randomUUID();
  /** Listeners, the feed's position, and other connections' commits. */
  private readonly changes: PgLiveChanges;
  /** Transactions of ours that wrote (totalChanges). */
  private writes = 0;
  protected readonly rows: PgMemoryRows;
  private readonly readAhead: PgReadAhead;
  private readonly events: PgAccessEvents;
  private readonly profiles: PgSavedProfiles;
  /** The belief evidence search's copy of the evidence (one per connection, made on first search). */
  private readonly evidence: PgEvidenceMirror;
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
    super();
    this.conn = conn;
    this.history = history;
    this.sql = pgSql(conn);
    this.feed = new PgFeed(conn);
    this.readAhead = new PgReadAhead(conn);
    this.rows = new PgMemoryRows(conn, this.readAhead);
    this.events = new PgAccessEvents(conn);
    this.profiles = new PgSavedProfiles(conn);
    this.evidence = new PgEvidenceMirror(conn);
    const parts = { conn, feed: this.feed, profiles: this.profiles, readAhead: this.readAhead, evidence: this.evidence };
    this.journal = pgStoreJournal<PgStore>(this, parts, this.rows, this.evidence, opts.journalFollowUps ?? []);
    const groups = pgStoreGroups(this, parts, this.rows.held);
    this.queries = groups.queries;
    this.runs = groups.runs;
    this.path = conn.shown;
    this.name = conn.url.schema;
    this.clock = opts.clock ?? systemClock;
    this.readonly = opts.readonly ?? false;
    this.dim = opts.dim ?? 256;
    this.onWarning = opts.onWarning ?? ((m) => process.emitWarning(m, { code: 'MNEMO_STORE' }));
    this.mnemo = preparePgStore(conn, { create: (opts.create ?? false) && !this.readonly, initialProfile: opts.initialProfile ?? 'mnemo', now: this.clock.now() });
    // A store made before the feed (or before its latest triggers: commit notifications, before-images) gets it at its first writable open; a read-only one goes without.
    // With replicas and the primary down, the store opens for reading all the same; the feed and guards are brought up to date at a later open.
    if (!this.readonly && conn.primaryReachable) this.whilePrimaryDownWarn('feed-upgrade', () => this.feed.installOrUpgrade(this.clock.now()));
    // The guards against agents' roles (pg-store-guards.ts), before anything is recovered or written.
    if (!this.readonly && conn.primaryReachable) this.whilePrimaryDownWarn('guards-upgrade', () => upgradePgGuards(conn, (m) => this.warn(`guards:${m}`, m)));
    // Every connection to the primary (a new one after a lost one too) writes the feed's rows under this store's token.
    conn.onConnect((db) => db.query(`SELECT set_config('mnemo.writer', $1, false)`, [this.writerToken]));
    // An agent's role reads memories through its view (pg-agent-reads.ts); the past was refused to it before this. Asked where reads go: the primary may be down.
    if (!history && !readsWholeRows(conn)) readAsAgent(conn);
    this.changes = new PgLiveChanges(conn, this.feed, history, this, this.writerToken);
  }

  /** Opens the store a `postgres://…?schema=name` URL names (a new one with `create`), reading from its replicas (opts.replicas, else MNEMO_PG_REPLICAS) if it has any. */
  static open(location: string | PgStoreUrl, opts: PgOpenOptions = {}): PgStore {
    const replicas = (opts.replicas ?? replicasFromEnv()).map((r) => parsePgStoreUrl(withSchemaOf(r, location)));
    return PgStore.connected(location, opts, replicas, (conn) => {
      // The server refuses writes on a read-only connection too, whatever a caller gets past the port.
      if (opts.readonly) conn.onConnect((db) => db.query('SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY'));
      const store = new PgStore(conn, opts);
      // Work a writer left half-done is put right by a store that can write; with the primary down it waits for a later open.
      // Recovery restores rows from the journal, which only an operator's role may: an agent's opens the store as it is.
      if (!store.readonly) store.whilePrimaryDownWarn('recover', () => {
        if (mayWriteJournal(conn)) recoverInterruptedWork(store, pgIngestSql(conn));
      });
      return store;
    });
  }

  /**
   * Runs fn, which needs the primary; with replicas and the primary unreachable, warns instead of
   * failing: the store still opens, and serves reads from its replicas.
   */
  private whilePrimaryDownWarn(key: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      if ((err as MnemoError).details?.['reason'] !== 'primary_unavailable') throw err;
      this.warn(`primary-down:${key}`, (err as MnemoError).message);
    }
  }

  /**
   * Opens the store as it stood at instant `at` (epoch seconds), on a connection of its own
   * (pg-history-open.ts); every write is refused. Its clock stops at `at` unless nothing changed
   * after it (then it is the store as it is now, on the caller's clock).
   */
  static openAsOf(location: string | PgStoreUrl, at: number, opts: Omit<PgOpenOptions, 'readonly' | 'create'> = {}): PgStore {
    const url = typeof location === 'string' ? parsePgStoreUrl(location) : location;
    const replicas = (opts.replicas ?? replicasFromEnv()).map((r) => parsePgStoreUrl(withSchemaOf(r, url)));
    // With replicas, the past is read on one of them (its connection named as the store, for people), else on the primary.
    const standby = replicas.length > 0 ? pastOnReplica(url, replicas, opts.onWarning) : null;
    return PgStore.connected(standby ?? url, opts, [], (conn) => {
      refusePastToAgents(conn, 'read the store as of an instant');
      const instant = enterPgPast(conn, at, standby ? 'settings' : 'tables');
      // Recency, idle time and retention read as they did then: the clock stops at the instant (unless it is now).
      const clock = instant.live ? opts.clock : fixedClock(at);
      return new PgStore(conn, { ...opts, ...(clock ? { clock } : {}), readonly: true }, instant);
    });
  }

  /**
   * A store made on a new connection to `location`, with the JSON functions its queries use
   * (pg-json-sql.ts); the connection is closed if making it fails. With replicas, a primary that
   * cannot be reached is not an error yet: the store reads from them, and a write says so.
   */
  private static connected(location: string | PgStoreUrl, opts: PgOpenOptions, replicas: readonly PgStoreUrl[], make: (conn: PgStoreConnection) => PgStore): PgStore {
    const conn = new PgStoreConnection(typeof location === 'string' ? parsePgStoreUrl(location) : location);
    // Warnings before the store exists (the primary down at open) reach the same hook, once each.
    const early = new Set<string>();
    let made: PgStore | null = null;
    const onWarning = opts.onWarning ?? ((m: string) => process.emitWarning(m, { code: 'MNEMO_STORE' }));
    conn.useReplicas(replicas, (key, message) => {
      if (made) made.warn(key, message);
      else if (!early.has(key)) {
        early.add(key);
        onWarning(message);
      }
    });
    try {
      // A hot standby makes no temporary functions: a past store read there names the schema's own (pg-json-sql.ts).
      conn.onConnect(conn.url.standby ? (db) => (db.rewrite = jsonFunctionsOf(conn.url.schema)) : definePgJsonFunctions);
      try {
        conn.db();
      } catch (err) {
        if (!conn.hasReplicas || (err as MnemoError).details?.['reason'] !== 'primary_unavailable') throw err;
        onWarning((err as MnemoError).message);
      }
      made = make(conn);
      return made;
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
    this.changes.close();
    this.evidence.close();
    this.conn.close();
  }

  // ---------------------------------------------------------------- the store itself

  hasMnemo(): boolean {
    // Another connection may have added Mnemo's rows since this one opened (another engine worker
    // of this process wrote first, or another process): asked again until it has, as SQLite's
    // store reads its schema each time; once true it stays true.
    if (!this.mnemo && !this.closed) this.mnemo = this.conn.storeFacts().get('has_mnemo') === '1';
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
    return this.hasMnemo() ? readPgMeta(this.conn, key) : null;
  }

  setMeta(key: string, value: string): void {
    this.transaction(() => {
      this.ensureMnemo();
      writePgMeta(this.conn, key, value);
    });
  }

  /** nooa's user_version as the store keeps it (mnemo_pg_store), Mnemo's from mnemo_meta. */
  schemaVersions(): SchemaVersions {
    const value = (table: string, key: string) => this.conn.db().query(`SELECT value FROM ${this.conn.table(table)} WHERE key = $1`, [key])[0]?.['value'];
    return { nooa: Number(value(PG_STORE_TABLE, 'nooa_user_version') ?? 0), mnemo: Number(value('mnemo_meta', 'schema_version') ?? 0) };
  }

  warn(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.onWarning(message);
  }

  /** This machine's cache of the store's index snapshots (pg-index-cache.ts), asked of the server once. */
  indexSidecarLocation(): IndexSidecarLocation | null {
    if (this.sidecarLocation === undefined) this.sidecarLocation = pgIndexSidecarLocation(this.conn, (m) => this.warn('index-sidecar', m));
    return this.sidecarLocation;
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
    const mnemoBefore = this.mnemo;
    this.begin();
    this.depth = 1;
    this.told = told;
    // From here to the end of the transaction locked rows are held and unread writes deferred.
    this.rows.held.reset(true);
    this.conn.deferWrites = true;
    try {
      const result = fn();
      // Whether this transaction wrote anything (it was given a transaction id then), asked in the COMMIT's request;
      // with replicas, where the primary's log ends after it too: a read goes to a replica only once it has replayed that far.
      const [wrote] = db.query(this.conn.hasReplicas ? COMMIT_WITH_LSN : this.readonly ? 'COMMIT' : 'SELECT pg_current_xact_id_if_assigned() IS NOT NULL AS wrote; COMMIT');
      if (wrote?.['wrote'] === true) this.writes++;
      if (this.conn.hasReplicas) this.conn.noteCommit((wrote?.['lsn'] as string | undefined) ?? null);
      return result;
    } catch (err) {
      this.rows.held.reset(false);
      this.conn.deferWrites = false;
      // Mnemo's rows added to a nooa-only store in this transaction are gone with it; if nothing
      // reached the server (BEGIN still deferred: no ROLLBACK is sent), nothing was added there.
      if (!this.closed) this.mnemo = db.rollback() ? this.conn.storeFacts().get('has_mnemo') === '1' : mnemoBefore;
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
    this.conn.db().deferBegin(this.readonly || !Number.isFinite(now) ? 'BEGIN' : `BEGIN; SELECT set_config('mnemo.now', '${String(now)}', true)`);
  }

  /** Runs fn with these memories' rows read ahead in one statement (pg-row-queries.ts): a catch-up's indexes read them. */
  readonly withRowsAhead = <T>(ids: readonly string[], fn: () => T): T => this.readAhead.with(ids, fn);

  /** One REPEATABLE READ transaction: every read inside sees one snapshot (on a replica, when the store has one ready). */
  readConsistent<T>(fn: () => T): T {
    // A past store reads inside the transaction it holds for its life.
    if (this.depth > 0 || this.history) return fn();
    this.depth = 1;
    try {
      return this.conn.readTogether('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', fn);
    } finally {
      this.depth = 0;
    }
  }

  /** Each read replica's state and lag (pg-replicas.ts); empty without replicas. */
  readonly replicas = (): PgReplicaStatus[] => this.conn.replicaStatus();

  // ---------------------------------------------------------------- listeners and the feed (pg-live-changes.ts)

  /** Tells listeners (derived indexes) that a memory changed; the journal calls it after a restore. */
  emit(e: ChangeEvent): void {
    if (this.told) {
      if (e.kind === 'reset') this.told.reset = true;
      else this.told.ids.add(e.id);
    }
    this.changes.tell(e);
  }

  /** The transactions this connection committed that wrote (SQLite counts rows: either moves on every write of ours). */
  totalChanges(): number {
    return this.writes;
  }

  // A facade over some eighty port methods (port.ts says what each does): a method a collaborator
  // answers as it is takes one line, which names the collaborator.
  readonly onChange = (listener: ChangeListener): (() => void) => this.changes.onChange(listener);
  readonly feedPosition = (): FeedPosition | null => this.changes.feedPosition();
  readonly changedSince = (pos: FeedPosition, limit: number): FeedChanges | null => this.changes.changedSince(pos, limit);
  readonly refreshIfChanged = (): boolean => this.changes.refreshIfChanged();
  readonly watchCommits = (onCommit: () => void): (() => void) | null => this.changes.watchCommits(onCommit);
  readonly catchUp = (): void => this.changes.catchUp();
  readonly readFresh = <T>(fn: () => T): T => this.changes.readFresh(fn);
  readonly heardPosition = (): FeedPosition | null => this.changes.heardPosition();
  readonly dataVersion = (): number => this.changes.dataVersion();

  // ---------------------------------------------------------------- history

  /** What `at` resolves to in the change feed (pg-history-instant.ts), and what changed between two positions (pg-history-diff.ts), each read as one snapshot. */
  readonly asOf = (at: number): StoreAsOf => this.readConsistent(() => resolvePgInstant(this.feed, this.path, at).instant);
  readonly changesBetween = (from: FeedPosition, to: FeedPosition): HistoryChanges =>
    this.readConsistent(() => {
      if (this.conn.readsThrough('memories')) throw pastRefused('compare the store between two instants');
      return pgChangesBetween(this.feed, from, to);
    });

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

  // ---------------------------------------------------------------- memory writes (the rest: shared/row-backed-store.ts)

  private assertWritable(): void {
    if (this.history) throw pastIsReadOnly(this.path, this.history.at);
    if (this.readonly) throw new MnemoError('bad_input', `${this.path} was opened read-only; reopen it writable to change it`);
  }

  /** Before a memory's row is written: refuse on a read-only store, and give the open change (if any) its before-image. */
  protected beforeWrite(id: string): void {
    this.assertWritable();
    this.journal.capture(`m:${id}`);
  }

  /** Inside a change, locks and holds these memories' rows in one statement (pg-held-rows.ts): the change's reads of them answer from memory. */
  lockAhead(ids: readonly string[]): void {
    if (this.journal.active) this.rows.lockAndHold(ids);
  }

  // ---------------------------------------------------------------- the journal

  /** Runs fn as one journalled change (one transaction, one history row, undoable). */
  readonly change = <T>(label: string, kind: string, fn: () => T, meta?: Record<string, unknown>): { result: T; changeId: number | null } => this.journal.record(label, kind, fn, meta);

  // ---------------------------------------------------------------- access events

  /** The event table is a log, not rolled back: a past store leaves out what was logged after its instant. */
  readonly accessEvents = (filter: EventFilter): { total: number; events: AccessEvent[] } => this.events.query({ ...filter, until: untilAsOf(this.history, filter.until) });

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
    // Only what an access changes: indexes that read no usage skip these (store-rows.ts ChangeEvent).
    for (const id of touched) this.emit({ kind: 'usage', id });
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

  // ---------------------------------------------------------------- belief evidence

  /** SQLite's FTS5 over a copy of the evidence kept in this process (pg-evidence-mirror.ts): SQLite's matches and BM25 scores. */
  readonly searchEvidence = (match: string, limit: number): { id: number; score: number }[] => this.evidence.search(match, limit);

  /** Nothing to write: the evidence copy reads new deltas when it is next searched. */
  indexEvidence(_firstId: number, _lastId: number): void {}

  /**
   * The rows of the list's text search, kept in this process's memory and rebuilt on each load, the
   * sidecar unused: catching a persisted index up needs the change feed.
   */
  textRows(): { rows: TextRows; sidecarKept: boolean } {
    return { rows: pgTextRows(this.conn, this.readAhead), sidecarKept: false };
  }
}
