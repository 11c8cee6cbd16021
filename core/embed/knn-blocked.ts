/**
 * knn over the inverted lists a block of slots at a time: each block's cosines are summed in a
 * small array (a cache's worth) and its best slots taken before the next block, where summing
 * into one array over every slot scattered each list's products across megabytes (at a million
 * memories, most of the dense leg's time went to cache misses). Each slot still gets its
 * products in ascending dimension order, so its cosine is the same number bit for bit, and the
 * best k are chosen by the same order as the flat scan's (BoundedTopK), whatever the blocks.
 */
import { BoundedTopK } from './bounded-top-k.js';
import { slotPasses, type InvertedList, type KnnHit, type SlotFilter } from './vector-types.js';

/** What the blocked scan reads of a VectorIndex: its inverted lists, and the columns of the slots they do not describe. */
export interface BlockedScanSource {
  readonly dim: number;
  /** Slots in use, live or not. */
  readonly n: number;
  /** Slots the lists were built over: those from here to `n` were added since, and are read from the columns. */
  readonly built: number;
  /** Slots below `built` whose vector changed after the build (read from the columns too). */
  readonly stale: Iterable<number>;
  /** Slots summed at a time. */
  readonly block: number;
  /** The vectors column by column, `cap` numbers a dimension. */
  readonly cols: Float32Array;
  readonly cap: number;
  readonly alive: Uint8Array;
  readonly rowids: Float64Array;
  listOf(j: number): InvertedList;
  /** An array of at least `length` numbers to sum in (the index keeps it between queries). */
  scratch(length: number): Float64Array;
  idAt(slot: number): string;
  ownerAt(slot: number): string;
}

/** The k nearest live slots by cosine, best first; `filter` restricts by id and owner. */
export function knnBlocked(src: BlockedScanSource, q: Float32Array, k: number, filter?: SlotFilter): KnnHit[] {
  const n = src.n;
  const dims: number[] = [];
  for (let j = 0; j < src.dim; j++) if (q[j] !== 0) dims.push(j);
  const lists = dims.map((j) => src.listOf(j));
  const cursor = new Int32Array(dims.length);
  // Slots the lists do not describe (changed or added since they were built), in ascending order.
  const direct = [...src.stale].sort((a, b) => a - b);
  for (let i = src.built; i < n; i++) direct.push(i);
  let d = 0;
  const block = Math.min(src.block, n);
  const acc = src.scratch(block);
  const { cols, cap, alive } = src;
  const top = new BoundedTopK(k, src.rowids);
  for (let lo = 0; lo < n; lo += block) {
    const hi = Math.min(n, lo + block);
    acc.fill(0, 0, hi - lo);
    for (let t = 0; t < dims.length; t++) {
      const qj = q[dims[t]!]!;
      const { slots, vals } = lists[t]!;
      const from = cursor[t]!;
      // Where this block's entries end, found first: the summing loop then tests nothing but its bound.
      const to = hi === n ? slots.length : firstAtLeast(slots, from, hi);
      for (let p = from; p < to; p++) {
        const i = slots[p]! - lo;
        acc[i] = acc[i]! + qj * vals[p]!;
      }
      cursor[t] = to;
    }
    for (; d < direct.length && direct[d]! < hi; d++) {
      const i = direct[d]!;
      let a = 0;
      for (const j of dims) a = a + q[j]! * cols[j * cap + i]!;
      acc[i - lo] = a;
    }
    for (let i = lo; i < hi; i++) {
      const v = acc[i - lo]!;
      if (!top.admits(i, v) || alive[i] !== 1) continue;
      if (!slotPasses(filter, i, src)) continue;
      top.add(i, v);
    }
  }
  return top.best().map(({ slot, cos }) => ({ id: src.idAt(slot), cos }));
}

/** The first index in [from, slots.length) whose slot is at least `slot` (slots ascend), or slots.length. */
function firstAtLeast(slots: Uint32Array, from: number, slot: number): number {
  let lo = from;
  let hi = slots.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (slots[mid]! < slot) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
