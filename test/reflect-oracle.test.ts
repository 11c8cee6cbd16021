/**
 * Stores the fixture never covered: the planner must agree with a naive sequential pass that does
 * what the reference does (one brute-force knn per memory, state changed in place), and the
 * neighbour graph must equal brute force.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateDemo, rng } from '../core/demo/generate.js';
import { buildNeighbourGraph, cosine32 } from '../core/reflect/neighbours.js';
import { planReflection } from '../core/reflect/plan.js';
import { referencePass } from '../core/reflect/reference-pass.js';
import type { LinkOp, MergeOp, PruneOp, RescoreOp } from '../core/reflect/types.js';
import { tempDir } from './helpers/fixture.js';
import { openAt } from './helpers/reflect.js';

const NOW = 1_780_000_000;

describe('neighbour graph', () => {
  it('lists exactly the brute-force neighbours with cos >= 0.8, best first, ties by rowid', () => {
    const rand = rng(5);
    const dim = 64;
    const base: Float32Array[] = [];
    for (let i = 0; i < 40; i++) {
      const v = new Float32Array(dim);
      for (let k = 0; k < 10; k++) v[Math.floor(rand() * dim)] = rand() < 0.5 ? -1 : 1;
      base.push(v);
    }
    const vectors: Float32Array[] = [];
    for (let i = 0; i < 400; i++) {
      const v = Float32Array.from(base[Math.floor(rand() * base.length)]!);
      for (let k = 0; k < Math.floor(rand() * 4); k++) v[Math.floor(rand() * dim)] = rand() < 0.5 ? -1 : rand() < 0.5 ? 2 : 0;
      let n = 0;
      for (const x of v) n += x * x;
      const s = Math.fround(Math.sqrt(n));
      vectors.push(s === 0 ? v : v.map((x) => Math.fround(x / s)));
    }
    const ids = vectors.map((_, i) => `m${i}`);
    const g = buildNeighbourGraph({ ids, vectors });
    let pairs = 0;
    for (let i = 0; i < vectors.length; i++) {
      const want = vectors
        .map((v, j) => ({ j, c: cosine32(vectors[i]!, v) }))
        .filter((x) => x.c >= 0.8)
        .sort((a, b) => b.c - a.c || a.j - b.j);
      const got = [];
      for (let p = g.off[i]!; p < g.off[i + 1]!; p++) got.push({ j: g.nbr[p]!, c: g.cos[p]! });
      expect(got, `row ${i}`).toEqual(want);
      pairs += want.length;
    }
    expect(pairs).toBeGreaterThan(vectors.length); // the data does have neighbours
    expect(g.stats.pairs_exact).toBeLessThan(g.stats.pairs_all);
  });
});

describe('planner vs the reference sequential pass on a generated store', () => {
  it('proposes the same merges, links, rescores and prunes', async () => {
    const path = join(tempDir(), 'demo.sqlite');
    const engine = openAt(path, NOW, true);
    generateDemo(engine.store, { size: 1500, seed: 3, now: NOW });
    engine.vectors.invalidate();
    const plan = await planReflection(engine);
    const ref = referencePass(engine.store, NOW);
    const ops = <T>(op: string) => plan.groups.find((g) => g.op === op)!.ops as T[];
    expect(ops<MergeOp>('merge').map((m) => ({ dup: m.dup, into: m.anchor }))).toEqual(ref.merged);
    expect(ref.merged.length).toBeGreaterThan(5);
    expect(ops<LinkOp>('link').map((l) => ({ src: l.src, dst: l.dst, weight: l.weight }))).toEqual(ref.links);
    expect(ref.links.length).toBeGreaterThan(50);
    expect(ops<RescoreOp>('rescore').map((r) => ({ id: r.memory, after: r.after }))).toEqual(ref.rescored);
    expect(ops<PruneOp>('prune').map((p) => p.memory)).toEqual(ref.pruned);
    engine.close();
  });
});
