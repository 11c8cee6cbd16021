/**
 * The exact neighbour graph reflection needs: for every live vector, every other vector whose
 * cosine is at least `minCos` (0.80, the edge threshold), best first, ties by rowid. merge_duplicates
 * and form_edges only ever look at the first 6 live entries of a `knn(emb, 6)` call, and an entry
 * below 0.80 can never be merged or linked, so "the 6-window restricted to cos ≥ 0.80" equals "the
 * first ≤ 6 still-live entries of this list". Archiving during the pass only removes entries, so the
 * list is computed once and the working view skips archived ids: the same answers as one
 * brute-force knn per memory, without the n² work.
 *
 * How the pairs are found without comparing all of them: an inverted index over (dimension, sign)
 * tokens accumulates, for every earlier vector j, Σ|x_d||y_d| over dimensions where both are non-zero
 * with the same sign. That sum is an upper bound of the cosine (opposite signs only subtract), so a
 * pair whose bound is below `minCos` can be skipped with certainty; the rest get an exact dot product.
 * Cosines are rounded to float32, as the reference's float32 matrix product returns them.
 */
import type { JoinArrays } from './join-kernel.js';
import { defaultWorkers, runJoin } from './join-parallel.js';

export interface NeighbourInput {
  ids: string[];
  /** Tie-break order (rowid); `ids` must be in ascending rowid order. */
  vectors: Float32Array[];
}

