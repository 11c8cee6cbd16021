/**
 * The PostgreSQL side of the port's SQL seam (port/store-sql.ts): the shared queries' `?`
 * placeholders numbered, their tables named in the store's schema (PgStoreConnection.table), and a
 * long read taken a page at a time in the order of its key, each page one round trip.
 */
import type { StoreQuery, StoreSqlWrites } from '../port/store-sql.js';
import { intOf, numbered } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';

type Row = Record<string, unknown>;

/** Rows a long read takes per round trip. */
const PAGE = 1000;

export function pgSql(conn: PgStoreConnection, page = PAGE): StoreSqlWrites {
  const rows = (sql: string, params: readonly unknown[]): Row[] => conn.db().query(numbered(sql), params);
  return {
    dialect: 'postgres',
    table: (name) => conn.table(name),
    // The store's schema holds every table of this build (checked at open), empty in a copy of a nooa-only store.
    hasTable: () => true,
    all: (q) => rows(q.pageBy ? `${q.sql} ORDER BY ${keyOf(q.pageBy).join(', ')}` : q.sql, q.params),
    get: (q) => rows(q.sql, q.params)[0],
    *iterate(q: StoreQuery): Iterable<Row> {
      if (!q.pageBy) {
        yield* rows(q.sql, q.params);
        return;
      }
      const key = keyOf(q.pageBy);
      const order = `ORDER BY ${key.join(', ')} LIMIT ${page}`;
      const past = `AND (${key.join(', ')}) > (${key.map(() => '?').join(', ')})`;
      for (let after: unknown[] | null = null; ; ) {
        const got: Row[] = rows(`${q.sql} ${after === null ? '' : past} ${order}`, after === null ? q.params : [...q.params, ...after]);
        yield* got;
        if (got.length < page) return;
        const last = got[got.length - 1]!;
        after = key.map((k) => last[bareColumn(k)]);
      }
    },
    run: (q) => {
      const [r] = conn.db().query(`WITH changed AS (${numbered(q.sql)} RETURNING 1) SELECT count(*) AS n FROM changed`, q.params);
      return intOf(r?.['n'] ?? 0, 'rows changed');
    },
  };
}

const keyOf = (key: string | readonly string[]): readonly string[] => [key].flat();

/** The column a key names in the rows (`m.rowid` is `rowid` there). */
const bareColumn = (key: string): string => key.slice(key.lastIndexOf('.') + 1);
