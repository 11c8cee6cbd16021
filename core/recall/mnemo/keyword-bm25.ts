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
  /** Owner filter (a reader's scope); rows it rejects are skipped, not counted. */
  visible?: (owner: string) => boolean;
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
 * them all was most of a recall's time. So the pruning is MaxScore's, term at a time:
 * 1. Terms are read rarest-bound first into `acc` until the terms left could not together lift a
 *    row the query has not met yet past the `limit`-th best visible row so far (the floor).
 * 2. The rows met that could still make the cut are refined a term at a time: each term left adds
 *    its share to them (a merge of two ascending rowid lists, not a lookup per row), its bound
 *    leaves what they could still gain, the floor rises, and the rows that can no longer reach it
 *    are dropped. What a row could still gain is bounded at its own length (gainByLength). On the
 *    demo store the rows met number 10⁵ and the survivors a few hundred.
 * In 1 and 2 the floor is kept from the best rows so far and the rows the last term lifted above
 * it, never from every row met again: scores only rise, so no other row can join the best.
 * 3. The survivors (and the rows changed since the postings were built) are scored exactly, each
 *    term's share added in the query's order as scoreAllBm25 adds them, so the hits and their scores
 *    are bit for bit scoreAllBm25's (test/unit/keyword-pruning.test.ts compares them on random indexes).
 * A term the query names twice is read once in 1 and 2, its share counted twice.
 */
export function scoreBm25(index: ScoredIndex, stems: readonly number[], q: KeywordSearch, acc: Float64Array, bounds?: TermBounds): KeywordHit[] {
  const plans = termPlans(index, stems, q.contextWeight, bounds);
  // One term, or a context weight the bounds do not cover: nothing to prune.
  if (plans === null || plans.length < 2 || q.limit <= 0) return scoreAllBm25(index, stems, q, acc);
  const order = distinctTerms(plans).sort((a, b) => b.ub - a.ub || a.at - b.at);
  const rows = scratchRows(acc.length);
  let met = 0;
  let rest = order.reduce((sum, p) => sum + p.ub, 0);
  let floor = -Infinity;
  let read = 0;
  // The best rows so far: after a term is read, the new best are among the old best and that
  // term's rows (every other row's score is as it was), so the whole of `met` is not walked again.
  let best: number[] = [];
  // `met` is a run of ascending rowids per term read (each term's postings ascend, and a row joins
  // at the first term that holds it): where each run ends.
  let runs: number[] = [];
  while (read < order.length) {
    const p = order[read++]!;
    const before = met;
    // The rows this term lifts above the floor: the new best are among them and the old best,
    // as scores only rise (a row left at or below the floor cannot lift the limit-th best past it).
    rows.rose = 0;
    met = addPostings(index, p, q.contextWeight, acc, rows.met, met, floor, rows);
    if (met > before) runs.push(met);
    rest -= p.ub;
    if (rows.rose > 0) best = topVisible(index, acc, q, best, rows.above, 0, rows.rose, rows.mark);
    floor = kthOf(best, acc, q);
    // Summed in another order than the exact scores below: a relative margin far above that rounding.
    if (rest < marginBelow(floor)) break;
  }
  if (read === order.length) rest = 0;
  let kept: number;
  const lengths = index.lengths;
  for (let from = rows.met; ; from = rows.kept) {
    // The rows that can still reach the floor, into `kept` (in place after the first time), each run staying ascending.
    // What a row could still gain is bounded at its own length, far below the terms' bounds at their shortest rows.
    const gain = gainByLength(order, read, rows.gain);
    const reach = marginBelow(floor);
    let left = 0;
    let start = 0;
    const runsLeft: number[] = [];
    for (const end of runs) {
      for (let i = start; i < end; i++) {
        const rowid = from[i]!;
        const length = lengths[rowid]!;
        if (acc[rowid]! + gain[length < GAIN_LENGTHS ? length | 0 : GAIN_LENGTHS]! >= reach) rows.kept[left++] = rowid;
      }
      if (runsLeft.length === 0 || left > runsLeft[runsLeft.length - 1]!) runsLeft.push(left);
      start = end;
    }
    runs = runsLeft;
    kept = left;
    if (read === order.length || kept === 0) break;
    const p = order[read++]!;
    start = 0;
    rows.rose = 0;
    for (const end of runs) {
      addShares(index, p, q.contextWeight, acc, rows.kept, start, end, floor, rows);
      start = end;
    }
    rest -= p.ub;
    if (read === order.length) rest = 0;
    // As above: every row of `best` is kept (its score is at least the floor), and only a row this term lifted above the floor can join it.
    if (rows.rose > 0) best = topVisible(index, acc, q, best, rows.above, 0, rows.rose, rows.mark);
    floor = Math.max(floor, kthOf(best, acc, q));
  }
  for (let i = 0; i < met; i++) acc[rows.met[i]!] = 0;
  // A row the scope hides never makes the cut: left out here, not scored.
  const shown = (rowid: number) => {
    return !q.visible || q.visible(index.ownerOf(rowid));
  };
  const candidates: number[] = [];
  for (let i = 0; i < kept; i++) if (shown(rows.kept[i]!)) candidates.push(rows.kept[i]!);
  // Rows changed since the postings were built are stale there, so never met above.
  for (const rowid of index.fresh) if (shown(rowid)) candidates.push(rowid);
  // The exact scores, as scoreAllBm25 sums them: term by term in the query's order, bulk then fresh.
  const ranges = plans.map((p) => (p.term < index.postedTerms ? index.postingsOf(p.term) : null));
  const scored: number[] = [];
  for (const rowid of candidates) {
    const score = exactScore(index, plans, ranges, q.contextWeight, rowid);
    if (score === 0) continue;
    acc[rowid] = score;
    scored.push(rowid);
  }
  return topHits(index, scored, scored.length, q, acc);
}

