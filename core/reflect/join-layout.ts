/**
 * The arrays of the neighbour join, laid out in one shared WebAssembly memory that every worker
 * thread's instance of the kernel (join-kernel.wat) reads in place.
 *
 * Tokens are (dimension, sign) pairs ranked by frequency (most frequent first). For each row:
 * - its non-zeros in dimension order (the exact dot runs in that order, as cosine32 does);
 * - a 256-bit sketch: token rank mod 256 → bin. Shared same-sign mass lives in bins both rows
 *   occupy, so with c = |bins(x) ∩ bins(y)|, x·y ≤ Σ_shared bins ‖x_b‖‖y_b‖ ≤ √(Tx(c)·Ty(c)), Tx(c)
 *   being the sum of x's c largest bin masses (‖x_b‖²). The probing row keeps its exact prefix sums
 *   (txVal); the other side's are over-estimated by three lines A_h + c·B_h (B_h the (h+1)-th largest
 *   mass, A_h the excess of the h largest over it), and `cm` is the least c at which a row alone
 *   could reach the threshold against a partner of the largest norm;
 * - its probe tokens: from the rarest, while c = ‖x restricted to ranks ≤ this token‖ ≥ lo / N (N the
 *   largest norm), with the cut lo / c rounded down;
 * - the same tokens as postings with b = c rounded up. A pair whose first shared token (highest
 *   rank) is t has x·y ≤ c_t(x)·b_t(y) (Cauchy–Schwarz on ranks ≤ t), so a pair reaching lo is met
 *   at its first shared token in an entry with b ≥ lo / c. Postings are grouped by slot range
 *   (the kernel works group by group, so the rows it touches stay in cache) and sorted by b
 *   descending within a (group, token) list, which lets a probe stop at its cut.
 */

import { wasm, type WasmMemory } from './wasm-api.js';

export const SKETCH_BINS = 256;
/** The h of the three lines over-estimating Ty(c). */
const LINES = [1, 4, 12] as const;
/** Slots per group: the rows a group's probes touch (sketches, lines, stamps) stay in cache. */
export const DEFAULT_GROUP_SIZE = 2048;
const SAFETY = 1e-6;

export interface JoinScratch {
  stamp: number;
  dense: number;
  outI: number;
  outJ: number;
  outC: number;
}

/** What a worker needs: plain numbers and the shared memory (posted as workerData). */
export interface JoinLayout {
  memory: WasmMemory;
  n: number;
  dim: number;
  tokens: number;
  groups: number;
  groupSize: number;
  lo: number;
  minCos: number;
  cap: number;
  at: Record<'rowOff' | 'rowDim' | 'rowVal' | 'sk' | 'ty' | 'cm' | 'pOff' | 'pRank' | 'pCut' | 'txOff' | 'txVal' | 'postOff' | 'pj' | 'pb', number>;
  scratch: JoinScratch[];
}

export interface JoinInput {
  layout: JoinLayout;
  /** fround(x·x) per slot, as cosine32(x, x) gives it. */
  selfCos: Float32Array;
  /** Slots with a non-finite component: they get no tokens, so they meet no one in the join. */
  irregular: number[];
}

const up = (x: number) => (x <= 0 ? 0 : Math.fround(x * (1 + 1e-7)));
const down = (x: number) => (x <= 0 ? 0 : Math.fround(x * (1 - 1e-7)));

