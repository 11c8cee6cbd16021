/**
 * Stores the fixture never covered: the planner must agree with a naive sequential pass that does
 * what the reference does (one brute-force knn per memory, state changed in place), and the
 * neighbour graph must equal brute force.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateDemo, rng } from '../../core/demo/generate.js';
import { normalizeF32 } from '../../core/embed/embedder.js';
import type { Engine } from '../../core/engine/engine.js';
import { createMemory } from '../../core/model/memory.js';
import type { MemoryType } from '../../core/model/enums.js';
import { buildNeighbourGraph, cosine32 } from '../../core/reflect/neighbours.js';
import { planReflection } from '../../core/reflect/plan.js';
import { referencePass } from '../../core/reflect/reference-pass.js';
import type { LinkOp, MergeOp, PruneOp, ReflectionPlan, RescoreOp, WindowInfo } from '../../core/reflect/types.js';
import { tempDir } from '../../support/fixture.js';
import { clusteredVectors } from '../helpers/vectors.js';
import { openAt } from '../../support/reflect.js';
import { allMemories, memoryEmbedding, memoryRowid } from '../../core/store/queries/memory-lookups.js';

const NOW = 1_780_000_000;

describe('neighbour graph', () => {
  it('lists exactly the brute-force neighbours with cos >= 0.8, best first, ties by rowid, on one thread and on several', async () => {
    const vectors = clusteredVectors({ seed: 5, dim: 64, clusters: 40, nonZeros: 10, rows: 400, maxEdits: 4, heavy: 2 });
    const ids = vectors.map((_, i) => `m${i}`);
    const g = await buildNeighbourGraph({ ids, vectors });
    const par = await buildNeighbourGraph({ ids, vectors }, 0.8, undefined, 3);
    expect([...par.nbr]).toEqual([...g.nbr]);
    expect([...par.cos]).toEqual([...g.cos]);
    expect(par.stats.pairs_exact).toBe(g.stats.pairs_exact);
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

/**
 * A store built so that every hard case of the windows occurs: families of near-duplicates
 * (cos ≥ 0.95) of mixed types, so merges archive memories that sit inside other memories' windows
 * (their link windows then show displaced entries); exact duplicates and equal-cosine siblings
 * (ties broken by rowid, also at the window's last place); loners and pairs with fewer than six
 * neighbours ≥ 0.80; creation times that disagree with rowid order (merge anchors go by creation).
 */
function windowStore(engine: Engine, seed: number): void {
  const rand = rng(seed);
  const dim = engine.store.dim;
  const types: MemoryType[] = ['info', 'info', 'episode', 'skill'];
  const unit = (v: Float32Array) => normalizeF32(v);
  const centre = () => {
    const v = new Float32Array(dim);
    for (let k = 0; k < 24; k++) v[Math.floor(rand() * dim)] = rand() < 0.5 ? -1 : 1;
    return v;
  };
  /** A copy of v with `flips` coordinates changed: few flips stay above 0.95, more fall to 0.8–0.95. */
  const near = (v: Float32Array, flips: number) => {
    const w = Float32Array.from(v);
    for (let k = 0; k < flips; k++) w[Math.floor(rand() * dim)] = rand() < 0.5 ? 0 : rand() < 0.5 ? 1 : -1;
    return w;
  };
  const rows: { v: Float32Array; type: MemoryType }[] = [];
  for (let f = 0; f < 14; f++) {
    const c = centre();
    const size = f % 5 === 0 ? 2 : 4 + Math.floor(rand() * 9);
    for (let m = 0; m < size; m++) {
      const flips = m === 0 ? 0 : rand() < 0.4 ? 1 : 2 + Math.floor(rand() * 4);
      rows.push({ v: near(c, flips), type: types[Math.floor(rand() * types.length)]! });
    }
    // Exact copies: the same cosine to everyone, so only the rowid orders them.
    if (f % 3 === 0) rows.push({ v: Float32Array.from(rows[rows.length - 1]!.v), type: 'info' });
    if (f % 4 === 1) rows.push({ v: Float32Array.from(rows[rows.length - 2]!.v), type: 'skill' });
  }
  for (let l = 0; l < 12; l++) rows.push({ v: centre(), type: 'info' }); // loners
  // Shuffle so families interleave in rowid order.
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [rows[i], rows[j]] = [rows[j]!, rows[i]!];
  }
  rows.forEach((r, i) => {
    const created = NOW - 86_400 * (1 + Math.floor(rand() * 40)) - (i % 7) * 3600;
    const m = createMemory(
      { type: r.type, content: `synthetic ${i}`, importance: 1 + Math.floor(rand() * 9), salience: Math.round(rand() * 100) / 100, created_at: created, last_accessed_at: created },
      created,
    );
    engine.store.add(m, unit(r.v));
  });
}

