/** Value counts for the memory list's filters (Datasette-style facets), straight from SQL. */
import { connectionOf } from './connection.js';
import type { RowSource } from './store-handle.js';
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
  const total = archived === 'live' ? (counts.live ?? 0) : archived === 'archived' ? (counts.archived ?? 0) : (counts.live ?? 0) + (counts.archived ?? 0);
  return {
    tags_sampled: total > tagSample ? tagSample : null,
    types: group('type'),
    owners: group('owner'),
    statuses: group('status').filter((r) => r.value !== ''),
    tags,
    live: counts.live ?? 0,
    archived: counts.archived ?? 0,
  };
}
