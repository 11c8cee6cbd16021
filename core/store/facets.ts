/** Value counts for the memory list's filters (Datasette-style facets), straight from SQL. */
import type { DB } from './sqlite.js';

export interface FacetRow {
  value: string;
  n: number;
}

export function memoryFacets(db: DB, archived: 'live' | 'archived' | 'all', tagLimit: number) {
  const where = archived === 'live' ? 'archived = 0' : archived === 'archived' ? 'archived = 1' : '1';
  const group = (col: string) =>
    db.prepare(`SELECT coalesce(${col}, '') AS value, count(*) AS n FROM memories WHERE ${where} GROUP BY ${col} ORDER BY n DESC, value ASC`).all() as FacetRow[];
  const tags = db
    .prepare(
      `SELECT t.value AS value, count(*) AS n FROM memories, json_each(memories.data, '$.tags') t WHERE ${where}
       GROUP BY t.value ORDER BY n DESC, value ASC LIMIT ?`,
    )
    .all(tagLimit) as FacetRow[];
  const counts = db.prepare('SELECT sum(archived = 0) AS live, sum(archived = 1) AS archived FROM memories').get() as { live: number | null; archived: number | null };
  return {
    types: group('type'),
    owners: group('owner'),
    statuses: group('status').filter((r) => r.value !== ''),
    tags,
    live: counts.live ?? 0,
    archived: counts.archived ?? 0,
  };
}
