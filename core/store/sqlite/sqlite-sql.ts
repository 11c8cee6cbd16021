/**
 * The SQLite side of the port's SQL seam (port/store-sql.ts): the shared queries run from the
 * store's statement cache (a one-off statement is prepared for its call alone), and a long read
 * streams in one statement, prepared afresh so that two reads of it can be open at once.
 */
import type { StoreQuery, StoreSqlWrites } from '../port/store-sql.js';
import type { DB, StatementCache } from './sqlite.js';

type Row = Record<string, unknown>;

const ordered = (q: StoreQuery): string => (q.pageBy ? `${q.sql} ORDER BY ${[q.pageBy].flat().join(', ')}` : q.sql);

export function sqliteSql(db: DB, st: StatementCache): StoreSqlWrites {
  const statement = (q: StoreQuery, sql = q.sql) => (q.fresh ? db.prepare(sql) : st.get(sql));
  return {
    dialect: 'sqlite',
    table: (name) => name,
    hasTable: (name) => st.get("SELECT 1 FROM sqlite_master WHERE type='table' AND name = ?").get(name) !== undefined,
    all: (q) => statement(q, ordered(q)).all(...q.params) as Row[],
    get: (q) => statement(q).get(...q.params) as Row | undefined,
    iterate: (q) => db.prepare(ordered(q)).iterate(...q.params) as Iterable<Row>,
    run: (q) => statement(q).run(...q.params).changes,
  };
}