/** Row lengths gainByLength tells apart; a longer row is bounded as one of this length (a bound: the gain falls as the length grows). */
const GAIN_LENGTHS = 256;

/**
 * By row length (0 to GAIN_LENGTHS): the most the terms `order[read..]` could add to a row of that
 * length. A term's share is largest at its largest weighted frequency, and falls as the row's
 * length grows (f / (f + k0 + kb·len)); fractional lengths are bounded by the length below them.
 */
function gainByLength(order: readonly TermPlan[], read: number, into: Float64Array): Float64Array {
  for (let len = 0; len <= GAIN_LENGTHS; len++) {
    let gain = 0;
    for (let k = read; k < order.length; k++) {
      const p = order[k]!;
      if (p.fmax > 0) gain += ((p.scale * p.fmax) / (p.fmax + p.k0 + p.avgKb * len)) * (1 + 1e-9);
    }
    into[len] = gain;
  }
  return into;
}

/** Just below `floor`: what a bound must reach, given that sums in other orders round differently. */
function marginBelow(floor: number): number {
  return floor * (1 - 1e-9) - 1e-12;
}

/** The query's terms once each, a repeated term's share and bound counted as often as it is named. */
function distinctTerms(plans: readonly TermPlan[]): TermPlan[] {
  const byTerm = new Map<number, TermPlan>();
  for (const p of plans) {
    const seen = byTerm.get(p.term);
    if (seen) byTerm.set(p.term, { ...seen, scale: seen.scale + p.scale, ub: seen.ub + p.ub });
    else byTerm.set(p.term, p);
  }
  return [...byTerm.values()];
}

/**
 * The rows a query met and the rows it keeps, by rowid: reused from query to query (a recall at a
 * million memories meets 10⁵ rows, and arrays grown row by row made garbage of them each time).
 * Safe to share: scoring is synchronous and never re-entered.
 */
let scratch: ScratchRows = { met: new Int32Array(0), kept: new Int32Array(0), above: new Int32Array(0), rose: 0, mark: new Uint8Array(0), gain: new Float64Array(GAIN_LENGTHS + 1) };
function scratchRows(rows: number): ScratchRows {
  if (scratch.met.length < rows) scratch = { met: new Int32Array(rows), kept: new Int32Array(rows), above: new Int32Array(rows), rose: 0, mark: new Uint8Array(rows), gain: scratch.gain };
  return scratch;
}

