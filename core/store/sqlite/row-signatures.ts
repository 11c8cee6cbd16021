/**
 * What each memory row and each memory's outgoing edges looked like at the last check, as a digest
 * per id. When another process commits, diffing two snapshots names the memories it changed, so
 * in-memory indexes can patch those rows instead of rebuilding from scratch (a keyword index over
 * 100k memories takes seconds to rebuild; the diff reads every row once and hashes it natively).
 */
import { createHash } from 'node:crypto';
import type { DB } from './sqlite.js';

export interface RowSignatures {
  rows: Map<string, string>;
  edges: Map<string, string>;
}

const SEP = '\u001f';

export function scanRowSignatures(db: DB): RowSignatures {
  const rows = new Map<string, string>();
  const stmt = db.prepare('SELECT id, archived, owner, status, type, content, data, embedding FROM memories').raw();
  for (const r of stmt.iterate() as Iterable<[string, number, string, string | null, string, string, string, Buffer | null]>) {
    const h = createHash('md5').update(`${r[1]}${SEP}${r[2]}${SEP}${r[3]}${SEP}${r[4]}${SEP}${r[5].length}${SEP}`).update(r[5]).update(SEP).update(r[6]);
    if (r[7]) h.update(r[7]);
    rows.set(r[0], h.digest('base64'));
  }
  const edges = new Map<string, string>();
  let src: string | null = null;
  let h = createHash('md5');
  const edgeStmt = db.prepare('SELECT src, dst, type, weight, created_at FROM memory_edges ORDER BY src, rowid').raw();
  for (const e of edgeStmt.iterate() as Iterable<[string, string, string, number, number]>) {
    if (e[0] !== src) {
      if (src !== null) edges.set(src, h.digest('base64'));
      src = e[0];
      h = createHash('md5');
    }
    h.update(`${e[1]}${SEP}${e[2]}${SEP}${e[3]}${SEP}${e[4]}\n`);
  }
  if (src !== null) edges.set(src, h.digest('base64'));
  return { rows, edges };
}

/** Memories that are new or differ (row or outgoing edges), and memories that are gone. */
export function diffRowSignatures(before: RowSignatures, after: RowSignatures): { upserts: string[]; deletes: string[] } {
  const upserts: string[] = [];
  const deletes: string[] = [];
  for (const [id, sig] of after.rows) {
    if (before.rows.get(id) !== sig || before.edges.get(id) !== after.edges.get(id)) upserts.push(id);
  }
  for (const id of before.rows.keys()) if (!after.rows.has(id)) deletes.push(id);
  return { upserts, deletes };
}
