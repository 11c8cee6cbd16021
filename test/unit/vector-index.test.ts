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
    expect(ix.knn(v(1, 0), 10, { owner: (owner) => owner !== 'B' }).map((h) => h.id)).toEqual(['a', 'd', 'c']);
    expect(ix.knn(v(1, 0), 10, { id: (id) => id !== 'a' }).map((h) => h.id)).toEqual(['b', 'd', 'c']);
    expect(ix.knn(v(1, 0), 10, { owner: (owner) => owner !== 'B', id: (id) => id !== 'a' }).map((h) => h.id)).toEqual(['d', 'c']);
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
        expect(copy.knn(q, 5, { owner: (owner) => owner === 'B' })).toEqual(original.knn(q, 5, { owner: (owner) => owner === 'B' }));
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

  it('sums a block of slots at a time and gives the exact answer: the same cosines, bit for bit, and the same order, across blocks, patches, removals, ties and filters', () => {
    const dim = 64;
    let seed = 11;
    const rand = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
    const sparse = () => {
      const a = new Float32Array(dim);
      for (let k = 0; k < 6; k++) a[Math.floor(rand() * dim)] = Math.fround(rand() - 0.5);
      return a;
    };
    // Blocks of 700 slots: an index of 9,000 crosses thirteen of them.
    const ix = new VectorIndex(dim, 700);
    const vectors = new Map<string, { v: Float32Array; owner: string; rowid: number }>();
    const put = (id: string, vec: Float32Array, owner: string, rowid: number) => {
      ix.upsert(id, vec, owner, rowid);
      vectors.set(id, { v: vec, owner, rowid });
    };
    const twin = sparse();
    for (let i = 0; i < 9000; i++) put(`m${i}`, i % 997 === 0 ? twin : sparse(), i % 4 ? 'A' : 'B', i);
    // Exact by definition: each live vector's products in ascending dimension order, best first, ties to the older row.
    const brute = (q: Float32Array, k: number, keep: (owner: string) => boolean = () => true) =>
      [...vectors]
        .filter(([, r]) => keep(r.owner))
        .map(([id, r]) => {
          let cos = 0;
          for (let j = 0; j < dim; j++) if (q[j] !== 0) cos = cos + q[j]! * r.v[j]!;
          return { id, cos, rowid: r.rowid };
        })
        .sort((a, b) => b.cos - a.cos || a.rowid - b.rowid)
        .slice(0, k)
        .map(({ id, cos }) => ({ id, cos }));
    const check = () => {
      for (let n = 0; n < 8; n++) {
        const q = n === 0 ? twin : sparse();
        expect(ix.knn(q, 50)).toEqual(brute(q, 50));
        expect(ix.knn(q, 7, { owner: (owner) => owner === 'B' })).toEqual(brute(q, 7, (o) => o === 'B'));
      }
      // Every slot's cosine, the slots at the blocks' edges among them.
      const q = sparse();
      expect(ix.knn(q, vectors.size)).toEqual(brute(q, vectors.size));
    };
    check();
    // Patches after the inverted lists were built (scored from the columns), removals, a slot past the lists.
    for (let i = 0; i < 60; i++) put(`m${Math.floor(rand() * 9000)}`, sparse(), 'A', 20_000 + i);
    for (let i = 0; i < 40; i++) {
      const id = `m${Math.floor(rand() * 9000)}`;
      ix.remove(id);
      vectors.delete(id);
    }
    put('late', twin, 'B', 30_000);
    check();
  });
});
