/**
 * The inner join of the neighbour graph: for every vector i (of those this worker owns), probe the
 * posting lists of its indexed tokens for earlier vectors j, accumulate the same-sign bound, and
 * compute an exact dot product only where the bound can still reach the threshold.
 *
 * This function is self-contained on purpose (no imports, no helpers, no closures): worker threads
 * run it from its own source text, so the single-threaded and parallel joins are the same code.
 */

export interface JoinArrays {
  n: number;
  dim: number;
  lo: number;
  minCos: number;
  nb: number;
  bucket: number;
  rowOff: Int32Array;
  rowRank: Int32Array;
  rowAbs: Float64Array;
  rowDim: Int32Array;
  rowVal: Float64Array;
  firstIndexed: Int32Array;
  startRank: Int32Array;
  prefixNorm: Float64Array;
  normTable: Uint8Array;
  /** ‖x restricted to each rank bucket‖, rounded up to 1/255 (same buckets as normTable). */
  bucketNorm: Uint8Array;
  /** Full posting lists per token rank, each in ascending slot order. */
  postOff: Int32Array;
  post: Int32Array;
  postAbs: Float64Array;
}

export interface JoinOutput {
  pi: Int32Array;
  pj: Int32Array;
  pc: Float32Array;
  np: number;
  bounded: number;
  exact: number;
  postings: number;
  stopped: boolean;
}

/** Processes i = offset, offset + stride, …; `stop[0] !== 0` ends it early (checked every 1024 rows). */
export function joinKernel(a: JoinArrays, offset: number, stride: number, stop: Int32Array): JoinOutput {
  const n = a.n;
  const lo = a.lo;
  const minCos = a.minCos;
  const nb = a.nb;
  const bucket = a.bucket;
  const rowOff = a.rowOff;
  const rowRank = a.rowRank;
  const rowAbs = a.rowAbs;
  const rowDim = a.rowDim;
  const rowVal = a.rowVal;
  const firstIndexed = a.firstIndexed;
  const startRank = a.startRank;
  const prefixNorm = a.prefixNorm;
  const normTable = a.normTable;
  const bucketNorm = a.bucketNorm;
  const postOff = a.postOff;
  const post = a.post;
  const postAbs = a.postAbs;
  const acc = new Float64Array(n);
  const touched = new Int32Array(n);
  const dense = new Float64Array(a.dim);
  let pi = new Int32Array(1 << 14);
  let pj = new Int32Array(1 << 14);
  let pc = new Float32Array(1 << 14);
  let np = 0;
  let bounded = 0;
  let exact = 0;
  let postings = 0;
  let rows = 0;
  for (let i = offset; i < n; i += stride) {
    if ((rows++ & 1023) === 0 && stop[0]! !== 0) return { pi, pj, pc, np, bounded, exact, postings, stopped: true };
    const s = rowOff[i]!;
    const e = rowOff[i + 1]!;
    let nt = 0;
    // Any pair whose same-sign sum reaches the threshold shares a token indexed on both sides;
    // the token rank encodes the sign, so only same-sign products are accumulated.
    for (let q = s + firstIndexed[i]!; q < e; q++) {
      const r = rowRank[q]!;
      const w = rowAbs[q]!;
      const ke = postOff[r + 1]!;
      let k = postOff[r]!;
      for (; k < ke; k++) {
        const j = post[k]!;
        if (j >= i) break;
        const v = acc[j]!;
        if (v === 0) touched[nt++] = j;
        acc[j] = v + w * postAbs[k]!;
      }
      postings += k - postOff[r]!;
    }
    bounded += nt;
    if (nt === 0) continue;
    for (let q = s; q < e; q++) dense[rowDim[q]!] = rowVal[q]!;
    const ri = startRank[i]!;
    const riBucket = (ri / bucket) | 0;
    for (let t = 0; t < nt; t++) {
      const j = touched[t]!;
      const v = acc[j]!;
      acc[j] = 0;
      // Tokens ranked before the later start contribute at most ‖x_<k‖·‖y_<k‖: a cheap test with
      // the other side's norm taken as 1, then the per-bucket table.
      const rj = startRank[j]!;
      if (v + (ri >= rj ? prefixNorm[i]! : prefixNorm[j]!) < lo) continue;
      const rest = (ri >= rj ? prefixNorm[i]! * normTable[j * nb + riBucket]! : prefixNorm[j]! * normTable[i * nb + ((rj / bucket) | 0)]!) / 255;
      if (v + rest < lo) continue;
      // Tighter, still cheap: below the later start, Σ|x_t||y_t| ≤ Σ over rank buckets of ‖x_b‖·‖y_b‖
      // (the bucket holding the start is counted whole, which only loosens the bound).
      const kb = ((ri >= rj ? ri : rj) / bucket) | 0;
      const need = (lo - v) * 65025;
      let sb = 0;
      for (let b = 0, bi = i * nb, bj = j * nb, be = kb < nb ? kb : nb - 1; b <= be && sb < need; b++) sb += bucketNorm[bi + b]! * bucketNorm[bj + b]!;
      if (sb < need) continue;
      exact++;
      let dot = 0;
      for (let q = rowOff[j]!, qe = rowOff[j + 1]!; q < qe; q++) dot += dense[rowDim[q]!]! * rowVal[q]!;
      const c = Math.fround(dot);
      if (c < minCos) continue;
      if (np === pi.length) {
        const pi2 = new Int32Array(pi.length * 2);
        pi2.set(pi);
        pi = pi2;
        const pj2 = new Int32Array(pj.length * 2);
        pj2.set(pj);
        pj = pj2;
        const pc2 = new Float32Array(pc.length * 2);
        pc2.set(pc);
        pc = pc2;
      }
      pi[np] = i;
      pj[np] = j;
      pc[np] = c;
      np++;
    }
    for (let q = s; q < e; q++) dense[rowDim[q]!] = 0;
  }
  return { pi, pj, pc, np, bounded, exact, postings, stopped: false };
}
