/**
 * A store fingerprint: a hash over every memory row (all columns, embedding included) and every
 * edge row, in rowid order. A plan remembers it; apply recomputes it inside its transaction and
 * refuses a store that changed in between (another process, a manual edit, another pass). The
 * mnemo_* tables (journal, access events) are not plan inputs and are left out.
 *
 * Access bookkeeping is left out too: what a recall, search, deref or reinforcement writes to a
 * row (strength, recency, access count, the access ring and the channel counters, in the columns
 * and in `data`). Agents recall all the time, so a fingerprint that saw those writes would refuse
 * nearly every plan on a store in use. They cannot make a plan wrong: apply reads those values
 * from the rows as they are when it writes (a merge folds the current strength, a prune checks its
 * guard again), and reports where they moved a planned value. Any other change to a row, or any
 * change to an edge, still changes the fingerprint.
 */
import { createHash, type Hash } from 'node:crypto';
import type { RawEdgeRow, RawMemoryRow, StoreReader } from '../store/port/port.js';

export type { RawEdgeRow, RawMemoryRow } from '../store/port/port.js';

const SEP = '\u001f';

export class Fingerprinter {
  private readonly h: Hash = createHash('sha1');

  row(r: RawMemoryRow): void {
    this.h.update(
      `M${r.rowid}${SEP}${r.id}${SEP}${r.type}${SEP}${r.importance}${SEP}${r.salience}${SEP}${r.created_at}${SEP}${r.archived}${SEP}${r.owner}${SEP}${r.status}${SEP}${r.content.length}${SEP}`,
    );
    this.h.update(r.content);
    this.h.update(SEP);
    for (const part of dataWithoutUsage(r.data)) this.h.update(part);
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

/*
 * Where access bookkeeping sits in nooa's `data` dump (model/memory.ts's DATA_FIELD_ORDER, keys
 * written as `"key": value, `): `strength` alone, then the run from `last_accessed_at` to
 * `deref_count`. A top-level key is the first match: a string value cannot hold an unescaped quote,
 * and no field before these is an object.
 */
const STRENGTH = '"strength": ';
const AFTER_STRENGTH = ', "reinforcement_count": ';
const USAGE_FROM = '"last_accessed_at": ';
const USAGE_UNTIL = ', "source_task_ref": ';
/* What a cut span must be, so that no other field (a dump in another order) is ever cut out with it. */
const NUM = '-?[0-9][0-9.eE+-]*';
const STRENGTH_SPAN = new RegExp(`^"strength": ${NUM}$`);
const USAGE_SPAN = new RegExp(
  `^"last_accessed_at": (?:${NUM}|null), "access_log": \\[.*\\], "access_count": ${NUM}, "recalled_count": ${NUM}, "searched_count": ${NUM}, "injected_count": ${NUM}, "reinforced_count": ${NUM}, "deref_count": ${NUM}$`,
  's',
);

/**
 * `data` in parts, with the access bookkeeping cut out. A dump not laid out as nooa writes it
 * (keys missing or out of order) is hashed whole: the fingerprint then sees every write to it,
 * which can only refuse more plans, never fewer.
 */
function dataWithoutUsage(data: string): string[] {
  const s = data.indexOf(STRENGTH);
  const sEnd = s < 0 ? -1 : data.indexOf(AFTER_STRENGTH, s);
  const u = sEnd < 0 ? -1 : data.indexOf(USAGE_FROM, sEnd);
  const uEnd = u < 0 ? -1 : data.indexOf(USAGE_UNTIL, u);
  if (uEnd < 0 || !STRENGTH_SPAN.test(data.slice(s, sEnd)) || !USAGE_SPAN.test(data.slice(u, uEnd))) return [data];
  return [data.slice(0, s), data.slice(sEnd, u), data.slice(uEnd)];
}

/** How a paged fingerprint reports and stops: rows read so far, and a look between pages. */
export interface PagedReadControl {
  /** Rows (memories, then edges) read so far. */
  onRows?: (done: number) => void;
  /** Checked between pages: true abandons the read (the caller then throws). */
  shouldStop?: () => boolean;
}

/**
 * The same fingerprint, read a page at a time with the event loop running between pages and no
 * lock held. Pages share no snapshot: a commit in between gives a digest of no real state, so a
 * caller must know that nothing committed meanwhile before trusting it (see apply's pre-check).
 * Returns null when `shouldStop` asked it to stop.
 */
export async function storeFingerprintInPages(store: StoreReader, pageSize = 2048, ctl: PagedReadControl = {}): Promise<string | null> {
  const f = new Fingerprinter();
  let rows = 0;
  for await (const page of store.queries.memoryRowPages(pageSize)) {
    for (const r of page) f.row(r);
    ctl.onRows?.((rows += page.length));
    if (ctl.shouldStop?.()) return null;
  }
  for await (const page of store.queries.edgeRowPages(pageSize)) {
    for (const e of page) f.edge(e);
    ctl.onRows?.((rows += page.length));
    if (ctl.shouldStop?.()) return null;
  }
  return f.digest();
}

/** Recomputes the fingerprint from scratch (apply does this inside its transaction). */
export function storeFingerprint(store: StoreReader): string {
  const f = new Fingerprinter();
  for (const r of store.queries.memoryRows()) f.row(r);
  for (const e of store.queries.edgeRows()) f.edge(e);
  return f.digest();
}