/** The k-window of `of` as the reference sees it at that moment, from brute force. */
function bruteWindow(engine: Engine, of: string, target: string, archivedBy: Map<string, string>, k: number): WindowInfo | null {
  const store = engine.store;
  const q = memoryEmbedding(store, of)!;
  const list = allMemories(store)
    .map((m) => ({ id: m.id, v: memoryEmbedding(store, m.id), rowid: memoryRowid(store, m.id)! }))
    .filter((x) => x.v)
    .map((x) => ({ id: x.id, rowid: x.rowid, c: cosine32(q, x.v!) }))
    .filter((x) => x.c >= 0.8)
    .sort((a, b) => b.c - a.c || a.rowid - b.rowid);
  const displaced: { id: string; by: string }[] = [];
  let position = 0;
  for (const x of list) {
    const by = archivedBy.get(x.id);
    if (by !== undefined) {
      displaced.push({ id: x.id, by });
      continue;
    }
    if (position >= k) return null;
    if (x.id === target) return { position, k, displaced: [...displaced] };
    position++;
  }
  return null;
}

function expectWindowsMatchBruteForce(engine: Engine, plan: ReflectionPlan): void {
  const merges = plan.groups.find((g) => g.op === 'merge')!.ops as MergeOp[];
  const archivedBy = new Map<string, string>();
  // One knn call per anchor: its window is the state before the anchor's own merges.
  let anchor = '';
  let before = new Map<string, string>();
  for (const m of merges) {
    if (m.anchor !== anchor) {
      anchor = m.anchor;
      before = new Map(archivedBy);
    }
    expect(m.window, `${m.id} window`).toEqual(bruteWindow(engine, m.anchor, m.dup, before, 6));
    archivedBy.set(m.dup, m.id);
  }
  for (const l of plan.groups.find((g) => g.op === 'link')!.ops as LinkOp[]) {
    expect(l.window, `${l.id} window`).toEqual(bruteWindow(engine, l.src, l.dst, archivedBy, l.window.k));
  }
}

describe('planner vs brute force on stores built for the window edge cases', () => {
  it.each([
    [21, 1, undefined],
    [22, 3, 16],
    [23, 2, 5],
  ])('seed %i on %i thread(s), posting groups of %s: same ops as the reference pass, same windows as brute force', async (seed, workers, groupSize) => {
    const path = join(tempDir(), `windows-${seed}.sqlite`);
    const engine = openAt(path, NOW, true);
    windowStore(engine, seed);
    engine.vectors.invalidate();
    const plan = await planReflection(engine, { workers, joinGroupSize: groupSize });
    const ref = referencePass(engine.store, NOW);
    const ops = <T>(op: string) => plan.groups.find((g) => g.op === op)!.ops as T[];
    expect(ops<MergeOp>('merge').map((m) => ({ dup: m.dup, into: m.anchor }))).toEqual(ref.merged);
    expect(ops<LinkOp>('link').map((l) => ({ src: l.src, dst: l.dst, weight: l.weight }))).toEqual(ref.links);
    expect(ops<RescoreOp>('rescore').map((r) => ({ id: r.memory, after: r.after }))).toEqual(ref.rescored);
    expect(ops<PruneOp>('prune').map((p) => p.memory)).toEqual(ref.pruned);
    expectWindowsMatchBruteForce(engine, plan);
    // The cases the store is built for do occur.
    const links = ops<LinkOp>('link');
    expect(ref.merged.length).toBeGreaterThan(3);
    expect(links.some((l) => l.window.displaced.length > 0)).toBe(true);
    expect(ops<MergeOp>('merge').some((m) => m.window.displaced.length > 0) || links.filter((l) => l.window.displaced.length > 0).length > 2).toBe(true);
    const live = allMemories(engine.store).filter((m) => !ref.merged.some((x) => x.dup === m.id));
    const sparse = live.filter((m) => {
      const v = memoryEmbedding(engine.store, m.id)!;
      return live.filter((o) => cosine32(v, memoryEmbedding(engine.store, o.id)!) >= 0.8).length < 6;
    });
    expect(sparse.length).toBeGreaterThan(5);
    const vectors = live.map((m) => Buffer.from(memoryEmbedding(engine.store, m.id)!.buffer).toString('base64'));
    expect(new Set(vectors).size).toBeLessThan(vectors.length); // exact ties
    engine.close();
  });
});
