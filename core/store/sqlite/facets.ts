/** Value counts for the memory list's filters (Datasette-style facets), straight from SQL. */
import { connectionOf } from './connection.js';
import type { RowSource } from '../shared/store-handle.js';
import { readableJsonOrNull } from './json-sql.js';

export interface FacetRow {
  value: string;
  n: number;
}

/**
 * Tag counts need every row's JSON parsed (seconds on a 100k store, during which the engine answers
 * nothing else), so they are counted over the `tagSample` most recently added rows; `tags_sampled`
 * says how many rows that was when it is fewer than the whole set.
 */
export function memoryFacets(source: RowSource, archived: 'live' | 'archived' | 'all', tagLimit: number, tagSample = 10_000) {
  const db = connectionOf(source);
  const where = archived === 'live' ? 'archived = 0' : archived === 'archived' ? 'archived = 1' : '1';
  const group = (col: string) =>
    db.prepare(`SELECT coalesce(${col}, '') AS value, count(*) AS n FROM memories WHERE ${where} GROUP BY ${col} ORDER BY n DESC, value ASC`).all() as FacetRow[];
  const tags = db
    .prepare(
      `SELECT t.value AS value, count(*) AS n FROM (SELECT data FROM memories WHERE ${where} ORDER BY rowid DESC LIMIT ?) AS s, json_each(${readableJsonOrNull('s.data')}, '$.tags') t
       GROUP BY t.value ORDER BY n DESC, value ASC LIMIT ?`,
    )
    .all(tagSample, tagLimit) as FacetRow[];
  const counts = db.prepare('SELECT sum(archived = 0) AS live, sum(archived = 1) AS archived FROM memories').get() as { live: number | null; archived: number | null };
  return facetsOf(archived, tagSample, { types: group('type'), owners: group('owner'), statuses: group('status'), tags }, counts.live ?? 0, counts.archived ?? 0);
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
) {
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
