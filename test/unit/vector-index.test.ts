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
});
