/** The ids of every memory a list filter matches (for "select all N matching"), in the list's order. */
import { connectionOf } from './connection.js';
import { buildWhere, type ListFilter } from './list-query.js';
import type { RowSource } from '../shared/store-handle.js';

export function listIds(source: RowSource, f: ListFilter, max: number): { total: number; ids: string[] } {
  const db = connectionOf(source);
  const w = buildWhere(f);
  const total = (db.prepare(`SELECT count(*) AS n FROM memories WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
  const ids = (db.prepare(`SELECT id FROM memories WHERE ${w.sql} ORDER BY rowid LIMIT ?`).raw().all(...w.params, max) as [string][]).map((r) => r[0]);
  return { total, ids };
}
