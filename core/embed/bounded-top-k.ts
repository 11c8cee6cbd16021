/**
 * The best k slots of a scan by cosine, in a min-heap whose top is the worst one kept: a slot
 * enters while there is room, or by taking that worst one's place. Both of VectorIndex's scans
 * (the flat one over the columns, the blocked one over the inverted lists) choose through this,
 * so they keep the same slots in the same order.
 *
 * "Worse" is a lower cosine, or the same cosine and a later rowid: ties go to the older row, so
 * the answer does not depend on the order the slots are visited in (the reference's numpy
 * argpartition gives no such promise).
 */
export class BoundedTopK {
  /** The worst kept cosine once k are kept (-Infinity before): no slot below it can enter. */
  floor = -Infinity;
  private readonly slots: number[] = [];
  private readonly cos: number[] = [];

  constructor(
    private readonly k: number,
    /** Each slot's rowid, read to break ties. */
    private readonly rowids: Float64Array,
  ) {}

  /**
   * Whether a slot scoring `cos` would enter now: not below the floor, and, when tied with it
   * while full, not later than the worst kept. Cheap: a scan asks it before any costlier filter.
   */
  admits(slot: number, cos: number): boolean {
    if (cos < this.floor) return false;
    return !(this.slots.length === this.k && cos === this.floor && this.rowids[slot]! > this.rowids[this.slots[0]!]!);
  }

  /** Keeps the slot, in place of the worst one when full (the caller asked admits first). */
  add(slot: number, cos: number): void {
    const slots = this.slots;
    if (slots.length < this.k) {
      slots.push(slot);
      this.cos.push(cos);
      this.siftUp(slots.length - 1);
    } else {
      slots[0] = slot;
      this.cos[0] = cos;
      this.siftDown(0);
    }
    if (slots.length === this.k) this.floor = this.cos[0]!;
  }

  /** The kept slots and their cosines, best first. */
  best(): { slot: number; cos: number }[] {
    const order = this.slots.map((_s, i) => i).sort((a, b) => (this.worse(a, b) ? 1 : this.worse(b, a) ? -1 : 0));
    return order.map((i) => ({ slot: this.slots[i]!, cos: this.cos[i]! }));
  }

  /** Whether the entry at heap position a is worse than the one at b. */
  private worse(a: number, b: number): boolean {
    const cos = this.cos;
    return cos[a]! < cos[b]! || (cos[a] === cos[b] && this.rowids[this.slots[a]!]! > this.rowids[this.slots[b]!]!);
  }

  private swap(a: number, b: number): void {
    const { slots, cos } = this;
    [slots[a], slots[b]] = [slots[b]!, slots[a]!];
    [cos[a], cos[b]] = [cos[b]!, cos[a]!];
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  private siftDown(i: number): void {
    const size = this.slots.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && this.worse(l, m)) m = l;
      if (r < size && this.worse(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }
}
