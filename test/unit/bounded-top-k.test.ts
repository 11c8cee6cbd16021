import { describe, expect, it } from 'vitest';
import { BoundedTopK } from '../../core/embed/bounded-top-k.js';

/** Offers each slot in turn, as a scan does: asks admits, then adds. */
const scan = (k: number, cos: number[], rowids: number[]) => {
  const top = new BoundedTopK(k, Float64Array.from(rowids));
  cos.forEach((c, slot) => {
    if (top.admits(slot, c)) top.add(slot, c);
  });
  return top;
};

describe('BoundedTopK', () => {
  it('keeps the k highest cosines, best first, whatever order they come in', () => {
    const cos = [0.1, 0.9, -0.3, 0.5, 0.7, 0.2];
    const rowids = [1, 2, 3, 4, 5, 6];
    expect(scan(3, cos, rowids).best()).toEqual([
      { slot: 1, cos: 0.9 },
      { slot: 4, cos: 0.7 },
      { slot: 3, cos: 0.5 },
    ]);
    expect(scan(10, cos, rowids).best().map((h) => h.slot)).toEqual([1, 4, 3, 5, 0, 2]);
  });

  it('breaks a tie by rowid, the older row first, not by the order the slots are visited', () => {
    // Slot 0 is the newest row: it comes first in the scan but last among equals.
    const top = scan(4, [0.5, 0.5, 0.8, 0.5], [30, 10, 5, 20]);
    expect(top.best().map((h) => h.slot)).toEqual([2, 1, 3, 0]);
  });

  it('once full, refuses a slot below the floor or tied with it but newer, and lets an older tied one take the worst place', () => {
    const rowids = Float64Array.from([10, 20, 30, 5, 25]);
    const top = new BoundedTopK(2, rowids);
    expect(top.floor).toBe(-Infinity);
    top.add(0, 0.9);
    expect(top.floor).toBe(-Infinity);
    top.add(1, 0.4);
    expect(top.floor).toBe(0.4);
    expect(top.admits(2, 0.3)).toBe(false);
    expect(top.admits(2, 0.4)).toBe(false); // tied, rowid 30 is newer than the kept 20
    expect(top.admits(4, 0.4)).toBe(false); // rowid 25, newer too
    expect(top.admits(3, 0.4)).toBe(true); // rowid 5: older
    top.add(3, 0.4);
    expect(top.best()).toEqual([
      { slot: 0, cos: 0.9 },
      { slot: 3, cos: 0.4 },
    ]);
    expect(top.admits(2, 0.41)).toBe(true);
  });

  it('lets a slot tied in cosine and rowid with the worst kept take its place: the later one visited stays', () => {
    expect(scan(2, [1, 1, 1], [0, 0, 0]).best().map((h) => h.slot)).toEqual([2, 1]);
  });

  it('chooses what a full sort by cosine, then rowid, would, through heavy ties', () => {
    let seed = 3;
    const rand = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    for (let round = 0; round < 40; round++) {
      const n = 1 + Math.floor(rand() * 400);
      const cos = Array.from({ length: n }, () => Math.floor(rand() * 5) / 4 - 0.5);
      // Distinct rowids, in an order unrelated to the slots'.
      const rowids = Array.from({ length: n }, (_x, i) => i).sort(() => rand() - 0.5);
      const k = 1 + Math.floor(rand() * (n + 5));
      const expected = cos
        .map((c, slot) => ({ slot, cos: c }))
        .sort((a, b) => b.cos - a.cos || rowids[a.slot]! - rowids[b.slot]!)
        .slice(0, k);
      expect(scan(k, cos, rowids).best()).toEqual(expected);
    }
  });
});
