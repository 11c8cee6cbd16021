/**
 * One PostgreSQL store's schema on one connection, for the two ends of a copy (pg-copy-source.ts,
 * pg-copy-target.ts) and for PgStore: qualified table names, the tables present, the store's own
 * facts, and the identity sequences. With read replicas (pg-replicas.ts), `db()` is still the
 * primary, where every write and every transaction goes, and `read()` is where a read outside a
 * transaction goes.
 */
import { MnemoError } from '../../errors.js';
import type { PgReplicaStatus } from '../port/port.js';
import type { TableSpec } from '../copy/store-tables.js';
import { lostConnection, PgReadRouter, type PgReads } from './pg-replicas.js';
import { identityColumn, PG_STORE_TABLE } from './pg-schema.js';
import { ident, type PgStoreUrl } from './pg-url.js';
import { SyncPg } from './sync-pg.js';

/** After the primary could not be reached, a write fails at once for this long rather than trying again. */
const PRIMARY_RETRY_MS = 1_000;

/** Reads and writes of one store's schema on one connection (and its replicas' reads, when it has some). */
export class PgStoreConnection {
  private pg: SyncPg | null = null;
  /** Tables this connection reads through something else (a store as of an instant, pg-history-views.ts): a session view of the same name, or the expression given. */
  private readonly shadowed = new Map<string, string | null>();
  /** Tables this connection reads through a view of the store's schema instead (an agent's role reads memories through mnemo_agent_memories). */
  private readonly readVia = new Map<string, string>();
  private readonly flushers: (() => void)[] = [];
  /** What runs on each new connection to the primary (the first, and one made again after the last was lost). */
  private readonly setups: ((db: SyncPg) => void)[] = [];
  /** The reads' router over the replicas; null without replicas. */
  private router: PgReadRouter | null = null;
  /** The connection a run of reads is held on (PgStore.readConsistent), with how a statement is written for it. */
  private pinnedTo: { pg: SyncPg; sql: (text: string) => string | null } | null = null;
  /** The last failure to reach the primary, and until when a write fails at once with it. */
  private primaryDown: { error: MnemoError; until: number } | null = null;

  constructor(readonly url: PgStoreUrl) {}

  get shown(): string {
    return this.url.shown;
  }

  /**
   * Reads outside a transaction go to these replicas (pg-replicas.ts) from now on; `warn` tells
   * when one is set aside, comes back, or lags behind this store's writes.
   */
  useReplicas(replicas: readonly PgStoreUrl[], warn: (key: string, message: string) => void): void {
    if (replicas.length === 0) return;
    this.router = new PgReadRouter({ connect: () => this.db(), current: () => (this.pg && !this.pg.isLost ? this.pg : null) }, replicas, this.url.schema, warn);
  }

  get hasReplicas(): boolean {
    return this.router !== null;
  }

  /** Each replica's state and lag (pg-replicas.ts); empty without replicas. */
  replicaStatus(): PgReplicaStatus[] {
    return this.router?.status() ?? [];
  }

  /** A commit of this store's ended at `lsn` in the primary's log (asked in the COMMIT's request): reads wait for a replica to replay it. */
  noteCommit(lsn: string | null): void {
    if (this.router && this.pg) this.router.noteCommit(lsn, this.pg);
  }

  /** Runs `setup` on the primary's connection now if it is open, and on every connection made to it later. */
  onConnect(setup: (db: SyncPg) => void): void {
    this.setups.push(setup);
    if (this.pg && !this.pg.isLost) setup(this.pg);
  }

  /**
   * The primary's connection: every write, every transaction. A lost connection (the server
   * restarted) is replaced by a new one. With replicas, a primary that cannot be reached fails at
   * once, naming itself, and again for a second before the next try, so that writes never queue
   * behind connection attempts while the reads go on from a replica.
   */
  db(): SyncPg {
    if (this.pg?.isLost) {
      this.pg.close();
      this.pg = null;
    }
    if (!this.pg) {
      const down = this.primaryDown;
      if (down && Date.now() < down.until) throw down.error;
      let pg: SyncPg;
      try {
        pg = SyncPg.connect(this.url.connection);
      } catch (err) {
        if (!this.router) throw this.cannotConnect(err);
        const error = this.primaryUnreachable(err);
        this.primaryDown = { error, until: Date.now() + PRIMARY_RETRY_MS };
        throw error;
      }
      this.primaryDown = null;
      // With replicas, losing the primary is a state the reads live through: a write says which server is gone.
      if (this.router) pg.describeLoss = (failure) => this.primaryUnreachable(failure, 'lost');
      pg.beforeSend = () => {
        for (const flush of this.flushers) flush();
      };
      try {
        for (const setup of this.setups) setup(pg);
      } catch (err) {
        pg.close();
        throw err;
      }
      this.pg = pg;
    }
    return this.pg;
  }

  /** A connection that failed, naming the server it tried (SyncPg names only the socket or host). */
  private cannotConnect(err: unknown): unknown {
    if (!(err instanceof MnemoError)) return err;
    return new MnemoError(err.code, `cannot connect to PostgreSQL at ${this.url.shown}: ${err.message.replace(/^PostgreSQL: /, '')}`, err.details);
  }

