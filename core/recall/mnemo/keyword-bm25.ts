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
 *
 * At a million memories a common term's postings are hundreds of thousands of rows, and scoring
 * them all was most of a recall's time. So the terms are read rarest-bound first, and once the
 * terms left could not together lift a row the query has not met yet past the `limit`-th best
 * visible row so far, their postings are no longer read (dynamic pruning: MaxScore, term at a
 * time). The rows that could still make the cut are then scored exactly, each term's share added
 * in the query's order as scoreAllBm25 adds them, so the hits and their scores are bit for bit
 * scoreAllBm25's (test/unit/keyword-pruning.test.ts compares them on random indexes).
 */
export function scoreBm25(index: ScoredIndex, stems: readonly number[], q: KeywordSearch, acc: Float64Array, bounds?: TermBounds): KeywordHit[] {
  const plans = termPlans(index, stems, q.contextWeight, bounds);
  // One term, or a context weight the bounds do not cover: nothing to prune.
  if (plans === null || plans.length < 2 || q.limit <= 0) return scoreAllBm25(index, stems, q, acc);
  const order = [...plans].sort((a, b) => b.ub - a.ub || a.at - b.at);
  const touched: number[] = [];
  let rest = order.reduce((sum, p) => sum + p.ub, 0);
  let floor = -Infinity;
  let read = 0;
  for (; read < order.length; read++) {
    const p = order[read]!;
    addPostings(index, p, q.contextWeight, acc, touched);
    rest -= p.ub;
    if (read + 1 === order.length) break;
    floor = kthVisible(index, touched, acc, q);
    // Summed in another order than the exact scores below: a relative margin far above that rounding.
    if (rest < floor * (1 - 1e-9) - 1e-12) {
      read++;
      break;
    }
  }
  if (read === order.length) {
    rest = 0;
    floor = kthVisible(index, touched, acc, q);
  }
  const margin = floor * (1 - 1e-9) - 1e-12;
  // A row the scope hides never makes the cut: left out here, not scored.
  const shown = (rowid: number) => {
    return !q.visible || q.visible(index.idOf(rowid), index.ownerOf(rowid));
  };
  const candidates = new Set<number>();
  for (const rowid of touched) if (acc[rowid]! + rest >= margin && shown(rowid)) candidates.add(rowid);
  for (const rowid of touched) acc[rowid] = 0;
  for (const rowid of index.fresh) if (shown(rowid)) candidates.add(rowid);
  // The exact scores, as scoreAllBm25 sums them: term by term in the query's order, bulk then fresh.
  // Each term's postings are looked up once here, not once per candidate: thousands of candidates
  // a query, each asking for every term, made that lookup most of a recall's time.
  const ranges = plans.map((p) => (p.term < index.postedTerms ? index.postingsOf(p.term) : null));
  const scored: number[] = [];
  for (const rowid of candidates) {
    const score = exactScore(index, plans, ranges, q.contextWeight, rowid);
    if (score === 0) continue;
    acc[rowid] = score;
    scored.push(rowid);
  }
  return topHits(index, scored, q, acc);
}

/** The score bound of one term of a query, and what scoring it reads. */
interface TermPlan {
  /** The term's place in the query (the order the exact score adds it in). */
  at: number;
  term: number;
  idf: number;
  /** idf · (K1 + 1), as the bulk loop multiplies. */
  scale: number;
  /** No row's share of this term exceeds it (the postings' largest frequency over their shortest row). */
  ub: number;
  avgKb: number;
  k0: number;
}

/**
 * Per term of the bulk postings, what its bound reads: the largest body and context frequency and
 * the shortest row among its postings (rows changed since are stale there, and scored apart).
 * Kept by the index for the life of its postings (KeywordIndex.bounds), computed on first use.
 */
export class TermBounds {
  private readonly maxBody = new Map<number, number>();
  private readonly maxContext = new Map<number, number>();
  private readonly minLength = new Map<number, number>();

  of(index: ScoredIndex, term: number): { body: number; context: number; length: number } {
    let body = this.maxBody.get(term);
    if (body === undefined) {
      const { rowids, body: b, context: c, from, to } = index.postingsOf(term);
      let mb = 0;
      let mc = 0;
      let ml = Infinity;
      for (let i = from; i < to; i++) {
        if (b[i]! > mb) mb = b[i]!;
        if (c[i]! > mc) mc = c[i]!;
        const len = index.lengths[rowids[i]!]!;
        if (len < ml) ml = len;
      }
      this.maxBody.set(term, (body = mb));
      this.maxContext.set(term, mc);
      this.minLength.set(term, ml);
    }
    return { body, context: this.maxContext.get(term)!, length: this.minLength.get(term)! };
  }
}

/** The query's scored terms with their bounds; null when a bound cannot be had (a negative context weight). */
function termPlans(index: ScoredIndex, stems: readonly number[], w: number, bounds: TermBounds | undefined): TermPlan[] | null {
  if (!bounds || !(w >= 0)) return null;
  const n = index.docCount;
  const avg = index.totalLength / n;
  const kb = (K1 * B) / avg;
  const k0 = K1 * (1 - B);
  const plans: TermPlan[] = [];
  stems.forEach((term, at) => {
    const df = index.df[term] ?? 0;
    if (df === 0) return;
    let idf = Math.log((n - df + 0.5) / (df + 0.5));
    if (idf <= 0) idf = 1e-6;
    const scale = idf * (K1 + 1);
    let ub = 0;
    if (term < index.postedTerms) {
      const b = bounds.of(index, term);
      const f = b.body + w * b.context;
      // f / (f + k0 + kb·len) grows with f and shrinks with len; doubled against rounding.
      ub = f > 0 ? ((scale * f) / (f + k0 + kb * b.length)) * (1 + 1e-9) : 0;
    }
    plans.push({ at, term, idf, scale, ub, avgKb: kb, k0 });
  });
  return plans;
}

