/**
 * A store fingerprint: a hash over every memory row (all columns, embedding included) and every
 * edge row, in rowid order. A plan remembers it; apply recomputes it inside its transaction and
 * refuses a store that changed in between (another process, a recall, a manual edit). The mnemo_*
 * tables (journal, access events) are not plan inputs and are left out.
 */
import { createHash, type Hash } from 'node:crypto';
import type { MemoryRow } from '../store/codec.js';
import type { DB } from '../store/sqlite.js';

/** A memory row as MEMORY_ROW_SQL reads it: every column present. */
export type RawMemoryRow = Required<MemoryRow>;

export interface RawEdgeRow {
  rowid: number;
  src: string;
  dst: string;
  type: string;
  weight: number;
  created_at: number;
}

export const MEMORY_ROW_SQL =
  'SELECT rowid, id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, embedding, data FROM memories ORDER BY rowid';
const MEMORY_ROW_PAGE_SQL = MEMORY_ROW_SQL.replace('ORDER BY rowid', 'WHERE rowid > ? ORDER BY rowid LIMIT ?');

/**
 * The memory rows in rowid order, one statement per page, letting the event loop run between pages:
 * a 100k store takes seconds to read, and a UI polling the plan's progress (same process) must get
 * answers meanwhile. Pages need no shared snapshot: a commit between two pages leaves a fingerprint
 * that matches neither state (apply refuses, asking for a re-plan) or the new state, whose rows
 * were then all read after it.
 */
export async function* memoryRowPages(db: DB, pageSize = 2048): AsyncGenerator<RawMemoryRow[]> {
  const stmt = db.prepare(MEMORY_ROW_PAGE_SQL);
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const page = stmt.all(after, pageSize) as RawMemoryRow[];
    if (page.length === 0) return;
    yield page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]!.rowid;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Edges by source in rowid order: the order that matters (fanout ties), not the rowid values, which an undo renumbers. */
export const EDGE_ROW_SQL = 'SELECT rowid, src, dst, type, weight, created_at FROM memory_edges ORDER BY src, rowid';

const SEP = '\u001f';

export class Fingerprinter {
  private readonly h: Hash = createHash('sha1');

  row(r: RawMemoryRow): void {
    this.h.update(
      `M${r.rowid}${SEP}${r.id}${SEP}${r.type}${SEP}${r.importance}${SEP}${r.salience}${SEP}${r.strength}${SEP}${r.created_at}${SEP}${r.last_accessed}${SEP}${r.access_count}${SEP}${r.archived}${SEP}${r.owner}${SEP}${r.status}${SEP}${r.content.length}${SEP}`,
    );
    this.h.update(r.content);
    this.h.update(SEP);
    this.h.update(r.data);
    if (r.embedding) this.h.update(r.embedding);
    this.h.update('\n');
  }

  edge(e: RawEdgeRow): void {
    this.h.update(`E${e.src}${SEP}${e.dst}${SEP}${e.type}${SEP}${e.weight}${SEP}${e.created_at}\n`);
  }

  digest(): string {
    return this.h.digest('hex');
  }
}

const EDGE_ROW_PAGE_SQL = 'SELECT rowid, src, dst, type, weight, created_at FROM memory_edges WHERE (src, rowid) > (?, ?) ORDER BY src, rowid LIMIT ?';

/**
 * The same fingerprint, read a page at a time with the event loop running between pages and no
 * lock held. Pages share no snapshot: a commit in between gives a digest of no real state, so a
 * caller must know that nothing committed meanwhile before trusting it (see apply's pre-check).
 */
export async function storeFingerprintInPages(db: DB, pageSize = 2048): Promise<string> {
  const f = new Fingerprinter();
  for await (const page of memoryRowPages(db, pageSize)) for (const r of page) f.row(r);
  const edges = db.prepare(EDGE_ROW_PAGE_SQL);
  let after: [string, number] = ['', Number.MIN_SAFE_INTEGER];
  for (;;) {
    const page = edges.all(after[0], after[1], pageSize) as RawEdgeRow[];
    for (const e of page) f.edge(e);
    if (page.length < pageSize) break;
    const last = page[page.length - 1]!;
    after = [last.src, last.rowid];
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return f.digest();
}

/** Recomputes the fingerprint from scratch (apply does this inside its transaction). */
export function storeFingerprint(db: DB): string {
  const f = new Fingerprinter();
  for (const r of db.prepare(MEMORY_ROW_SQL).iterate() as Iterable<RawMemoryRow>) f.row(r);
  for (const e of db.prepare(EDGE_ROW_SQL).iterate() as Iterable<RawEdgeRow>) f.edge(e);
  return f.digest();
}
