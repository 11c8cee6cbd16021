/**
 * The neighbour join's WebAssembly kernel: the bytes shipped in join-kernel-wasm.ts are exactly
 * what join-kernel.wat assembles to (so the readable source is the one that runs), and the join
 * equals brute force across posting-group boundaries, on one thread and on several.
 */
import { readFileSync } from 'node:fs';
import wabtInit from 'wabt';
import { describe, expect, it } from 'vitest';
import { clusteredVectors } from '../helpers/vectors.js';
import { JOIN_KERNEL_WASM_BASE64 } from '../../core/reflect/join-kernel-wasm.js';
import { buildNeighbourGraph, cosine32 } from '../../core/reflect/neighbours.js';

describe('join kernel', () => {
  it('ships the bytes its .wat source assembles to (run scripts/build-join-kernel.mjs after editing it)', async () => {
    const wabt = await wabtInit();
    const features = { threads: true };
    const mod = wabt.parseWat('join-kernel.wat', readFileSync(new URL('../../core/reflect/join-kernel.wat', import.meta.url), 'utf8'), features);
    try {
      const bytes = Buffer.from(mod.toBinary({}).buffer).toString('base64');
      expect(bytes).toBe(JOIN_KERNEL_WASM_BASE64);
    } finally {
      mod.destroy();
    }
  });

  it('equals brute force with small posting groups, repeated rows, a non-finite row and unnormalised rows', async () => {
    // Some rows stay unnormalised (norm up to ~1.3): the bounds must not assume unit vectors.
    const vectors = clusteredVectors({ seed: 11, dim: 48, clusters: 25, nonZeros: 9, rows: 300, maxEdits: 3, heavy: 3, unnormalisedEvery: 17 });
    const dim = 48;
    vectors[40] = Float32Array.from(vectors[39]!); // an exact duplicate: a tie broken by slot
    vectors[41] = Float32Array.from(vectors[39]!);
    vectors[77] = Float32Array.from(vectors[76]!).fill(Number.NaN, 0, 1);
    vectors[78] = new Float32Array(dim); // no embedding mass at all
    const ids = vectors.map((_, i) => `m${i}`);
    const one = await buildNeighbourGraph({ ids, vectors }, 0.8, undefined, { workers: 1, groupSize: 16 });
    const heard: [number, number][] = [];
    const three = await buildNeighbourGraph({ ids, vectors }, 0.8, undefined, { workers: 3, groupSize: 7, onProgress: (done, total) => heard.push([done, total]) });
    // Progress counts row probes: group g is probed by every row from its start on, and the last
    // report says all of them were done.
    let probes = 0;
    for (let g = 0; g * 7 < vectors.length; g++) probes += vectors.length - g * 7;
    expect(heard.at(-1)).toEqual([probes, probes]);
    for (let k = 1; k < heard.length; k++) expect(heard[k]![0]).toBeGreaterThanOrEqual(heard[k - 1]![0]);
    expect([...three.nbr]).toEqual([...one.nbr]);
    expect([...three.cos]).toEqual([...one.cos]);
    let pairs = 0;
    for (let i = 0; i < vectors.length; i++) {
      // numpy's product (the reference) makes every cosine of a row holding NaN a NaN.
      const usable = (v: Float32Array) => v.every(Number.isFinite);
      const want = vectors
        .map((v, j) => ({ j, c: usable(v) && usable(vectors[i]!) ? cosine32(vectors[i]!, v) : Number.NaN }))
        .filter((x) => x.c >= 0.8)
        .sort((a, b) => b.c - a.c || a.j - b.j);
      const got = [];
      for (let p = one.off[i]!; p < one.off[i + 1]!; p++) got.push({ j: one.nbr[p]!, c: one.cos[p]! });
      expect(got, `row ${i}`).toEqual(want);
      pairs += want.length;
    }
    expect(pairs).toBeGreaterThan(2 * vectors.length);
    expect(one.stats.pairs_exact).toBeLessThan(one.stats.pairs_all);
  });
});