export interface NeighbourStats {
  vectors: number;
  /** Pairs whose same-sign bound was accumulated (touched through a shared token). */
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

const SAFETY = 1e-6;

export async function buildNeighbourGraph(input: NeighbourInput, minCos = 0.8, shouldStop?: () => boolean, workers?: number): Promise<NeighbourGraph> {
  const started = performance.now();
  const n = input.ids.length;
  const dim = input.vectors[0]?.length ?? 0;
  const tokens = dim * 2;
  const lo = minCos - SAFETY;
  // Token frequencies decide the global order: most frequent first.
  const df = new Int32Array(tokens);
  const selfCos = new Float32Array(n);
  let nnz = 0;
  for (let i = 0; i < n; i++) {
    const v = input.vectors[i]!;
    let ss = 0;
    for (let d = 0; d < dim; d++) {
      const x = v[d]!;
      if (x === 0) continue;
      df[d * 2 + (x < 0 ? 1 : 0)]!++;
      ss += x * x;
      nnz++;
    }
    selfCos[i] = Math.fround(ss);
  }
  const byFreq = [...df.keys()].sort((a, b) => df[b]! - df[a]! || a - b);
  const rank = new Int32Array(tokens);
  byFreq.forEach((t, r) => (rank[t] = r));
  // Rows with tokens in global order: rank, |value|, dimension, signed value, cumulative mass before.
  const rowOff = shared(Int32Array, n + 1);
  const rowRank = shared(Int32Array, nnz);
  const rowAbs = shared(Float64Array, nnz);
  // The exact dot runs in dimension order (as cosine32 does), so both give the same bits.
  const rowDim = shared(Int32Array, nnz);
  const rowVal = shared(Float64Array, nnz);
  const rowMassBefore = new Float64Array(nnz);
  /** Position (in the row) of the first indexed token: earlier tokens hold < minCos² of the mass. */
  const firstIndexed = shared(Int32Array, n);
  const startRank = shared(Int32Array, n);
  const prefixNorm = shared(Float64Array, n);
  // Rows are laid out in an order that keeps similar vectors together (lexicographic on their
  // tokens, most frequent first), so the accumulator touched by one probe sits in few cache lines.
  // Pairs are mapped back to slots afterwards; ties still break by slot (rowid) order.
  const keys = input.vectors.map((v) => {
    const ks: number[] = [];
    for (let d = 0; d < dim; d++) if (v[d] !== 0) ks.push(rank[d * 2 + (v[d]! < 0 ? 1 : 0)]!);
    return Int32Array.from(ks.sort((a, b) => a - b));
  });
  const perm = Int32Array.from(input.vectors.keys()).sort((a, b) => {
    const x = keys[a]!;
    const y = keys[b]!;
    const m = Math.min(x.length, y.length);
    for (let k = 0; k < m; k++) if (x[k] !== y[k]) return x[k]! - y[k]!;
    return x.length - y.length || a - b;
  });
  const tmp: number[] = [];
  let p = 0;
  for (let i = 0; i < n; i++) {
    const v = input.vectors[perm[i]!]!;
    tmp.length = 0;
    for (let d = 0, q = p; d < dim; d++) {
      if (v[d] === 0) continue;
      tmp.push(d);
      rowDim[q] = d;
      rowVal[q++] = v[d]!;
    }
    tmp.sort((a, b) => rank[a * 2 + (v[a]! < 0 ? 1 : 0)]! - rank[b * 2 + (v[b]! < 0 ? 1 : 0)]!);
    rowOff[i] = p;
    let mass = 0;
    let first = -1;
    for (const d of tmp) {
      const x = v[d]!;
      rowRank[p] = rank[d * 2 + (x < 0 ? 1 : 0)]!;
      rowAbs[p] = Math.abs(x);
      rowMassBefore[p] = mass;
      const next = mass + x * x;
      if (first < 0 && Math.sqrt(next) >= lo) first = p - rowOff[i]!;
      mass = next;
      p++;
    }
    firstIndexed[i] = first < 0 ? tmp.length : first;
    startRank[i] = first < 0 ? tokens : rowRank[rowOff[i]! + first]!;
    prefixNorm[i] = first < 0 ? Math.sqrt(mass) : Math.sqrt(rowMassBefore[rowOff[i]! + first]!);
  }
  rowOff[n] = p;
  // ‖x restricted to ranks < the end of each rank bucket‖, rounded up to 1/255: an O(1) upper bound
  // of ‖x_<r‖ in 32 bytes per vector, small enough to stay in cache when looked up for every pair.
  const BUCKET = Math.max(1, Math.ceil(tokens / 64));
  const nb = Math.ceil(tokens / BUCKET);
  const normTable = shared(Uint8Array, n * nb);
  for (let i = 0; i < n; i++) {
    let q = rowOff[i]!;
    const e = rowOff[i + 1]!;
    let mass = 0;
    for (let b = 0; b < nb; b++) {
      const end = (b + 1) * BUCKET;
      while (q < e && rowRank[q]! < end) {
        mass += rowAbs[q]! * rowAbs[q]!;
        q++;
      }
      normTable[i * nb + b] = Math.min(255, Math.ceil(Math.sqrt(mass) * 255 * (1 + 1e-9) + 1e-9));
    }
  }
  const bucketNorm = shared(Uint8Array, n * nb);
  for (let i = 0; i < n; i++) {
    for (let q = rowOff[i]!; q < rowOff[i + 1]!; q++) {
      const b = (rowRank[q]! / BUCKET) | 0;
      const cell = i * nb + b;
      const prev = bucketNorm[cell]! / 255;
      // Accumulate squared norms through the rounded-up cells: still an upper bound at the end.
      bucketNorm[cell] = Math.min(255, Math.ceil(Math.sqrt(prev * prev + rowAbs[q]! * rowAbs[q]!) * 255 * (1 + 1e-9) + 1e-9));
    }
  }
  // Posting lists over indexed tokens only, each in ascending slot order (a probe stops at its own slot).
  const listLen = new Int32Array(tokens);
  for (let i = 0; i < n; i++) for (let q = rowOff[i]! + firstIndexed[i]!; q < rowOff[i + 1]!; q++) listLen[rowRank[q]!]!++;
  const postOff = shared(Int32Array, tokens + 1);
  for (let r = 0; r < tokens; r++) postOff[r + 1] = postOff[r]! + listLen[r]!;
  const postFill = postOff.slice(0, tokens);
  const post = shared(Int32Array, postOff[tokens]!);
  const postAbs = shared(Float64Array, postOff[tokens]!);

  for (let i = 0; i < n; i++) {
    for (let q = rowOff[i]! + firstIndexed[i]!; q < rowOff[i + 1]!; q++) {
      const at = postFill[rowRank[q]!]!++;
      post[at] = i;
      postAbs[at] = rowAbs[q]!;
    }
  }
  const arrays: JoinArrays = { n, dim, lo, minCos, nb, bucket: BUCKET, rowOff, rowRank, rowAbs, rowDim, rowVal, firstIndexed, startRank, prefixNorm, normTable, bucketNorm, postOff, post, postAbs };
  const parts = await runJoin(arrays, workers ?? defaultWorkers(n), shouldStop);
  if (parts.some((x) => x.stopped)) throw new StopSignal();
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
    for (let k = 0; k < x.np; k++) {
      pi[at] = perm[x.pi[k]!]!;
      pj[at] = perm[x.pj[k]!]!;
      pc[at++] = x.pc[k]!;
    }
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
  const order: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = off[i]!;
    const e = off[i + 1]!;
    if (e - s < 2) continue;
    order.length = 0;
    for (let p = s; p < e; p++) order.push(p);
    order.sort((x, y) => cos[y]! - cos[x]! || nbr[x]! - nbr[y]!);
    const ns = order.map((p) => nbr[p]!);
    const cs = order.map((p) => cos[p]!);
    for (let k = 0; k < ns.length; k++) {
      nbr[s + k] = ns[k]!;
      cos[s + k] = cs[k]!;
    }
  }
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

/** Thrown inside the builder when the stop callback fires; the planner turns it into `interrupted`. */
export class StopSignal extends Error {
  constructor() {
    super('stopped');
  }
}

/** A typed array on shared memory, so worker threads can read it without copies. */
function shared<T extends Int32Array | Float64Array | Uint8Array>(ctor: { new (buf: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number }, length: number): T {
  return new ctor(new SharedArrayBuffer(Math.max(1, length) * ctor.BYTES_PER_ELEMENT));
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
