import { describe, expect, it } from 'vitest';
import { VectorIndex } from '../../core/embed/vector-index.js';

const v = (...xs: number[]) => {
  const a = new Float32Array(4);
  xs.forEach((x, i) => (a[i] = x));
  return a;
};

describe('VectorIndex', () => {
  it('returns exact nearest neighbours, best first, ties by rowid', () => {
    const ix = new VectorIndex(4);
    ix.upsert('c', v(0, 1), 'A', 3);
    ix.upsert('a', v(1, 0), 'A', 1);
    ix.upsert('b', v(1, 0), 'B', 2);
    ix.upsert('d', v(0.6, 0.8), '', 4);
    expect(ix.knn(v(1, 0), 3).map((h) => h.id)).toEqual(['a', 'b', 'd']);
    expect(ix.knn(v(1, 0), 10, (_id, owner) => owner !== 'B').map((h) => h.id)).toEqual(['a', 'd', 'c']);
    expect(ix.knn(v(1, 0), 1)[0]!.cos).toBeCloseTo(1, 6);
  });

  it('removes and re-adds, and grows past its initial capacity', () => {
    const ix = new VectorIndex(4);
    for (let i = 0; i < 3000; i++) ix.upsert(`m${i}`, v(Math.cos(i), Math.sin(i)), '', i);
    expect(ix.size).toBe(3000);
    ix.remove('m0');
    expect(ix.has('m0')).toBe(false);
    expect(ix.knn(v(1, 0), 1)[0]!.id).not.toBe('m0');
    ix.upsert('m0', v(1, 0), '', 0);
    expect(ix.knn(v(1, 0), 1)[0]!.id).toBe('m0');
    expect(ix.dotWith('m5', v(1, 0))).toBeCloseTo(Math.cos(5), 6);
    expect(ix.vector('m1')![1]).toBeCloseTo(Math.sin(1), 6);
  });

  it('adopts an exported inverted layout and answers as the index it came from, through patches, before and after filling its columns', () => {
    const dim = 32;
    let seed = 5;
    const rand = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const sparse = () => {
      const a = new Float32Array(dim);
      for (let k = 0; k < 4; k++) a[Math.floor(rand() * dim)] = rand() - 0.5;
      return a;
    };
    const original = new VectorIndex(dim);
    for (let i = 0; i < 5000; i++) original.upsert(`m${i}`, sparse(), i % 3 ? 'A' : 'B', i);
    original.remove('m7');
    const copy = new VectorIndex(dim);
    const exported = original.exportInverted();
    copy.adoptInverted(exported.ids, exported.owners, exported.rowids, exported);
    const queries = Array.from({ length: 6 }, sparse);
    const same = () => {
      for (const q of queries) {
        expect(copy.knn(q, 20)).toEqual(original.knn(q, 20));
        expect(copy.knn(q, 5, (_id, owner) => owner === 'B')).toEqual(original.knn(q, 5, (_id, owner) => owner === 'B'));
        expect(copy.dotWith('m42', q)).toBe(original.dotWith('m42', q));
      }
      expect(copy.vector('m9')).toEqual(original.vector('m9'));
      expect(copy.size).toBe(original.size);
      expect(copy.has('m7')).toBe(false);
    };
    same();
    // An access-only patch (the same vector, a new rowid), then real changes: an edit, an add, a removal.
    for (const ix of [original, copy]) ix.upsert('m3', original.vector('m3')!, 'A', 3);
    same();
    const edited = sparse();
    const added = sparse();
    for (const ix of [original, copy]) {
      ix.upsert('m11', edited, 'A', 11);
      ix.upsert('new', added, 'B', 9000);
      ix.remove('m12');
    }
    same();
    expect(() => copy.adoptInverted(['a'], [''], new Float64Array(1), { counts: new Uint32Array(dim).fill(1), slots: new Uint32Array(dim), values: new Float32Array(dim) })).not.toThrow();
    expect(() => copy.adoptInverted(['a'], [''], new Float64Array(1), { counts: new Uint32Array(dim).fill(1), slots: new Uint32Array(dim).fill(1), values: new Float32Array(dim) })).toThrow(RangeError);
  });
});
