/**
 * The keyword index's scoring (keyword-index.ts): FTS5's own bm25() formula (k1 1.2, b 0.75, idf
 * ln((N − df + 0.5)/(df + 0.5)) floored at 1e-6, column weights applied to term frequencies,
 * length = all columns) computed over the bulk postings' typed arrays and the term lists of the
 * rows changed since they were built, and the best `limit` rows kept in a bounded heap.
 */
import type { Terms } from './keyword-doc.js';
import { bisect } from './keyword-postings.js';

export interface KeywordHit {
  id: string;
  /** bm25 relevance, larger is better. */
  score: number;
}

export interface KeywordSearch {
  terms: readonly string[];
  limit: number;
  /** Weight of the context column relative to the body (0 = body only). */
  contextWeight: number;
  /** Row filter (owner scope); rows it rejects are skipped, not counted. */
  visible?: (id: string, owner: string) => boolean;
}

/** A term's bulk postings: entries [from, to) of the arrays. */
export interface TermRange {
  rowids: Int32Array;
  body: Float32Array;
  context: Float32Array;
  from: number;
  to: number;
}

/** What the scoring reads of the index. */
export interface ScoredIndex {
  /** Live documents, and the tokens in all their columns. */
  docCount: number;
  totalLength: number;
  /** By term id: how many live documents hold the term. */
  df: readonly number[];
  /** By rowid: each document's length, and 1 where its bulk postings are stale. */
  lengths: Float64Array;
  staleMask: Uint8Array;
  /** Terms the bulk postings cover (terms met since they were built have none there). */
  postedTerms: number;
  postingsOf(term: number): TermRange;
  /** Live rows changed since the bulk build, scored from their own term lists. */
  fresh: ReadonlySet<number>;
  freshTerms(rowid: number): Terms;
  /** A live document's id and owner, by rowid. */
  idOf(rowid: number): string;
  ownerOf(rowid: number): string;
}

const K1 = 1.2;
const B = 0.75;

/**
 * The best `q.limit` visible rows for the OR of the query's term ids `stems`, best first; ties by
 * insertion order. `acc` is a zeroed score per rowid (at least as long as the rowids), zeroed again on return.
 */
export function scoreBm25(index: ScoredIndex, stems: readonly number[], q: KeywordSearch, acc: Float64Array): KeywordHit[] {
  const n = index.docCount;
  const avg = index.totalLength / n;
  const touched: number[] = [];
  const w = q.contextWeight;
  const lengths = index.lengths;
  const staleMask = index.staleMask;
  const kb = (K1 * B) / avg;
  const k0 = K1 * (1 - B);
  const add = (rowid: number, body: number, context: number, idf: number) => {
    const f = body + w * context;
    if (f <= 0) return;
    if (acc[rowid] === 0) touched.push(rowid);
    acc[rowid]! += (idf * f * (K1 + 1)) / (f + k0 + kb * lengths[rowid]!);
  };
  for (const term of stems) {
    const df = index.df[term] ?? 0;
    if (df === 0) continue;
    let idf = Math.log((n - df + 0.5) / (df + 0.5));
    if (idf <= 0) idf = 1e-6;
    if (term < index.postedTerms) {
      const { rowids, body, context, from, to } = index.postingsOf(term);
      const scale = idf * (K1 + 1);
      for (let i = from; i < to; i++) {
        const rowid = rowids[i]!;
        if (staleMask[rowid] === 1) continue;
        const f = body[i]! + w * context[i]!;
        if (f <= 0) continue;
        if (acc[rowid] === 0) touched.push(rowid);
        acc[rowid]! += (scale * f) / (f + k0 + kb * lengths[rowid]!);
      }
    }
    for (const rowid of index.fresh) {
      const t = index.freshTerms(rowid);
      const j = bisect(t.ids, 0, t.ids.length, term);
      if (j >= 0) add(rowid, t.body[j]!, t.context[j]!, idf);
    }
  }
  // Keep the best `limit` in a bounded min-heap (worst on top): sorting every match would cost
  // more than scoring them when common words match most of the store.
  const heap: number[] = [];
  const worse = (x: number, y: number) => acc[x]! < acc[y]! || (acc[x] === acc[y] && x > y);
  for (const rowid of touched) {
    if (heap.length === q.limit && !worse(heap[0]!, rowid)) continue;
    if (q.visible && !q.visible(index.idOf(rowid), index.ownerOf(rowid))) continue;
    if (heap.length < q.limit) heapPush(heap, rowid, worse);
    else heapReplaceTop(heap, rowid, worse);
  }
  heap.sort((x, y) => (worse(x, y) ? 1 : worse(y, x) ? -1 : 0));
  const hits = heap.map((rowid) => ({ id: index.idOf(rowid), score: acc[rowid]! }));
  for (const rowid of touched) acc[rowid] = 0;
  return hits;
}

function heapPush(heap: number[], x: number, worse: (a: number, b: number) => boolean): void {
  heap.push(x);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!worse(heap[i]!, heap[parent]!)) break;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
}

function heapReplaceTop(heap: number[], x: number, worse: (a: number, b: number) => boolean): void {
  heap[0] = x;
  for (let i = 0; ; ) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
    if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
    if (m === i) return;
    [heap[i], heap[m]] = [heap[m]!, heap[i]!];
    i = m;
  }
}
