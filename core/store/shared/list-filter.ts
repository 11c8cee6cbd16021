/**
 * The WHERE clause of the memory list's filters (ListFilter), one for both adapters: SQLite's
 * (list-query.ts, list-ids.ts) and PostgreSQL's (pg/pg-list.ts) differ only in how they test an id
 * list, read a memory's title and tags from its JSON, match text as SQLite's LIKE does, name the
 * edge table and take the larger of two values.
 */
import { parseOwnerScope } from '../../model/owner.js';
import { ownerClause } from './owner-sql.js';
import { idleSql, rangeClause, retentionSql, type LargerOf, type NumRange } from './retention-sql.js';

/** The memory list's filters, sort and page. */
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

export interface ListDialect {
  /** The archived column; with an id list SQLite writes `+archived`, to keep its planner on primary-key lookups. */
  archivedColumn: (withIds: boolean) => string;
  /** "id is in this list", with one `?` taking `idsParam(ids)`. */
  idIn: string;
  idsParam: (ids: readonly string[]) => unknown;
  /** "the memory's tags hold the value of one `?`". */
  hasTag: string;
  /** A memory's title (NULL when its JSON cannot be read). */
  title: string;
  /** The operator matching a %-pattern, ASCII case folded (LIKE on SQLite, ILIKE on byte-order text). */
  like: string;
  /** The edge table's name in SQL. */
  edges: string;
  larger: LargerOf;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The conditions (joined with AND; none when empty) and their `?` parameters, in order. */
export function listWhere(f: ListFilter, d: ListDialect): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const inList = (col: string, values: readonly unknown[]) => {
    where.push(`${col} IN (${values.map(() => '?').join(',')})`);
    params.push(...values);
  };
  const archived = f.archived ?? 'live';
  const col = d.archivedColumn(Boolean(f.ids?.length));
  if (archived === 'live') where.push(`${col} = 0`);
  else if (archived === 'archived') where.push(`${col} = 1`);
  if (f.types?.length) inList('type', f.types);
  const oc = ownerClause(parseOwnerScope(f.owner));
  if (oc.sql !== '1') {
    where.push(oc.sql);
    params.push(...oc.params);
  }
  // Exact owner strings (facets); "" selects unowned rows.
  if (f.owners?.length) inList('owner', f.owners);
  if (f.statuses?.length) inList('status', f.statuses);
  if (f.ids?.length) {
    where.push(d.idIn);
    params.push(d.idsParam(f.ids));
  }
  if (f.edge_types?.length) {
    const marks = f.edge_types.map(() => '?').join(',');
    where.push(
      `(EXISTS (SELECT 1 FROM ${d.edges} e WHERE e.src = memories.id AND e.type IN (${marks})) OR EXISTS (SELECT 1 FROM ${d.edges} e WHERE e.dst = memories.id AND e.type IN (${marks})))`,
    );
    params.push(...f.edge_types, ...f.edge_types);
  }
  const ranges: [string, NumRange | undefined][] = [['importance', f.importance]];
  if (f.now !== undefined) {
    if (f.idle) ranges.push([idleSql(f.now, 'memories', d.larger), f.idle]);
    if (f.retention) ranges.push([retentionSql(f.now, f.half_life_hours ?? 336, 'memories', d.larger), f.retention]);
  }
  for (const [expr, r] of ranges) {
    if (!r) continue;
    const c = rangeClause(expr, r);
    where.push(...c.sql);
    params.push(...c.params);
  }
  for (const tag of f.tags ?? []) {
    where.push(d.hasTag);
    params.push(tag);
  }
  if (f.text && f.text.trim()) {
    for (const word of f.text.trim().split(/\s+/)) {
      where.push(`(content ${d.like} ? ESCAPE '\\' OR ${d.title} ${d.like} ? ESCAPE '\\' OR id ${d.like} ? ESCAPE '\\')`);
      const p = `%${escapeLike(word)}%`;
      params.push(p, p, `${escapeLike(word)}%`);
    }
  }
  return { where, params };
}