/** One term's bulk postings added to `acc` (scoreAllBm25's loop, for this term alone). */
function addPostings(index: ScoredIndex, p: Pick<TermPlan, 'term' | 'scale' | 'k0' | 'avgKb'>, w: number, acc: Float64Array, touched: number[]): void {
  if (p.term >= index.postedTerms) return;
  const { rowids, body, context, from, to } = index.postingsOf(p.term);
  const { scale, k0, avgKb: kb } = p;
  const lengths = index.lengths;
  const staleMask = index.staleMask;
  for (let i = from; i < to; i++) {
    const rowid = rowids[i]!;
    if (staleMask[rowid] === 1) continue;
    const f = body[i]! + w * context[i]!;
    if (f <= 0) continue;
    if (acc[rowid] === 0) touched.push(rowid);
    acc[rowid]! += (scale * f) / (f + k0 + kb * lengths[rowid]!);
  }
}

/** The `q.limit`-th best visible score among `rows` (−Infinity while fewer are visible). */
function kthVisible(index: ScoredIndex, rows: readonly number[], acc: Float64Array, q: KeywordSearch): number {
  const heap: number[] = [];
  const lower = (x: number, y: number) => acc[x]! < acc[y]!;
  for (const rowid of rows) {
    if (heap.length === q.limit && acc[rowid]! <= acc[heap[0]!]!) continue;
    if (q.visible && !q.visible(index.idOf(rowid), index.ownerOf(rowid))) continue;
    if (heap.length < q.limit) heapPush(heap, rowid, lower);
    else heapReplaceTop(heap, rowid, lower);
  }
  return heap.length < q.limit ? -Infinity : acc[heap[0]!]!;
}

/**
 * A row's score as scoreAllBm25 sums it: each term in the query's order, its bulk share (unless
 * stale), then its own list's (a fresh row). `ranges[k]` is plans[k]'s bulk postings (null: none).
 */
function exactScore(index: ScoredIndex, plans: readonly TermPlan[], ranges: readonly (TermRange | null)[], w: number, rowid: number): number {
  let score = 0;
  const fresh = index.fresh.has(rowid);
  const stale = index.staleMask[rowid] === 1;
  for (let k = 0; k < plans.length; k++) {
    const p = plans[k]!;
    const range = ranges[k];
    if (range && !stale) {
      const { rowids, body, context, from, to } = range;
      const i = bisect(rowids, from, to, rowid);
      if (i >= 0) {
        const f = body[i]! + w * context[i]!;
        if (f > 0) score += (p.scale * f) / (f + p.k0 + p.avgKb * index.lengths[rowid]!);
      }
    }
    if (fresh) {
      const t = index.freshTerms(rowid);
      const j = bisect(t.ids, 0, t.ids.length, p.term);
      if (j >= 0) {
        const f = t.body[j]! + w * t.context[j]!;
        if (f > 0) score += (p.idf * f * (K1 + 1)) / (f + p.k0 + p.avgKb * index.lengths[rowid]!);
      }
    }
  }
  return score;
}

/** The best `q.limit` visible rows of `rows` by `acc`, best first (ties: the older row); `acc` zeroed for them after. */
function topHits(index: ScoredIndex, rows: readonly number[], q: KeywordSearch, acc: Float64Array): KeywordHit[] {
  const heap: number[] = [];
  const worse = (x: number, y: number) => acc[x]! < acc[y]! || (acc[x] === acc[y] && x > y);
  for (const rowid of rows) {
    if (heap.length === q.limit && !worse(heap[0]!, rowid)) continue;
    if (q.visible && !q.visible(index.idOf(rowid), index.ownerOf(rowid))) continue;
    if (heap.length < q.limit) heapPush(heap, rowid, worse);
    else heapReplaceTop(heap, rowid, worse);
  }
  heap.sort((x, y) => (worse(x, y) ? 1 : worse(y, x) ? -1 : 0));
  const hits = heap.map((rowid) => ({ id: index.idOf(rowid), score: acc[rowid]! }));
  for (const rowid of rows) acc[rowid] = 0;
  return hits;
}

/** Every posting of every term scored: the definition scoreBm25 prunes (and what it falls back on). */
export function scoreAllBm25(index: ScoredIndex, stems: readonly number[], q: KeywordSearch, acc: Float64Array): KeywordHit[] {
  const n = index.docCount;
  const avg = index.totalLength / n;
  const touched: number[] = [];
  const w = q.contextWeight;
  const lengths = index.lengths;
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
    addPostings(index, { term, scale: idf * (K1 + 1), k0, avgKb: kb }, w, acc, touched);
    for (const rowid of index.fresh) {
      const t = index.freshTerms(rowid);
      const j = bisect(t.ids, 0, t.ids.length, term);
      if (j >= 0) add(rowid, t.body[j]!, t.context[j]!, idf);
    }
  }
  // The best `limit` through a bounded min-heap (topHits): sorting every match would cost more
  // than scoring them when common words match most of the store.
  return topHits(index, touched, q, acc);
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