interface ScratchRows {
  /** The rows met so far, in the order met. */
  met: Int32Array;
  /** The rows kept for refining. */
  kept: Int32Array;
  /** The rows the last term read lifted above the floor: `rose` of them. */
  above: Int32Array;
  rose: number;
  mark: Uint8Array;
  /** gainByLength's table. */
  gain: Float64Array;
}

/**
 * A term's share added to each of `rows[from, to)` (ascending) that its bulk postings hold: the
 * two ascending lists merged, galloping through the postings where the rows are sparse. Each row
 * whose score ends above `floor` is appended to `rose.above`.
 */
function addShares(index: ScoredIndex, p: TermPlan, w: number, acc: Float64Array, rows: Int32Array, from: number, to: number, floor: number, rose: { above: Int32Array; rose: number }): void {
  if (p.term >= index.postedTerms) return;
  const { rowids, body, context, from: first, to: end } = index.postingsOf(p.term);
  const { scale, k0, avgKb: kb } = p;
  const lengths = index.lengths;
  let i = first;
  for (let j = from; j < to && i < end; j++) {
    const rowid = rows[j]!;
    if (rowids[i]! < rowid) {
      // Gallop: rowids[lo] < rowid, and rowids[hi] ≥ rowid or hi = end.
      let lo = i;
      let step = 1;
      let hi = i + 1;
      while (hi < end && rowids[hi]! < rowid) {
        lo = hi;
        step *= 2;
        hi = Math.min(end, lo + step);
      }
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (rowids[mid]! < rowid) lo = mid;
        else hi = mid;
      }
      i = hi;
    }
    if (i < end && rowids[i] === rowid) {
      const f = body[i]! + w * context[i]!;
      if (f > 0 && (acc[rowid]! += (scale * f) / (f + k0 + kb * lengths[rowid]!)) > floor) rose.above[rose.rose++] = rowid;
    }
  }
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
  /** The largest weighted frequency among the term's bulk postings (0: it has none). */
  fmax: number;
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
    let fmax = 0;
    if (term < index.postedTerms) {
      const b = bounds.of(index, term);
      const f = b.body + w * b.context;
      // f / (f + k0 + kb·len) grows with f and shrinks with len; doubled against rounding.
      ub = f > 0 ? ((scale * f) / (f + k0 + kb * b.length)) * (1 + 1e-9) : 0;
      fmax = Math.max(0, f);
    }
    plans.push({ at, term, idf, scale, ub, fmax, avgKb: kb, k0 });
  });
  return plans;
}

/**
 * One term's bulk postings added to `acc` (scoreAllBm25's loop, for this term alone); each row met
 * for the first time is written at `met[count]`, and each row whose score ends above `floor` is
 * appended to `rose.above`. Returns the new count.
 */
function addPostings(index: ScoredIndex, p: Pick<TermPlan, 'term' | 'scale' | 'k0' | 'avgKb'>, w: number, acc: Float64Array, met: Int32Array, count: number, floor: number, rose: { above: Int32Array; rose: number }): number {
  if (p.term >= index.postedTerms) return count;
  const { rowids, body, context, from, to } = index.postingsOf(p.term);
  const { scale, k0, avgKb: kb } = p;
  const lengths = index.lengths;
  const staleMask = index.staleMask;
  for (let i = from; i < to; i++) {
    const rowid = rowids[i]!;
    if (staleMask[rowid] === 1) continue;
    const f = body[i]! + w * context[i]!;
    if (f <= 0) continue;
    if (acc[rowid] === 0) met[count++] = rowid;
    const score = (acc[rowid]! += (scale * f) / (f + k0 + kb * lengths[rowid]!));
    if (score > floor) rose.above[rose.rose++] = rowid;
  }
  return count;
}

/**
 * The best `q.limit` visible rows by `acc` among `others` and `rows[from, to)`, as a min-heap
 * (its top is the `q.limit`-th best). Rows `acc` has not met are passed over. A row of `others`
 * that `rows` also holds is counted once (`mark` is a zeroed byte per rowid, zeroed again on return).
 */