export function buildJoinLayout(vectors: Float32Array[], minCos: number, workers: number, groupSize = DEFAULT_GROUP_SIZE): JoinInput {
  const n = vectors.length;
  const dim = vectors[0]?.length ?? 0;
  const tokens = dim * 2;
  const lo = minCos - SAFETY;
  const df = new Int32Array(tokens);
  const selfCos = new Float32Array(n);
  const irregular: number[] = [];
  const finite = new Uint8Array(n);
  // One scan of the dense vectors: their non-zeros, in dimension order, for everything below.
  const rowOff = new Int32Array(n + 1);
  let rowDim = new Int32Array(Math.max(16, n * 8));
  let rowVal = new Float32Array(rowDim.length);
  let maxNorm = 0;
  let p = 0;
  for (let i = 0; i < n; i++) {
    const v = vectors[i]!;
    const start = p;
    let ss = 0;
    for (let d = 0; d < dim; d++) {
      const x = v[d]!;
      if (x === 0) continue;
      if (p === rowDim.length) {
        rowDim = grow(rowDim);
        rowVal = grow(rowVal);
      }
      rowDim[p] = d;
      rowVal[p++] = x;
      ss += x * x;
    }
    selfCos[i] = Math.fround(ss);
    if (!Number.isFinite(ss)) {
      irregular.push(i);
      p = start;
    } else {
      finite[i] = 1;
      maxNorm = Math.max(maxNorm, Math.sqrt(ss));
      for (let q = start; q < p; q++) df[rowDim[q]! * 2 + (rowVal[q]! < 0 ? 1 : 0)]!++;
    }
    rowOff[i + 1] = p;
  }
  const nnz = p;
  const rank = new Int32Array(tokens);
  Int32Array.from(df.keys())
    .sort((a, b) => df[b]! - df[a]! || a - b)
    .forEach((t, r) => (rank[t] = r));
  const norm = Math.max(1, maxNorm) * (1 + 1e-9);
  const incl = lo / norm;
  // Any row's squared mass is at most norm², so Tx(c) < lo² / norm² rules a row out alone.
  const alone = ((lo * lo) / (norm * norm)) * (1 - 1e-9);

  const sk = new Int32Array(n * 8);
  const ty = new Float32Array(n * 6);
  const cm = new Int32Array(n);
  const pOff = new Int32Array(n + 1);
  const txOff = new Int32Array(n + 1);
  let pRank = new Int32Array(Math.max(16, nnz));
  let pCut = new Float32Array(pRank.length);
  let pB = new Float64Array(pRank.length);
  let pRow = new Int32Array(pRank.length);
  const txVal = new Float64Array(n + nnz);
  // Per-row scratch: token keys (rank · dim + dimension), bin masses, the bins touched, sorted masses.
  const keys = new Float64Array(Math.max(1, dim));
  const touched = new Int32Array(Math.max(1, dim));
  const binMass = new Float64Array(SKETCH_BINS);
  const masses = new Float64Array(SKETCH_BINS);
  const cum = new Float64Array(Math.max(1, dim));
  let np = 0;
  let nt = 0;
  for (let i = 0; i < n; i++) {
    pOff[i] = np;
    txOff[i] = nt;
    if (!finite[i]) {
      cm[i] = SKETCH_BINS + 1;
      txVal[nt++] = 0;
      continue;
    }
    let k = 0;
    let nbt = 0;
    for (let q = rowOff[i]!; q < rowOff[i + 1]!; q++) {
      const d = rowDim[q]!;
      const x = rowVal[q]!;
      const r = rank[d * 2 + (x < 0 ? 1 : 0)]!;
      // Sorted as it arrives (rows hold a few dozen tokens): rank, then dimension.
      const key = r * dim + d;
      let z = k++;
      while (z > 0 && keys[z - 1]! > key) {
        keys[z] = keys[z - 1]!;
        z--;
      }
      keys[z] = key;
      const b = r % SKETCH_BINS;
      sk[i * 8 + (b >> 5)]! |= 1 << (b & 31);
      if (binMass[b] === 0) touched[nbt++] = b;
      binMass[b]! += x * x;
    }
    // Bin masses, largest first.
    let nb = 0;
    for (let t = 0; t < nbt; t++) {
      const b = touched[t]!;
      const m = binMass[b]!;
      binMass[b] = 0;
      let z = nb++;
      while (z > 0 && masses[z - 1]! < m) {
        masses[z] = masses[z - 1]!;
        z--;
      }
      masses[z] = m;
    }
    for (let z = 0; z < LINES.length; z++) {
      const h = LINES[z]!;
      const B = h < nb ? masses[h]! : 0;
      let A = 0;
      for (let u = 0; u < h && u < nb; u++) A += masses[u]! - B;
      ty[i * 6 + z * 2] = up(A * (1 + 1e-12));
      ty[i * 6 + z * 2 + 1] = up(B * (1 + 1e-12));
    }
    let total = 0;
    txVal[nt++] = 0;
    cm[i] = nb + 1;
    for (let z = 0; z < nb; z++) {
      total += masses[z]!;
      txVal[nt++] = total * (1 + 1e-12);
      if (cm[i]! > nb && total * (1 + 1e-12) >= alone) cm[i] = z + 1;
    }
    // Tokens by rank; inclusive cumulative norms from the frequent end.
    const row = keys;
    const v = vectors[i]!;
    let mass = 0;
    for (let z = 0; z < k; z++) {
      const x = v[row[z]! % dim]!;
      mass += x * x;
      cum[z] = Math.sqrt(mass);
    }
    for (let z = k - 1; z >= 0 && cum[z]! >= incl; z--) {
      if (np === pRank.length) {
        pRank = grow(pRank);
        pCut = grow(pCut);
        pB = grow(pB);
        pRow = grow(pRow);
      }
      pRank[np] = Math.floor(row[z]! / dim);
      pCut[np] = down(lo / cum[z]!);
      pB[np] = cum[z]!;
      pRow[np++] = i;
    }
  }
  pOff[n] = np;
  txOff[n] = nt;

  // Postings: every probe token of every row, ordered by (group, token) and then b descending.
  // b is quantised to 16 bits for a two-pass counting sort; the stored b is its bucket's upper
  // edge (rounded up), so each list is exactly non-increasing in what the kernel compares.
  const gsize = Math.max(1, groupSize);
  const groups = Math.max(1, Math.ceil(n / gsize));
  const LEVELS = 65536;
  const scale = (LEVELS - 1) / Math.max(1e-12, norm - incl);
  const qOf = (b: number) => Math.min(LEVELS - 1, Math.max(0, Math.floor((b - incl) * scale)));
  const byQ = new Int32Array(LEVELS + 1);
  for (let e = 0; e < np; e++) byQ[LEVELS - qOf(pB[e]!)]!++;
  for (let q = 0; q < LEVELS; q++) byQ[q + 1]! += byQ[q]!;
  const stage = new Int32Array(np);
  for (let e = 0; e < np; e++) stage[byQ[LEVELS - 1 - qOf(pB[e]!)]!++] = e;
  const lists = groups * tokens;
  const postOff = new Int32Array(lists + 1);
  const keyOf = (e: number) => ((pRow[e]! / gsize) | 0) * tokens + pRank[e]!;
  for (let e = 0; e < np; e++) postOff[keyOf(e) + 1]!++;
  for (let s = 0; s < lists; s++) postOff[s + 1]! += postOff[s]!;
  const fill = postOff.slice(0, lists);
  const pj = new Int32Array(np);
  const pb = new Float32Array(np);
  for (let s = 0; s < np; s++) {
    const e = stage[s]!;
    const at = fill[keyOf(e)]!++;
    pj[at] = pRow[e]!;
    pb[at] = up(incl + (qOf(pB[e]!) + 1) / scale);
  }

  // One shared memory: the arrays, then one scratch block per worker.
  const cap = Math.max(1 << 16, 4 * gsize);
  const parts: [keyof JoinLayout['at'], ArrayLike<number> & { length: number; BYTES_PER_ELEMENT: number; constructor: unknown }][] = [
    ['rowOff', rowOff],
    ['rowDim', rowDim.subarray(0, nnz)],
    ['rowVal', rowVal.subarray(0, nnz)],
    ['sk', sk],
    ['ty', ty],
    ['cm', cm],
    ['pOff', pOff],
    ['pRank', pRank.subarray(0, np)],
    ['pCut', pCut.subarray(0, np)],
    ['txOff', txOff],
    ['txVal', txVal.subarray(0, nt)],
    ['postOff', postOff],
    ['pj', pj],
    ['pb', pb],
  ];
  let size = 64;
  const place = (bytes: number) => {
    const at = size;
    size += Math.ceil((bytes + 16) / 16) * 16;
    return at;
  };
  const at = {} as JoinLayout['at'];
  for (const [name, arr] of parts) at[name] = place(arr.length * arr.BYTES_PER_ELEMENT);
  const scratch: JoinScratch[] = [];
  for (let w = 0; w < Math.max(1, workers); w++) {
    scratch.push({ stamp: place(n * 4), dense: place(dim * 8), outI: place(cap * 4), outJ: place(cap * 4), outC: place(cap * 4) });
  }
  const pages = Math.ceil(size / 65536);
  const memory = new wasm.Memory({ initial: pages, maximum: pages, shared: true });
  const buf = memory.buffer;
  for (const [name, arr] of parts) {
    const Ctor = arr.constructor as new (b: ArrayBufferLike, off: number, len: number) => { set(a: ArrayLike<number>): void };
    new Ctor(buf, at[name], arr.length).set(arr);
  }
  const layout: JoinLayout = { memory, n, dim, tokens, groups, groupSize: gsize, lo, minCos, cap, at, scratch };
  return { layout, selfCos, irregular };
}

function grow<T extends Int32Array | Float32Array | Float64Array>(a: T): T {
  const b = new (a.constructor as new (n: number) => T)(a.length * 2);
  b.set(a);
  return b;
}
