/**
 * One PostgreSQL store's schema on one connection, for the two ends of a copy (pg-copy-source.ts,
 * pg-copy-target.ts): qualified table names, the tables present, the store's own facts, and the
 * identity sequences.
 */
import type { TableSpec } from '../copy/store-tables.js';
import { identityColumn, PG_STORE_TABLE } from './pg-schema.js';
import { ident, type PgStoreUrl } from './pg-url.js';
import { SyncPg } from './sync-pg.js';

/** Reads and writes of one store's schema on one connection. */
export class PgStoreConnection {
  private pg: SyncPg | null = null;
  /** Tables this connection reads through session views of the same name instead (a store as of an instant, pg-history-views.ts). */
  private readonly shadowed = new Set<string>();
  /** Tables this connection reads through a view of the store's schema instead (an agent's role reads memories through mnemo_agent_memories). */
  private readonly readVia = new Map<string, string>();
  private readonly flushers: (() => void)[] = [];

  constructor(readonly url: PgStoreUrl) {}

  get shown(): string {
    return this.url.shown;
  }

  db(): SyncPg {
    if (!this.pg) {
      this.pg = SyncPg.connect(this.url.connection);
      this.pg.beforeSend = () => {
        for (const flush of this.flushers) flush();
      };
    }
    return this.pg;
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
   * The name to read a table by: the table in the store's schema, or the session's view of that
   * name in pg_temp where one shadows it (time travel), or the schema's view this connection reads
   * it through (readThrough). Writes name the table itself (baseTable).
   */
  table(name: string): string {
    if (this.shadowed.has(name)) return `pg_temp.${ident(name)}`;
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

  /** From now on `table(name)` names this session's view `pg_temp.name` (made by the caller). */
  shadow(name: string): void {
    this.shadowed.add(name);
  }

  /** The tables the schema holds (none when it does not exist). */
  tablesPresent(): Set<string> {
    const rows = this.db().query<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1', [this.url.schema]);
    return new Set(rows.map((r) => r.name));
  }

  storeFacts(): Map<string, string> {
    return new Map(this.db().query<{ key: string; value: string }>(`SELECT key, value FROM ${this.table(PG_STORE_TABLE)}`).map((r) => [r.key, r.value]));
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
  }
}
