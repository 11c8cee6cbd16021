/**
 * The filtered, sorted, paged memory list behind the Memories table. Everything is SQL over the
 * promoted columns plus json_extract for title and tags, so a page of a 100k store costs one
 * indexed query and never parses a full `data` payload.
 */
import { connectionOf } from './connection.js';
import { parseOwnerScope } from '../model/owner.js';
import { ownerClause } from './owner-sql.js';
import { idleSql, rangeClause, retentionSql, type NumRange } from './retention-sql.js';
import type { RowSource } from './store-handle.js';
import { jsonField, readableJsonOrNull } from './json-sql.js';

export interface ListFilter {
  types?: string[];
  owner?: string;
  owners?: string[];
  statuses?: string[];
  archived?: 'live' | 'archived' | 'all';
  text?: string;
  tags?: string[];
  ids?: string[];
  /** Memories with an edge (out or in) of one of these types. */
  edge_types?: string[];
  /** Retention at `now` in [min, max) (needs `now` and `half_life_hours`). */
  retention?: NumRange;
  importance?: NumRange;
  /** Seconds since the last access at `now`, in [min, max). */
  idle?: NumRange;
  now?: number;
  half_life_hours?: number;
  sort?: string;
  dir?: 'asc' | 'desc';
  offset?: number;
  limit?: number;
}

export interface ListRow {
  id: string;
  type: string;
  title: string | null;
  content: string;
  owner: string;
  status: string | null;
  archived: number;
  importance: number;
  salience: number;
  strength: number;
  access_count: number;
  created_at: number;
  last_accessed: number;
  tags: string | null;
}

const SORT_SQL: Record<string, string> = {
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

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function buildWhere(f: ListFilter): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const archived = f.archived ?? 'live';
  // With an id list, `+archived` keeps the planner on primary-key lookups for the ids instead of
  // walking the archived index over the whole table (seconds at 100k rows).
  const col = f.ids?.length ? '+archived' : 'archived';
  if (archived === 'live') where.push(`${col} = 0`);
  else if (archived === 'archived') where.push(`${col} = 1`);
  if (f.types?.length) {
    where.push(`type IN (${f.types.map(() => '?').join(',')})`);
    params.push(...f.types);
  }
  const scope = parseOwnerScope(f.owner);
  const oc = ownerClause(scope);
  if (oc.sql !== '1') {
    where.push(oc.sql);
    params.push(...oc.params);
  }
  if (f.owners?.length) {
    // Exact owner strings (facets); "" selects unowned rows.
    where.push(`owner IN (${f.owners.map(() => '?').join(',')})`);
    params.push(...f.owners);
  }
  if (f.statuses?.length) {
    where.push(`status IN (${f.statuses.map(() => '?').join(',')})`);
    params.push(...f.statuses);
  }
  if (f.ids?.length) {
    where.push(`id IN (SELECT value FROM json_each(?))`);
    params.push(JSON.stringify(f.ids));
  }
  if (f.edge_types?.length) {
    const marks = f.edge_types.map(() => '?').join(',');
    where.push(
      `(EXISTS (SELECT 1 FROM memory_edges e WHERE e.src = memories.id AND e.type IN (${marks})) OR EXISTS (SELECT 1 FROM memory_edges e WHERE e.dst = memories.id AND e.type IN (${marks})))`,
    );
    params.push(...f.edge_types, ...f.edge_types);
  }
  const ranges: [string, NumRange | undefined][] = [['importance', f.importance]];
  if (f.now !== undefined) {
    if (f.idle) ranges.push([idleSql(f.now), f.idle]);
    if (f.retention) ranges.push([retentionSql(f.now, f.half_life_hours ?? 336), f.retention]);
  }
  for (const [expr, r] of ranges) {
    if (!r) continue;
    const c = rangeClause(expr, r);
    where.push(...c.sql);
    params.push(...c.params);
  }
  for (const tag of f.tags ?? []) {
    where.push(`EXISTS (SELECT 1 FROM json_each(${readableJsonOrNull('memories.data')}, '$.tags') t WHERE t.value = ?)`);
    params.push(tag);
  }
  if (f.text && f.text.trim()) {
    for (const word of f.text.trim().split(/\s+/)) {
      where.push(`(content LIKE ? ESCAPE '\\' OR ${jsonField('data', '$.title')} LIKE ? ESCAPE '\\' OR id LIKE ? ESCAPE '\\')`);
      const p = `%${escapeLike(word)}%`;
      params.push(p, p, `${escapeLike(word)}%`);
    }
  }
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
