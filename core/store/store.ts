/**
 * MemoryStore: the one place that speaks SQL about memories. It reads and writes nooa v0.0.9's
 * tables unchanged and keeps its own state in `mnemo_*` tables, created on the first write we make
 * (a read never changes a nooa file). Every write goes through a handful of primitives that
 * (1) record before-images for the journal when a change is open and (2) notify listeners such as
 * the in-memory vector index, so derived state never drifts from the file.
 */
import { basename } from 'node:path';
import { fixedClock, systemClock, type Clock } from '../clock.js';
import { badInput, MnemoError, notFound } from '../errors.js';
import { isEdgeType, type EdgeType } from '../model/enums.js';
import { addEdge as addEdgeToMemory, logAccess, type AccessRecord, type Edge, type Memory } from '../model/memory.js';
import { validateOwner } from '../model/owner.js';
import { ownerClause } from './owner-sql.js';
import { pyDumps } from '../model/pyjson.js';
import { blobToVector, decodeRow, encodeRow, vectorToBlob, type MemoryRow } from './codec.js';
import { connect, StatementCache, type ConnectOptions, type DB } from './sqlite.js';
import { notAStore, probeStoreFile } from './store-probe.js';
import { hasMnemoSchema, migrateMnemo, prepareNooaSchema } from './migrations.js';
import { requireMemoryId, resolveMemoryId, type MemoryIdLookups } from './memory-ids.js';
import { Journal, type JournalTarget } from './journal.js';
import { sqliteJournalSql } from './sqlite-journal-sql.js';
import { sqliteIngestSql } from './sqlite-ingest-sql.js';
import { recoverInterruptedWork } from './recover-on-open.js';
import { readMaintenanceHistory, type MaintenanceEntry } from './maintenance-log.js';

export type { MaintenanceEntry } from './maintenance-log.js';
import { backfillAccessEvents, countEvents, insertAccessEvent, queryEvents, type AccessEvent, type EventFilter } from './access-events.js';
import { untilAsOf } from '../model/history.js';
import { memoryRowTarget } from './memory-images.js';
import { tombstoneTarget } from './tombstones.js';
import { beliefAliasTarget, beliefRejectionTarget } from './belief-journal-targets.js';
import { sidecarPath, type IndexSidecar } from './index-sidecar.js';
import { TextSearchIndex } from './text-search.js';
import { DEFAULT_PROFILE_KEY, deleteSavedProfile, metaTarget, savedProfileTarget, writeDefaultProfile, writeSavedProfile, type SavedProfileRow } from './saved-profiles.js';
import type { ChangeEvent, StoreHandle } from './store-handle.js';
import { ExternalChanges } from './external-changes.js';
import { bindConnection } from './connection.js';
import { findTombstone, writeTombstone, type Tombstone } from './tombstones.js';
import { BeliefTables } from './belief-tables.js';
import { changedSince, feedPosition } from './feed-reads.js';
import { resolveInstant, type HistoryInstant } from './history-instant.js';
import { changesBetween } from './history-diff.js';
import type { HistoryChanges } from './history-changes.js';
import { installHistoryViews } from './history-views.js';
import { beginFeedStamp, dropFeedStamp, endFeedStamp } from './feed-stamp.js';
import { pruneFeedStep } from './feed-retention.js';
import type { AccessWrite, BeliefWrites, ChangeListener, FeedChanges, FeedPosition, IncomingEdge, IndexSidecarLocation, JournalFollowUp, ListScope, ProfileName, StoreQueries, StoreReader, StoreRuns, StoreWriter } from './port.js';
import { sqliteQueries } from './sqlite-queries.js';
import { sqliteRuns } from './sqlite-runs.js';

export type { ChangeEvent } from './store-handle.js';
export type { HistoryInstant } from './history-instant.js';
export type { AccessWrite, ChangeListener, ListScope, ProfileName } from './port.js';

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

