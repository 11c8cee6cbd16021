/** The columns the near-duplicate finder groups on, for the live memories of an owner scope. */
import type { OwnerScope } from '../model/owner.js';
import { ownerClause } from './owner-sql.js';
import type { DB } from './sqlite.js';
import { jsonField } from './json-sql.js';

export interface DuplicateCandidateRow {
  id: string;
  type: string;
  owner: string;
  created_at: number;
  strength: number;
  content: string;
}

/** Live rows only: an archived copy is already out of the way. Content only, never the JSON `data`. */
export function duplicateCandidateRows(db: DB, scope: OwnerScope): DuplicateCandidateRow[] {
  const oc = ownerClause(scope);
  return db.prepare(`SELECT id, type, owner, created_at, strength, content FROM memories WHERE archived = 0 AND ${oc.sql}`).all(...oc.params) as DuplicateCandidateRow[];
}

/** Titles for the memories shown on one page of groups. */
export function titlesOf(db: DB, ids: string[]): Map<string, string | null> {
  if (ids.length === 0) return new Map();
  const rows = db.prepare(`SELECT id, ${jsonField('data', '$.title')} AS title FROM memories WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as {
    id: string;
    title: string | null;
  }[];
  return new Map(rows.map((r) => [r.id, r.title]));
}
