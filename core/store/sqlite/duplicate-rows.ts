/** The columns the near-duplicate finder groups on: read once for the whole store, then row by row. */
import { connectionOf } from './connection.js';
import type { RowSource } from '../shared/store-handle.js';
import { jsonField } from './json-sql.js';

export interface DuplicateCandidateRow {
  id: string;
  type: string;
  owner: string;
  created_at: number;
  strength: number;
  archived: number;
  content: string;
}

const COLUMNS = 'id, type, owner, created_at, strength, archived, content';

/** Live rows only (an archived copy is already out of the way). Content only, never the JSON `data`. */
export function liveDuplicateCandidates(source: RowSource): Iterable<DuplicateCandidateRow> {
  const db = connectionOf(source);
  return db.prepare(`SELECT ${COLUMNS} FROM memories WHERE archived = 0`).iterate() as Iterable<DuplicateCandidateRow>;
}

export function duplicateCandidate(source: RowSource, id: string): DuplicateCandidateRow | undefined {
  const db = connectionOf(source);
  return db.prepare(`SELECT ${COLUMNS} FROM memories WHERE id = ?`).get(id) as DuplicateCandidateRow | undefined;
}

/** Titles for the memories shown on one page of groups. */
export function titlesOf(source: RowSource, ids: string[]): Map<string, string | null> {
  const db = connectionOf(source);
  if (ids.length === 0) return new Map();
  const rows = db.prepare(`SELECT id, ${jsonField('data', '$.title')} AS title FROM memories WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as {
    id: string;
    title: string | null;
  }[];
  return new Map(rows.map((r) => [r.id, r.title]));
}
