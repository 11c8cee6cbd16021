/**
 * The exact neighbour graph reflection needs: for every live vector, every other vector whose
 * cosine is at least `minCos` (0.80, the edge threshold), best first, ties by rowid. merge_duplicates
 * and form_edges only ever look at the first 6 live entries of a `knn(emb, 6)` call, and an entry
 * below 0.80 can never be merged or linked, so "the 6-window restricted to cos ≥ 0.80" equals "the
 * first ≤ 6 still-live entries of this list". Archiving during the pass only removes entries, so the
 * list is computed once and the working view skips archived ids: the same answers as one
 * brute-force knn per memory, without the n² work.
 *
 * How the pairs are found without comparing all of them (join-layout.ts has the details): every
 * row indexes its rarest (dimension, sign) tokens, as many as a pair reaching `minCos` could have
 * its first shared token among (a Cauchy–Schwarz bound on the ranks below it); a row probes the
 * lists of those tokens for earlier rows, stopping where the bound falls under the threshold; each
 * pair met is checked against a bound from 256-bit sketches of both rows (the shared bins and the
 * largest bin masses), and the few left get an exact dot product. Every filter only discards
 * pairs that cannot reach `minCos`, so the lists equal brute force. The inner loop is WebAssembly
 * (join-kernel.wat) for its 64-bit popcount and predictable cost; it runs on worker threads over
 * one shared memory for large stores.
 * Cosines are rounded to float32, as the reference's float32 matrix product returns them.
 */
import { buildJoinLayout, DEFAULT_GROUP_SIZE } from './join-layout.js';
import { defaultWorkers, runJoin } from './join-parallel.js';

export interface NeighbourInput {
  ids: string[];
  /** Tie-break order (rowid); `ids` must be in ascending rowid order. */
  vectors: Float32Array[];
}

export interface NeighbourStats {
  vectors: number;
  /** Pairs met in the index (an earlier row in a scanned posting) whose sketch bound was computed. */
  pairs_bounded: number;
  /** Posting entries visited (the index's unit of work). */
  postings: number;
  /** Pairs that passed the bound and got an exact dot product. */
  pairs_exact: number;
  /** Pairs at or above minCos. */
  pairs_kept: number;
  /** n·(n−1)/2: what comparing everything with everything costs. */
  pairs_all: number;
  ms: number;
}

export class NeighbourGraph {
  /** CSR: neighbours of slot i are nbr[off[i] .. off[i+1]), best first; self included. */
  constructor(
    readonly ids: string[],
    readonly off: Int32Array,
    readonly nbr: Int32Array,
    readonly cos: Float32Array,
    readonly stats: NeighbourStats,
  ) {}

  slotOf(): Map<string, number> {
    const m = new Map<string, number>();
    this.ids.forEach((id, i) => m.set(id, i));
    return m;
  }
}

export interface NeighbourOptions {
  workers?: number;
  /** Slots per posting group (tests use small groups to cross group boundaries). */
  groupSize?: number;
  /** Row probes done of the total, every 50 ms while worker threads run (see runJoin). */
  onProgress?: (done: number, total: number) => void;
}

