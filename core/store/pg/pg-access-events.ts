/**
 * The PostgreSQL adapter's SQL over the uncapped access-event table: the same values and filter
 * as the SQLite adapter's (access-events.ts builds both), bigint columns turned back into numbers.
 */
import { ACCESS_EVENT_COLUMNS, eventFilterSql, rowToEvent, type EventRow } from '../sqlite/access-events.js';
import { intOf, intOrNull, numbered } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';
import type { AccessEvent, EventFilter } from '../port/event-rows.js';

/**
 * The event row's columns, named rather than `*`: a statement is prepared once per connection, and
 * a prepared `SELECT *` fails ("cached plan must not change result type") once another process's
 * newer build adds a column to the table while this connection is open.
 */
export function eventColumns(alias?: string): string {
  return ['id', ...ACCESS_EVENT_COLUMNS].map((c) => (alias ? `${alias}.${c}` : c)).join(', ');
}

/** An event row as `pg` returns it, its bigint columns as numbers. */
export function eventRow(r: Record<string, unknown>): EventRow {
  return {
    ...(r as unknown as EventRow),
    id: intOf(r['id'], 'mnemo_access_events.id'),
    rank: intOrNull(r['rank'], 'mnemo_access_events.rank'),
    strength_after: intOrNull(r['strength_after'], 'mnemo_access_events.strength_after'),
    reinforce: intOf(r['reinforce'], 'mnemo_access_events.reinforce'),
    backfilled: intOf(r['backfilled'], 'mnemo_access_events.backfilled'),
  };
}

/** Rows per multi-row INSERT: well under PostgreSQL's 65,535 parameters per statement. */
const EVENTS_PER_STATEMENT = 500;

export class PgAccessEvents {
  constructor(private readonly conn: PgStoreConnection) {}

  private get table(): string {
    return this.conn.table('mnemo_access_events');
  }

  /**
   * Inserts many events (each from accessEventValues(…)), a few hundred rows per statement: the
   * backfill of a nooa store's rings (tens of thousands of entries at 100k memories) row by row was
   * one round trip each, and a recall's accesses one statement each. Nothing reads the result:
   * inside a transaction the statements go with its next one (PgStoreConnection.later).
   */
  insertMany(rows: readonly (readonly unknown[])[]): void {
    const width = ACCESS_EVENT_COLUMNS.length;
    for (let start = 0; start < rows.length; start += EVENTS_PER_STATEMENT) {
      const chunk = rows.slice(start, start + EVENTS_PER_STATEMENT);
      const tuples = chunk.map((_r, i) => `(${ACCESS_EVENT_COLUMNS.map((_c, j) => `$${i * width + j + 1}`).join(', ')})`);
      this.conn.later(`INSERT INTO ${this.table}(${ACCESS_EVENT_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`, chunk.flat());
    }
  }

  query(f: EventFilter): { total: number; events: AccessEvent[] } {
    const { where, params } = eventFilterSql(f, 'ILIKE');
    const w = numbered(where);
    const db = this.conn.read();
    const total = intOf(db.query(`SELECT count(*) AS n FROM ${this.table} ${w}`, params)[0]!['n'], 'count(*)');
    const order = f.order === 'asc' ? 'ASC' : 'DESC';
    const n = params.length;
    const rows = db.query(`SELECT ${eventColumns()} FROM ${this.table} ${w} ORDER BY ts ${order}, id ${order} LIMIT $${n + 1} OFFSET $${n + 2}`, [...params, f.limit ?? 100, f.offset ?? 0]);
    return { total, events: rows.map((r) => rowToEvent(eventRow(r))) };
  }
}
