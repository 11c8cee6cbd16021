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

export function buildNeighbourGraph(input: NeighbourInput, minCos = 0.8, shouldStop?: () => boolean): NeighbourGraph {
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
  const rowOff = new Int32Array(n + 1);
  const rowRank = new Int32Array(nnz);
  const rowAbs = new Float64Array(nnz);
  // The exact dot runs in dimension order (as cosine32 does), so both give the same bits.
  const rowDim = new Int32Array(nnz);
  const rowVal = new Float64Array(nnz);
  const rowMassBefore = new Float64Array(nnz);
  /** Position (in the row) of the first indexed token: earlier tokens hold < minCos² of the mass. */
  const firstIndexed = new Int32Array(n);
  const startRank = new Int32Array(n);
  const prefixNorm = new Float64Array(n);
  const tmp: number[] = [];
  let p = 0;
  for (let i = 0; i < n; i++) {
    const v = input.vectors[i]!;
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
  // ‖x restricted to ranks < the end of each rank bucket‖: an O(1) upper bound of ‖x_<r‖.
  const BUCKET = 8;
  const nb = Math.ceil(tokens / BUCKET);
  const normTable = new Float32Array(n * nb);
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
      // Rounded up so the float32 table never understates the bound.
      normTable[i * nb + b] = Math.fround(Math.sqrt(mass) * (1 + 1e-6) + 1e-7);
    }
  }
  // Posting lists over indexed tokens only, filled as vectors are processed (a probe sees earlier ones).
  const listLen = new Int32Array(tokens);
  for (let i = 0; i < n; i++) for (let q = rowOff[i]! + firstIndexed[i]!; q < rowOff[i + 1]!; q++) listLen[rowRank[q]!]!++;
  const postOff = new Int32Array(tokens + 1);
  for (let r = 0; r < tokens; r++) postOff[r + 1] = postOff[r]! + listLen[r]!;
  const postFill = postOff.slice(0, tokens);
  const post = new Int32Array(postOff[tokens]!);
  const postAbs = new Float64Array(postOff[tokens]!);

  const acc = new Float64Array(n);
  const touched = new Int32Array(n);
  const dense = new Float64Array(dim);
  let pi = new Int32Array(1 << 16);
  let pj = new Int32Array(1 << 16);
  let pc = new Float32Array(1 << 16);
  let np = 0;
  let bounded = 0;
  let exact = 0;
  let postings = 0;
  for (let i = 0; i < n; i++) {
    if ((i & 1023) === 0 && shouldStop?.()) throw new StopSignal();
    const s = rowOff[i]!;
    const e = rowOff[i + 1]!;
    const fi = s + firstIndexed[i]!;
    let nt = 0;
    // Any pair whose same-sign sum reaches minCos shares a token indexed on both sides.
    for (let q = fi; q < e; q++) {
      const r = rowRank[q]!;
      const w = rowAbs[q]!;
      // Same-sign tokens only: the token rank already encodes the sign.
      postings += postFill[r]! - postOff[r]!;
      for (let k = postOff[r]!, ke = postFill[r]!; k < ke; k++) {
        const j = post[k]!;
        const a = acc[j]!;
        if (a === 0) touched[nt++] = j;
        acc[j] = a + w * postAbs[k]!;
      }
    }
    bounded += nt;
    if (nt > 0) {
      for (let q = s; q < e; q++) dense[rowDim[q]!] = rowVal[q]!;
      const ri = startRank[i]!;
      for (let k = 0; k < nt; k++) {
        const j = touched[k]!;
        // Tokens ranked before the later start contribute at most ‖x_<k‖·‖y_<k‖.
        const rj = startRank[j]!;
        const rest = ri >= rj ? prefixNorm[i]! * normTable[j * nb + ((ri / BUCKET) | 0)]! : prefixNorm[j]! * normTable[i * nb + ((rj / BUCKET) | 0)]!;
        if (acc[j]! + rest >= lo) {
          exact++;
          let dotv = 0;
          for (let q = rowOff[j]!, qe = rowOff[j + 1]!; q < qe; q++) dotv += dense[rowDim[q]!]! * rowVal[q]!;
          const c = Math.fround(dotv);
          if (c >= minCos) {
            if (np === pi.length) {
              pi = grow(pi);
              pj = grow(pj);
              pc = growF(pc);
            }
            pi[np] = i;
            pj[np] = j;
            pc[np] = c;
            np++;
          }
        }
        acc[j] = 0;
      }
      for (let q = s; q < e; q++) dense[rowDim[q]!] = 0;
    }
    for (let q = fi; q < e; q++) {
      const r = rowRank[q]!;
      const at = postFill[r]!++;
      post[at] = i;
      postAbs[at] = rowAbs[q]!;
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

function grow(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

function growF(a: Float32Array<ArrayBuffer>): Float32Array<ArrayBuffer> {
  const b = new Float32Array(a.length * 2);
  b.set(a);
  return b;
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