const SELECT_COLS =
  'rowid, id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, data';

/** The SQLite adapter of the store port (port.ts). Its connection is private to core/store/ (connection.ts). */
export class MemoryStore implements StoreHandle, StoreWriter {
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
  readonly #st: StatementCache;
  private readonly listeners = new Set<ChangeListener>();
  /** The memories listeners were told of in the running outermost transaction (retold if it rolls back). */
  private toldInTransaction: { ids: Set<string>; reset: boolean } | null = null;
  private readonly warned = new Set<string>();
  private readonly onWarning: (message: string) => void;
  private readonly initialProfile: ProfileName;
  private readonly external: ExternalChanges;
  /** Set on a store opened as of an instant (openAsOf): it shows that instant and never changes. */
  #history: HistoryInstant | null = null;
  /** The feed's head when this past store's views were installed (openAsOf). */
  #historyHead: number | null = null;
  private closed = false;
  private feedCommits = 0;

  private constructor(path: string, db: DB, opts: OpenOptions, fresh: boolean) {
    this.path = path;
    this.#db = db;
    this.clock = opts.clock ?? systemClock;
    this.readonly = opts.readonly ?? false;
    this.dim = opts.dim ?? 256;
    this.#st = new StatementCache(db);
    bindConnection(this, { db, statement: (sql) => this.#st.get(sql), ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}) });
    this.onWarning = opts.onWarning ?? ((m) => process.emitWarning(m, { code: 'MNEMO_STORE' }));
    this.initialProfile = opts.initialProfile ?? (fresh ? 'mnemo' : 'nooa-0.0.9');
    this.journal = new Journal<MemoryStore>(this, sqliteJournalSql(this), STORE_JOURNAL_TARGETS, opts.journalFollowUps ?? []);
    this.external = new ExternalChanges(this, opts.catchUpFeedLimit);
    this.queries = sqliteQueries(this);
    this.runs = sqliteRuns(this);
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
      else if (!opts.readonly && hasMnemoSchema(db)) store.ensureMnemo(); // upgrade older mnemo tables
      recoverInterruptedWork(store, sqliteIngestSql(store));
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
   * own that keeps one read transaction for its life (history-views.ts). Every read works on it
   * unchanged; it never changes, whatever others write meanwhile. Its clock stops at `at` unless
   * nothing changed after it (then it is the store as it is now, on the caller's clock). Refuses an instant before the
   * history starts (history-instant.ts).
   */
  static openAsOf(path: string, at: number, opts: Omit<OpenOptions, 'readonly' | 'convert' | 'create'> = {}): MemoryStore {
    const kind = probeStoreFile(path, opts.nativeBinding);
    if (kind === 'empty' || kind === 'foreign') throw notAStore(path, kind);
    const db = connect(path, { ...opts, readonly: true });
    try {
      prepareNooaSchema(db, path, true);
      // A read-only open that found no other connection is writable but query_only (readonly-open.ts),
      // which refuses TEMP objects too. This connection writes only TEMP objects, and the store on
      // it is read-only (every write method refuses), so nothing reaches the file.
      if (db.pragma('query_only', { simple: true })) db.pragma('query_only = OFF');
      // Deferred: the first read below takes the snapshot every later read on this connection sees.
      db.exec('BEGIN');
      const instant = resolveInstant(db, path, at, (opts.clock ?? systemClock).now());
      installHistoryViews(db, instant.position.seq);
      // Recency, idle time and retention read as they did then: the clock stops at the instant (unless it is now).
      const clock = instant.live ? opts.clock : fixedClock(at);
      const store = new MemoryStore(path, db, { ...opts, ...(clock ? { clock } : {}), readonly: true }, false);
      store.#history = instant;
      store.#historyHead = feedPosition(store)?.seq ?? null;
      return store;
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

  /**
   * A store opened as of an instant reads inside one read transaction, so its views and the rows
   * they roll back are one snapshot. Held between requests, that transaction would pin the WAL: no
   * checkpoint can pass it, and the WAL grows with every commit another process makes. So the API
   * session releases it after its requests (releaseSnapshot) and the next request takes it again
   * (resumeSnapshot), which holds only while the feed has not moved since the views were built
   * (then the current rows are the ones they were built on); otherwise the caller opens anew.
   */
  releaseSnapshot(): void {
    if (this.#history && !this.closed && this.#db.inTransaction) this.#db.exec('COMMIT');
  }

  /** Takes the read snapshot again; false when the store changed since openAsOf (open the instant anew). */
  resumeSnapshot(): boolean {
    if (!this.#history) return true;
    if (!this.#db.inTransaction) this.#db.exec('BEGIN');
    if ((feedPosition(this)?.seq ?? null) === this.#historyHead) return true;
    this.#db.exec('COMMIT');
    return false;
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
    this.closed = true;
    this.#db.close();
  }

  // ---------------------------------------------------------------- infrastructure

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(e: ChangeEvent): void {
    if (this.toldInTransaction) {
      if (e.kind === 'reset') this.toldInTransaction.reset = true;
      else this.toldInTransaction.ids.add(e.id);
    }
    for (const l of this.listeners) l(e);
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

  /** Whether another process committed since the last check (external-changes.ts). */
  /** SQLite has no commit notification: a live view polls data_version (one pragma, no I/O). */
  watchCommits(_onCommit: () => void): null {
    return null;
  }

  refreshIfChanged(): boolean {
    if (this.#history) return false;
    return this.external.refresh();
  }

  /** Tells listeners which memories other processes changed since the last catch-up (external-changes.ts). */
  /** SQLite's check is a pragma read in process: each index keeps checking for itself. */
  readFresh<T>(fn: () => T): T {
    return fn();
  }

  catchUp(): void {
    if (this.#history) return;
    this.external.catchUp();
  }

  feedPosition(): FeedPosition | null {
    if (this.#history) return this.#history.position;
    return feedPosition(this);
  }

  heardPosition(): FeedPosition | null {
    if (this.#history) return this.#history.position;
    return this.external.heardPosition();
  }

  changedSince(pos: FeedPosition, limit: number): FeedChanges | null {
    if (this.#history) return pos.epoch === this.#history.position.epoch && pos.seq === this.#history.position.seq ? { upserts: [], deletes: [], position: pos } : null;
    return changedSince(this, pos, limit);
  }

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
    try {
      result = this.#db
        .transaction(() => {
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
      throw err;
    } finally {
      this.toldInTransaction = null;
    }
    this.external.ownCommit(fedThrough);
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
    const row = this.#st.get('SELECT value FROM mnemo_meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value ?? null;
  }

  setMeta(key: string, value: string): void {
    this.ensureMnemo();
    this.#st.get('INSERT OR REPLACE INTO mnemo_meta(key, value) VALUES (?, ?)').run(key, value);
  }

  /**
   * The default scoring profile: recorded in mnemo_meta (a built-in name or a saved profile's),
   * `nooa-0.0.9` for a store without it.
   */
  profile(): ProfileName {
    return this.getMeta(DEFAULT_PROFILE_KEY) ?? 'nooa-0.0.9';
  }

  warn(key: string, message: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.onWarning(message);
  }

  // ---------------------------------------------------------------- reads

  private decode(row: MemoryRow, edges: Edge[]): Memory {
    const { memory, warning } = decodeRow(row, edges);
    if (warning) this.warn(`row:${row.id}`, warning);
    return memory;
  }

  get(id: string): Memory | null {
    const row = this.#st.get(`SELECT ${SELECT_COLS} FROM memories WHERE id = ?`).get(id) as MemoryRow | undefined;
    return row ? this.decode(row, this.neighbors(id)) : null;
  }

  /** Reads many memories at once (missing ids are absent from the map). */
  getMany(ids: readonly string[]): Map<string, Memory> {
    const out = new Map<string, Memory>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 500) {
      const chunk = unique.slice(i, i + 500);
      const marks = chunk.map(() => '?').join(',');
      const rows = this.#db.prepare(`SELECT ${SELECT_COLS} FROM memories WHERE id IN (${marks})`).all(...chunk) as MemoryRow[];
      const edges = this.edgesFrom(chunk);
      for (const row of rows) out.set(row.id, this.decode(row, edges.get(row.id) ?? []));
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
    return this.#st.get('SELECT 1 FROM memories WHERE id = ?').get(id) !== undefined;
  }

  /** An exact id wins; otherwise a literal prefix of at least 6 characters (memory-ids.ts). */
  resolveId(idOrPrefix: string): string | null {
    return resolveMemoryId(idOrPrefix, this.idLookups());
  }

  requireId(idOrPrefix: string): string {
    return requireMemoryId(idOrPrefix, this.idLookups());
  }

  /** The lookups memory-ids.ts asks for; a prefix matches by `LIKE prefix%`, its wildcards escaped. */
  private idLookups(): MemoryIdLookups {
    return {
      exists: (id) => this.exists(id),
      idsWithPrefix: (prefix) => {
        const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
        return (this.#st.get("SELECT id FROM memories WHERE id LIKE ? ESCAPE '\\' LIMIT 2").all(`${escaped}%`) as { id: string }[]).map((r) => r.id);
      },
    };
  }

  ownerOf(id: string): string | null {
    const row = this.#st.get('SELECT owner FROM memories WHERE id = ?').get(id) as { owner: string } | undefined;
    return row ? row.owner : null;
  }

  /** Outgoing edges in rowid order (the order nooa's unordered SELECT returns, which breaks fanout ties). */
  neighbors(id: string): Edge[] {
    const rows = this.#st.get('SELECT dst, type, weight, created_at FROM memory_edges WHERE src = ? ORDER BY rowid').all(id) as {
      dst: string;
      type: EdgeType;
      weight: number;
      created_at: number;
    }[];
    return rows.map((r) => ({ target_id: r.dst, type: r.type, weight: r.weight, created_at: r.created_at }));
  }

  edgesFrom(ids: readonly string[]): Map<string, Edge[]> {
    const out = new Map<string, Edge[]>();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const rows = this.#db
        .prepare(`SELECT src, dst, type, weight, created_at FROM memory_edges WHERE src IN (${chunk.map(() => '?').join(',')}) ORDER BY rowid`)
        .all(...chunk) as { src: string; dst: string; type: EdgeType; weight: number; created_at: number }[];
      for (const r of rows) {
        let list = out.get(r.src);
        if (!list) out.set(r.src, (list = []));
        list.push({ target_id: r.dst, type: r.type, weight: r.weight, created_at: r.created_at });
      }
    }
    return out;
  }

  /** Incoming edges (who points at this memory). */
  incoming(id: string): IncomingEdge[] {
    return this.#st.get('SELECT src, type, weight, created_at FROM memory_edges WHERE dst = ? ORDER BY rowid').all(id) as {
      src: string;
      type: EdgeType;
      weight: number;
      created_at: number;
    }[];
  }

  private scopeWhere(scope: ListScope): { sql: string; params: unknown[] } {
    const parts: string[] = [];
    const params: unknown[] = [];
    if (!scope.includeArchived) parts.push('archived = 0');
    const oc = ownerClause(scope.owner ?? null);
    if (oc.sql !== '1') {
      parts.push(oc.sql);
      params.push(...oc.params);
    }
    return { sql: parts.length ? parts.join(' AND ') : '1', params };
  }

  count(scope: ListScope = {}): number {
    const w = this.scopeWhere(scope);
    return (this.#db.prepare(`SELECT count(*) AS n FROM memories WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
  }

  /** Whether no memory is in scope: stops at the first row, where count() reads them all. */
  isEmpty(scope: ListScope = {}): boolean {
    const w = this.scopeWhere(scope);
    return this.#db.prepare(`SELECT 1 FROM memories WHERE ${w.sql} LIMIT 1`).get(...w.params) === undefined;
  }

  /** Memories in rowid order (nooa's iteration order), edges attached. */
  *iter(scope: ListScope = {}, batch = 1000): Generator<Memory> {
    const w = this.scopeWhere(scope);
    let after = -1;
    for (;;) {
      const rows = this.#db
        .prepare(`SELECT ${SELECT_COLS} FROM memories WHERE ${w.sql} AND rowid > ? ORDER BY rowid LIMIT ?`)
        .all(...w.params, after, batch) as MemoryRow[];
      if (rows.length === 0) return;
      const edges = this.edgesFrom(rows.map((r) => r.id));
      for (const row of rows) yield this.decode(row, edges.get(row.id) ?? []);
      after = rows[rows.length - 1]!.rowid!;
    }
  }

  all(scope: ListScope = {}): Memory[] {
    return [...this.iter(scope)];
  }

  rowidOf(id: string): number | null {
    const row = this.#st.get('SELECT rowid FROM memories WHERE id = ?').get(id) as { rowid: number } | undefined;
    return row?.rowid ?? null;
  }

  getEmbedding(id: string): Float32Array | null {
    const row = this.#st.get('SELECT embedding FROM memories WHERE id = ?').get(id) as { embedding: Buffer | null } | undefined;
    if (!row?.embedding) return null;
    const v = blobToVector(row.embedding, this.dim);
    if (!v) this.warn(`emb:${id}`, `memory ${id}: stored embedding has ${row.embedding.byteLength / 4} dimensions, expected ${this.dim}; skipped`);
    return v;
  }

  /** The maintenance log, newest first, each reflection pass with whether it still stands. */
  maintenanceHistory(limit = 20): MaintenanceEntry[] {
    return readMaintenanceHistory(this.#db, limit);
  }

  accessEvents(filter: EventFilter): { total: number; events: AccessEvent[] } {
    return queryEvents(this.#db, { ...filter, until: untilAsOf(this.#history, filter.until) });
  }

  accessEventCount(): number {
    return countEvents(this.#db);
  }

  tombstoneFor(content: string): Tombstone | null {
    return findTombstone(this, content);
  }

  /** A read here costs microseconds: nothing to read ahead. */
  withRowsAhead<T>(_ids: readonly string[], fn: () => T): T {
    return fn();
  }

  /** The sidecar beside the file; a read-only store reads it, never writes it. */
  indexSidecarLocation(): IndexSidecarLocation | null {
    if (this.path === ':memory:' || this.path === '') return null;
    return { path: sidecarPath(this.path), writable: !this.readonly };
  }

  /** The belief tables on this store's connection (reads on a store without them return nothing). */
  newTextSearch(sidecar: IndexSidecar | null): TextSearchIndex {
    return new TextSearchIndex(sidecar);
  }

  beliefTables(): BeliefWrites {
    return new BeliefTables(this);
  }

  // ---------------------------------------------------------------- write primitives

  private beforeWrite(id: string): void {
    if (this.readonly) throw new MnemoError('bad_input', `${this.path} was opened read-only; reopen it writable to change it`);
    this.journal.capture(`m:${id}`);
  }

  private writeEdges(src: string, edges: Edge[]): void {
    const current = this.neighbors(src);
    const same =
      current.length === edges.length &&
      current.every((e, i) => {
        const n = edges[i]!;
        return e.target_id === n.target_id && e.type === n.type && e.weight === n.weight && e.created_at === n.created_at;
      });
    if (same) return;
    // nooa's save() deletes and re-inserts a memory's edges in list order; rowid order follows it.
    this.#st.get('DELETE FROM memory_edges WHERE src = ?').run(src);
    const ins = this.#st.get('INSERT OR REPLACE INTO memory_edges(src, dst, type, weight, created_at) VALUES (?, ?, ?, ?, ?)');
    for (const e of edges) ins.run(src, e.target_id, e.type, e.weight, e.created_at);
  }

  /** INSERT OR REPLACE, as nooa's `add`: writes the row, its edges and its embedding. */
  add(m: Memory, embedding: Float32Array | null): void {
    this.transaction(() => {
      this.ensureMnemo();
      this.beforeWrite(m.id);
      for (const e of m.edges) {
        if (!isEdgeType(e.type)) throw badInput(`unknown edge type ${JSON.stringify(e.type)}`, { field: 'type' });
      }
      const r = encodeRow(m);
      this.#st
        .get(
          `INSERT OR REPLACE INTO memories(id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, embedding, data)
           VALUES (@id, @type, @content, @importance, @salience, @strength, @created_at, @last_accessed, @access_count, @archived, @owner, @status, @embedding, @data)`,
        )
        .run({ ...r, embedding: embedding ? vectorToBlob(embedding) : null });
      this.writeEdges(m.id, m.edges);
    });
    this.emit({ kind: 'upsert', id: m.id });
  }

  /** UPDATE that keeps the embedding (nooa's `save`) and rewrites the edges when they changed. */
  save(m: Memory): void {
    this.transaction(() => {
      this.ensureMnemo();
      this.beforeWrite(m.id);
      const r = encodeRow(m);
      const info = this.#st
        .get(
          `UPDATE memories SET type=@type, content=@content, importance=@importance, salience=@salience, strength=@strength,
             created_at=@created_at, last_accessed=@last_accessed, access_count=@access_count, archived=@archived,
             owner=@owner, status=@status, data=@data WHERE id=@id`,
        )
        .run(r);
      if (info.changes === 0) throw notFound(`no memory with id ${m.id}`, { id: m.id });
      this.writeEdges(m.id, m.edges);
    });
    this.emit({ kind: 'upsert', id: m.id });
  }

  setEmbedding(id: string, embedding: Float32Array | null): void {
    this.transaction(() => {
      this.ensureMnemo();
      this.beforeWrite(id);
      this.#st.get('UPDATE memories SET embedding = ? WHERE id = ?').run(embedding ? vectorToBlob(embedding) : null, id);
    });
    this.emit({ kind: 'upsert', id });
  }

  /** Soft delete: flips only the `archived` column, as nooa does (the JSON keeps its old value). */
  archive(id: string): boolean {
    return this.setArchived(id, true);
  }

  restore(id: string): boolean {
    return this.setArchived(id, false);
  }

  private setArchived(id: string, archived: boolean): boolean {
    const changed = this.transaction(() => {
      this.ensureMnemo();
      this.beforeWrite(id);
      return this.#st.get('UPDATE memories SET archived = ? WHERE id = ? AND archived != ?').run(archived ? 1 : 0, id, archived ? 1 : 0).changes;
    });
    if (changed) this.emit({ kind: 'upsert', id });
    return changed > 0;
  }

  /** Removes the row and every edge into or out of it. */
  delete(id: string): boolean {
    const changed = this.transaction(() => {
      this.ensureMnemo();
      for (const src of new Set(this.incoming(id).map((e) => e.src))) if (src !== id) this.beforeWrite(src);
      this.beforeWrite(id);
      this.#st.get('DELETE FROM memory_edges WHERE src = ? OR dst = ?').run(id, id);
      return this.#st.get('DELETE FROM memories WHERE id = ?').run(id).changes;
    });
    if (changed) this.emit({ kind: 'delete', id });
    return changed > 0;
  }

  /** Adds an edge with add_edge semantics (same target and type keeps the larger weight). */
  addEdge(src: string, dst: string, type: string, weight = 1.0): boolean {
    if (!isEdgeType(type)) {
      throw badInput(`unknown edge type ${JSON.stringify(type)}; expected one of derived_from, created_by, supports, contradicts, refines, related, causes, precedes, part_of, triggers`, {
        field: 'type',
      });
    }
    return this.transaction(() => {
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
      const m = this.get(src);
      if (!m) throw notFound(`no memory with id ${src}`, { id: src });
      const before = m.edges.length;
      m.edges = m.edges.filter((e) => !(e.target_id === dst && e.type === type));
      if (m.edges.length === before) return false;
      this.save(m);
      return true;
    });
  }

  /** Re-stamps every row of one owner to another; never claims unowned rows. Returns the row count. */
  renameOwner(from: string, to: string): number {
    if (from === '') throw badInput('rename_owner never claims unowned rows; give a non-empty source owner', { field: 'from' });
    validateOwner(from, 'from');
    validateOwner(to, 'to');
    const ids = (this.#st.get('SELECT id FROM memories WHERE owner = ?').all(from) as { id: string }[]).map((r) => r.id);
    this.transaction(() => {
      for (const id of ids) {
        const m = this.get(id)!;
        m.owner = to;
        this.save(m);
      }
    });
    return ids.length;
  }

  logMaintenance(kind: string, report: Record<string, unknown>): void {
    this.transaction(() => {
      this.ensureMnemo();
      this.#st.get('INSERT INTO maintenance_log(ts, kind, report) VALUES (?, ?, ?)').run(this.clock.now(), kind, pyDumps(report));
    });
  }

  /**
   * Logs accesses: each record goes onto the memory's ring (with counters, recency and strength as
   * log_access rules) and into the uncapped event table, all in one transaction.
   */
  logAccesses(writes: readonly AccessWrite[]): void {
    if (writes.length === 0) return;
    const touched: string[] = [];
    this.transaction(() => {
      this.ensureMnemo();
      for (const w of writes) {
        const m = this.get(w.id);
        if (!m) continue;
        logAccess(m, w.record, w.reinforce === undefined ? {} : { reinforce: w.reinforce });
        const r = encodeRow(m);
        this.#st
          .get('UPDATE memories SET strength=@strength, last_accessed=@last_accessed, access_count=@access_count, data=@data WHERE id=@id')
          .run({ id: r.id, strength: r.strength, last_accessed: r.last_accessed, access_count: r.access_count, data: r.data });
        insertAccessEvent(this.#db, m.id, w.record, m.strength, w.reinforce !== false, false, w.context ?? null, w.terms ?? null);
        touched.push(m.id);
      }
    });
    for (const id of touched) this.emit({ kind: 'upsert', id });
  }

  /** Ring entries the memory already carries (a new or imported memory) into the event table only. */
  recordAccessEvents(memoryId: string, records: readonly AccessRecord[], strengthAfter: number | null, opts: { backfilled?: boolean } = {}): void {
    if (records.length === 0) return;
    this.transaction(() => {
      this.ensureMnemo();
      for (const rec of records) insertAccessEvent(this.#db, memoryId, rec, strengthAfter, true, opts.backfilled ?? false);
    });
  }

  /** Journalled: undoing the forget removes the tombstone again. */
  putSavedProfile(row: SavedProfileRow): void {
    writeSavedProfile(this, row);
  }

  deleteSavedProfile(name: string): void {
    deleteSavedProfile(this, name);
  }

  setDefaultProfile(name: string): void {
    writeDefaultProfile(this, name);
  }

  putTombstone(t: Tombstone): void {
    this.transaction(() => {
      this.ensureMnemo();
      writeTombstone(this, t);
    });
  }

  // ---------------------------------------------------------------- journal entry points

  /** Runs fn as one journalled change (one transaction, one history row, undoable). */
  change<T>(label: string, kind: string, fn: () => T, meta?: Record<string, unknown>): { result: T; changeId: number | null } {
    return this.journal.record(label, kind, fn, meta);
  }
}