  private primaryUnreachable(err: unknown, how: 'unreachable' | 'lost' = 'unreachable'): MnemoError {
    const why = (err as Error)?.message ?? String(err);
    // A connection lost during a COMMIT leaves unknown whether the primary made it; one never reached made nothing.
    const what = how === 'lost' ? 'lost its connection' : 'cannot be reached';
    const made = how === 'lost' ? 'so this write was not made unless its commit had reached the primary' : 'so nothing was written';
    return new MnemoError(
      'busy',
      `the PostgreSQL primary ${this.url.shown} ${what} (${why}): writes need the primary, ${made}; reads go on from the replicas. Start the primary again, or promote a replica and name it as the store`,
      { reason: 'primary_unavailable', primary: this.url.shown },
    );
  }

  /** Whether the primary answered the last attempt to reach it (false while it is known to be down). */
  get primaryReachable(): boolean {
    return this.primaryDown === null || Date.now() >= this.primaryDown.until;
  }

  /**
   * Where a read goes: the connection of a run of reads held together (readConsistent); the
   * primary while it is inside a transaction (a read there is part of it) or without replicas;
   * else a replica that has replayed this store's writes (pg-replicas.ts), or the primary.
   */
  read(): PgReads {
    const pinned = this.pinnedTo;
    if (pinned) return { query: (sql, params) => pinned.pg.query(pinned.sql(sql) ?? sql, params) };
    if (!this.router || this.pg?.inTransaction) return this.db();
    return this.router;
  }

  /**
   * Runs fn's reads on one connection, a replica's when one is ready (else the primary's), inside
   * `begin` … COMMIT: a snapshot several reads see alike. A replica lost part-way through is set
   * aside, and fn runs again from the start on the next choice.
   */
  readTogether<T>(begin: string, fn: () => T): T {
    for (;;) {
      const target = this.router && !this.pg?.inTransaction ? this.router.pinned() : { pg: this.db(), sql: (text: string) => text, replica: false };
      target.pg.query(begin);
      this.pinnedTo = target;
      try {
        const result = fn();
        target.pg.query('COMMIT');
        return result;
      } catch (err) {
        if (target.replica && lostConnection(err)) {
          this.router!.lost(target.pg, err);
          continue;
        }
        target.pg.rollback();
        throw err;
      } finally {
        this.pinnedTo = null;
      }
    }
  }

  /**
   * A copy's writes need not wait for the disk at each commit: a crash loses at most the last
   * few batches, each together with its progress row, so a resume still starts exactly after
   * the last batch that survived.
   */
  forBulkWrites(): void {
    this.db().query('SET synchronous_commit = off');
  }

  /**
   * Set by PgStore while one of its transactions is open: a write whose result nobody reads may
   * then wait for the connection's next statement and go in the same request (SyncPg.defer); the
   * COMMIT is such a statement, so a failed write still fails its transaction.
   */
  deferWrites = false;

  /** Runs `flush` before every statement this connection sends: it defers the writes it held back (pg-held-rows.ts). */
  beforeEachStatement(flush: () => void): void {
    this.flushers.push(flush);
  }

  /** A write whose result nobody reads: deferred inside a transaction (deferWrites), run now outside one. */
  later(sql: string, params: readonly unknown[] = []): void {
    if (this.deferWrites) this.db().defer(sql, params);
    else this.db().query(sql, params);
  }

  /**
   * The name to read a table by: the table in the store's schema, or what shadows it on this
   * connection (time travel: the session's view of that name in pg_temp, or the expression given),
   * or the schema's view this connection reads it through (readThrough). Writes name the table
   * itself (baseTable).
   */
  table(name: string): string {
    if (this.shadowed.has(name)) return this.shadowed.get(name) ?? `pg_temp.${ident(name)}`;
    const view = this.readVia.get(name);
    return view === undefined ? this.baseTable(name) : this.baseTable(view);
  }

  /** The table in the store's schema, even where a view shadows it. */
  baseTable(name: string): string {
    return `${ident(this.url.schema)}.${ident(name)}`;
  }

  /** From now on `table(name)` names the schema's view `view`, which has the table's columns (an agent's role reads memories so). */
  readThrough(name: string, view: string): void {
    this.readVia.set(name, view);
  }

  /** Whether reads of `name` go through a view of the schema (readThrough). */
  readsThrough(name: string): boolean {
    return this.readVia.has(name);
  }

  /** From now on `table(name)` names this session's view `pg_temp.name` (made by the caller), or `as` (a table function's call). */
  shadow(name: string, as: string | null = null): void {
    this.shadowed.set(name, as);
  }

  /** The tables the schema holds (none when it does not exist). */
  tablesPresent(): Set<string> {
    const rows = this.read().query<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1', [this.url.schema]);
    return new Set(rows.map((r) => r.name));
  }

  storeFacts(): Map<string, string> {
    return new Map(this.read().query<{ key: string; value: string }>(`SELECT key, value FROM ${this.table(PG_STORE_TABLE)}`).map((r) => [r.key, r.value]));
  }

  /** The identity sequence of a table's rowid or INTEGER PRIMARY KEY: its last value, or null when none was handed out. */
  sequenceValue(spec: TableSpec): bigint | null {
    const column = identityColumn(spec);
    if (!column) return null;
    const [seq] = this.db().query<{ name: string }>('SELECT pg_get_serial_sequence($1, $2) AS name', [this.table(spec.name), column]);
    const [state] = this.db().query<{ last_value: string; is_called: boolean }>(`SELECT last_value, is_called FROM ${seq!.name}`);
    return state!.is_called ? BigInt(state!.last_value) : null;
  }

  close(): void {
    this.pg?.close();
    this.pg = null;
    this.router?.close();
  }
}
