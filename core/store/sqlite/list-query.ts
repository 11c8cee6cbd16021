/**
 * The filtered, sorted, paged memory list behind the Memories table. Everything is SQL over the
 * promoted columns plus json_extract for title and tags, so a page of a 100k store costs one
 * indexed query and never parses a full `data` payload.
 */
import { connectionOf } from './connection.js';
import { listWhere, type ListDialect } from '../shared/list-filter.js';
import type { RowSource } from '../shared/store-handle.js';
import { jsonField, readableJsonOrNull } from '../shared/json-sql.js';
import type { ListFilter, ListRow } from '../port/memory-views.js';
import { archivedExpression } from './view-indexes.js';


export const SORT_SQL: Record<string, string> = {
  created_at: 'created_at',
  last_accessed: 'last_accessed',
  importance: 'importance',
  salience: 'salience',
  strength: 'strength',
  access_count: 'access_count',
  type: 'type',
  owner: 'owner',
  rowid: 'rowid',
};

/** SQLite's side of the list's filters (list-filter.ts). */
const SQLITE_LIST: ListDialect = {
  // With an id list, `+archived` keeps the planner on primary-key lookups for the ids instead of
  // walking the archived index over the whole table (seconds at 100k rows). Without one, the
  // expression the views' indexes lead with (view-indexes.ts): the first page newest first reads
  // its index instead of sorting the table.
  archivedColumn: (withIds) => (withIds ? '+archived' : archivedExpression()),
  idIn: 'id IN (SELECT value FROM json_each(?))',
  idsParam: (ids) => JSON.stringify(ids),
  hasTag: `EXISTS (SELECT 1 FROM json_each(${readableJsonOrNull('memories.data')}, '$.tags') t WHERE t.value = ?)`,
  title: jsonField('data', '$.title'),
  like: 'LIKE',
  edges: 'memory_edges',
  larger: 'max',
};

export function buildWhere(f: ListFilter): { sql: string; params: unknown[] } {
  const { where, params } = listWhere(f, SQLITE_LIST);
  return { sql: where.length ? where.join(' AND ') : '1', params };
}

export function listMemories(source: RowSource, f: ListFilter): { total: number; rows: ListRow[] } {
  const db = connectionOf(source);
  const w = buildWhere(f);
  const total = (db.prepare(`SELECT count(*) AS n FROM memories WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
  const sort = SORT_SQL[f.sort ?? 'rowid'] ?? 'rowid';
  const dir = f.dir === 'desc' ? 'DESC' : 'ASC';
  // Sort and page on the promoted columns first, then read title and tags (JSON) only for the page:
  // evaluating json_extract for every row before the sort costs seconds on a 100k store.
  const rows = db
    .prepare(
      `SELECT id, type, ${jsonField('data', '$.title')} AS title, substr(content, 1, 300) AS content, owner, status, archived,
              importance, salience, strength, access_count, created_at, last_accessed, ${jsonField('data', '$.tags')} AS tags
       FROM memories WHERE rowid IN (SELECT rowid FROM memories WHERE ${w.sql} ORDER BY ${sort} ${dir}, rowid ${dir} LIMIT ? OFFSET ?)
       ORDER BY ${sort} ${dir}, rowid ${dir}`,
    )
    .all(...w.params, f.limit ?? 200, f.offset ?? 0) as ListRow[];
  return { total, rows };
}