function topVisible(index: ScoredIndex, acc: Float64Array, q: KeywordSearch, others: readonly number[], rows: Int32Array, from: number, to: number, mark: Uint8Array): number[] {
  const heap: number[] = [];
  const lower = (x: number, y: number) => acc[x]! < acc[y]!;
  const offer = (rowid: number) => {
    if (acc[rowid] === 0 || (heap.length === q.limit && acc[rowid]! <= acc[heap[0]!]!)) return;
    if (q.visible && !q.visible(index.ownerOf(rowid))) return;
    if (heap.length < q.limit) heapPush(heap, rowid, lower);
    else heapReplaceTop(heap, rowid, lower);
  };
  for (const rowid of others) mark[rowid] = 1;
  for (const rowid of others) offer(rowid);
  for (let i = from; i < to; i++) if (mark[rows[i]!] === 0) offer(rows[i]!);
  for (const rowid of others) mark[rowid] = 0;
  return heap;
}

/** The `q.limit`-th best score of a topVisible heap (−Infinity while it holds fewer). */
function kthOf(heap: readonly number[], acc: Float64Array, q: KeywordSearch): number {
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

/** The best `q.limit` visible rows of `rows[0, count)` by `acc`, best first (ties: the older row); `acc` zeroed for them after. */
function topHits(index: ScoredIndex, rows: ArrayLike<number>, count: number, q: KeywordSearch, acc: Float64Array): KeywordHit[] {
  const heap: number[] = [];
  const worse = (x: number, y: number) => acc[x]! < acc[y]! || (acc[x] === acc[y] && x > y);
  for (let i = 0; i < count; i++) {
    const rowid = rows[i]!;
    if (heap.length === q.limit && !worse(heap[0]!, rowid)) continue;
    if (q.visible && !q.visible(index.ownerOf(rowid))) continue;
    if (heap.length < q.limit) heapPush(heap, rowid, worse);
    else heapReplaceTop(heap, rowid, worse);
  }
  heap.sort((x, y) => (worse(x, y) ? 1 : worse(y, x) ? -1 : 0));
  const hits = heap.map((rowid) => ({ id: index.idOf(rowid), score: acc[rowid]! }));
  for (let i = 0; i < count; i++) acc[rows[i]!] = 0;
  return hits;
}

/** What addPostings appends rows above an infinite floor to: none ever are. */
const NONE_ROSE = { above: new Int32Array(0), rose: 0 };

/** Every posting of every term scored: the definition scoreBm25 prunes (and what it falls back on). */
export function scoreAllBm25(index: ScoredIndex, stems: readonly number[], q: KeywordSearch, acc: Float64Array): KeywordHit[] {
  const n = index.docCount;
  const avg = index.totalLength / n;
  const met = scratchRows(acc.length).met;
  let count = 0;
  const w = q.contextWeight;
  const lengths = index.lengths;
  const kb = (K1 * B) / avg;
  const k0 = K1 * (1 - B);
  const add = (rowid: number, body: number, context: number, idf: number) => {
    const f = body + w * context;
    if (f <= 0) return;
    if (acc[rowid] === 0) met[count++] = rowid;
    acc[rowid]! += (idf * f * (K1 + 1)) / (f + k0 + kb * lengths[rowid]!);
  };
  for (const term of stems) {
    const df = index.df[term] ?? 0;
    if (df === 0) continue;
    let idf = Math.log((n - df + 0.5) / (df + 0.5));
    if (idf <= 0) idf = 1e-6;
    count = addPostings(index, { term, scale: idf * (K1 + 1), k0, avgKb: kb }, w, acc, met, count, Infinity, NONE_ROSE);
    for (const rowid of index.fresh) {
      const t = index.freshTerms(rowid);
      const j = bisect(t.ids, 0, t.ids.length, term);
      if (j >= 0) add(rowid, t.body[j]!, t.context[j]!, idf);
    }
  }
  // The best `limit` through a bounded min-heap (topHits): sorting every match would cost more
  // than scoring them when common words match most of the store.
  return topHits(index, met, count, q, acc);
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