export async function buildNeighbourGraph(input: NeighbourInput, minCos = 0.8, shouldStop?: () => boolean, options: number | NeighbourOptions = {}): Promise<NeighbourGraph> {
  const started = performance.now();
  const opts = typeof options === 'number' ? { workers: options } : options;
  const n = input.ids.length;
  const workers = opts.workers ?? defaultWorkers(n);
  const { layout, selfCos, irregular } = buildJoinLayout(input.vectors, minCos, workers, opts.groupSize ?? DEFAULT_GROUP_SIZE);
  const parts = n === 0 ? [] : await runJoin(layout, workers, shouldStop, opts.onProgress);
  if (parts.some((x) => x.stopped)) throw new StopSignal();
  // A row with a non-finite component has no neighbours, not even itself: numpy's float32 product
  // (the reference's knn) turns such a row's every cosine into NaN (NaN · 0 is NaN there).
  for (const i of irregular) selfCos[i] = Number.NaN;
  let np = 0;
  let bounded = 0;
  let exact = 0;
  let postings = 0;
  for (const x of parts) {
    np += x.np;
    bounded += x.bounded;
    exact += x.exact;
    postings += x.postings;
  }
  const pi = new Int32Array(np);
  const pj = new Int32Array(np);
  const pc = new Float32Array(np);
  let at = 0;
  for (const x of parts) {
    pi.set(x.pi.subarray(0, x.np), at);
    pj.set(x.pj.subarray(0, x.np), at);
    pc.set(x.pc.subarray(0, x.np), at);
    at += x.np;
  }

  // CSR of both directions plus self, each list sorted best first, ties by rowid (slot order).
  const deg = new Int32Array(n);
  for (let k = 0; k < np; k++) {
    deg[pi[k]!]!++;
    deg[pj[k]!]!++;
  }
  for (let i = 0; i < n; i++) if (selfCos[i]! >= minCos) deg[i]!++;
  const off = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) off[i + 1] = off[i]! + deg[i]!;
  const nbr = new Int32Array(off[n]!);
  const cos = new Float32Array(off[n]!);
  const fill = off.slice(0, n);
  for (let i = 0; i < n; i++) {
    if (selfCos[i]! >= minCos) {
      nbr[fill[i]!] = i;
      cos[fill[i]!++] = selfCos[i]!;
    }
  }
  for (let k = 0; k < np; k++) {
    const a = pi[k]!;
    const b = pj[k]!;
    nbr[fill[a]!] = b;
    cos[fill[a]!++] = pc[k]!;
    nbr[fill[b]!] = a;
    cos[fill[b]!++] = pc[k]!;
  }
  sortRows(off, nbr, cos);
  const stats: NeighbourStats = {
    vectors: n,
    postings,
    pairs_bounded: bounded,
    pairs_exact: exact,
    pairs_kept: np,
    pairs_all: (n * (n - 1)) / 2,
    ms: performance.now() - started,
  };
  return new NeighbourGraph(input.ids, off, nbr, cos, stats);
}

/**
 * Sorts every CSR row best first, ties by slot. Each entry becomes one float64 key: the float32
 * cosine's bits mapped to an integer that grows as the cosine falls, times 2^21, plus the slot. A
 * native numeric sort of the row then needs no comparator (exact while slots stay below 2^21;
 * larger stores take the comparator).
 */
function sortRows(off: Int32Array, nbr: Int32Array, cos: Float32Array): void {
  const n = off.length - 1;
  const bits = new Uint32Array(cos.buffer, cos.byteOffset, cos.length);
  const SLOT = 2 ** 21;
  let longest = 0;
  for (let i = 0; i < n; i++) longest = Math.max(longest, off[i + 1]! - off[i]!);
  const keys = new Float64Array(longest);
  for (let i = 0; i < n; i++) {
    const s = off[i]!;
    const e = off[i + 1]!;
    if (e - s < 2) continue;
    if (n >= SLOT) {
      const order = Array.from({ length: e - s }, (_, k) => s + k).sort((x, y) => cos[y]! - cos[x]! || nbr[x]! - nbr[y]!);
      const ns = order.map((q) => nbr[q]!);
      const cs = order.map((q) => cos[q]!);
      nbr.set(ns, s);
      cos.set(cs, s);
      continue;
    }
    const row = keys.subarray(0, e - s);
    for (let q = s; q < e; q++) {
      const b = bits[q]!;
      // Monotone in the float's value, then reversed.
      const up = b & 0x80000000 ? ~b >>> 0 : (b | 0x80000000) >>> 0;
      row[q - s] = (0xffffffff - up) * SLOT + nbr[q]!;
    }
    row.sort();
    for (let q = s; q < e; q++) {
      const key = row[q - s]!;
      const slot = key % SLOT;
      const up = 0xffffffff - (key - slot) / SLOT;
      nbr[q] = slot;
      bits[q] = up & 0x80000000 ? (up & 0x7fffffff) >>> 0 : ~up >>> 0;
    }
  }
}

/** Thrown inside the builder when the stop callback fires; the planner turns it into `interrupted`. */
export class StopSignal extends Error {
  constructor() {
    super('stopped');
  }
}

/** Float32-rounded cosine of two stored vectors, computed the way the graph computes it. */
export function cosine32(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let d = 0; d < a.length; d++) {
    const x = a[d]!;
    if (x !== 0) s += x * b[d]!;
  }
  return Math.fround(s);
}
