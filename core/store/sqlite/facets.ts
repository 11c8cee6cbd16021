/** Value counts for the memory list's filters (Datasette-style facets), straight from SQL. */
import { connectionOf } from './connection.js';
import type { RowSource } from '../shared/store-handle.js';
import { readableJsonOrNull } from '../shared/json-sql.js';
import type { FacetRow, MemoryFacets } from '../port/memory-views.js';

/**
 * Tag counts need every row's JSON parsed (seconds on a 100k store, during which the engine answers
 * nothing else), so they are counted over the `tagSample` most recently added rows; `tags_sampled`
 * says how many rows that was when it is fewer than the whole set.
 */
export function memoryFacets(source: RowSource, archived: 'live' | 'archived' | 'all', tagLimit: number, tagSample = 10_000): MemoryFacets {
  const db = connectionOf(source);
  const where = archived === 'live' ? 'archived = 0' : archived === 'archived' ? 'archived = 1' : '1';
  const counts = db.prepare('SELECT sum(archived = 0) AS live, sum(archived = 1) AS archived FROM memories').get() as { live: number | null; archived: number | null };
  const live = counts.live ?? 0;
  const archivedCount = counts.archived ?? 0;
  // Each column has an index of its own: counting every row is a scan of that index alone. Counting
  // one side of `archived` reads each of its rows (the index on archived says which): a million
  // row reads at a million memories, seconds. So the smaller side is read, and the other is the
  // whole less it.
  const all = (col: string) => db.prepare(`SELECT ${col} AS k, count(*) AS n FROM memories GROUP BY ${col}`).all() as KeyCount[];
  const side = (col: string, value: 0 | 1) => db.prepare(`SELECT ${col} AS k, count(*) AS n FROM memories WHERE archived = ${value} GROUP BY ${col}`).all() as KeyCount[];
  const group = (col: string): FacetRow[] => {
    if (archived === 'all') return facetRows(all(col));
    const wanted: 0 | 1 = archived === 'live' ? 0 : 1;
    const wantedCount = wanted === 0 ? live : archivedCount;
    const otherCount = wanted === 0 ? archivedCount : live;
    return facetRows(wantedCount <= otherCount ? side(col, wanted) : minus(all(col), side(col, wanted === 0 ? 1 : 0)));
  };
  const tags = db
    .prepare(
      `SELECT t.value AS value, count(*) AS n FROM (SELECT data FROM memories WHERE ${where} ORDER BY rowid DESC LIMIT ?) AS s, json_each(${readableJsonOrNull('s.data')}, '$.tags') t
       GROUP BY t.value ORDER BY n DESC, value ASC LIMIT ?`,
    )
    .all(tagSample, tagLimit) as FacetRow[];
  return facetsOf(archived, tagSample, { types: group('type'), owners: group('owner'), statuses: group('status'), tags }, live, archivedCount);
}

/** A column's value (null for NULL) and how many rows hold it. */
export interface KeyCount {
  k: string | null;
  n: number;
}

/** Each key's count in `whole` less its count in `part`; keys left with none dropped. */
function minus(whole: readonly KeyCount[], part: readonly KeyCount[]): KeyCount[] {
  const less = new Map(part.map((r) => [r.k, r.n]));
  return whole.map((r) => ({ k: r.k, n: r.n - (less.get(r.k) ?? 0) })).filter((r) => r.n > 0);
}

const utf8 = (s: string) => Buffer.from(s, 'utf8');

/**
 * Facet rows as `SELECT coalesce(col, '') AS value, count(*) … GROUP BY col ORDER BY n DESC, value
 * ASC` gives them: most frequent first, ties by the value's bytes (SQLite's BINARY, PostgreSQL's
 * COLLATE "C"); a NULL key reads as ''.
 */
export function facetRows(groups: readonly KeyCount[]): FacetRow[] {
  return groups
    .map((g) => ({ value: g.k ?? '', n: g.n }))
    .sort((a, b) => b.n - a.n || Buffer.compare(utf8(a.value), utf8(b.value)));
}

/**
 * The facets as both adapters answer them (pg/pg-list.ts is PostgreSQL's): `statuses` without the
 * unset ones, and `tags_sampled` set when the rows the tags were counted over are fewer than the set.
 */
export function facetsOf(
  archived: 'live' | 'archived' | 'all',
  tagSample: number,
  groups: { types: FacetRow[]; owners: FacetRow[]; statuses: FacetRow[]; tags: FacetRow[] },
  live: number,
  archivedCount: number,
): MemoryFacets {
  const total = archived === 'live' ? live : archived === 'archived' ? archivedCount : live + archivedCount;
  return {
    tags_sampled: total > tagSample ? tagSample : null,
    types: groups.types,
    owners: groups.owners,
    statuses: groups.statuses.filter((r) => r.value !== ''),
    tags: groups.tags,
    live,
    archived: archivedCount,
  };
}
