/** Clustered sparse float32 vectors for neighbour-join tests: many near-duplicates, some ties. */
import { rng } from '../../core/demo/generate.js';

export interface ClusteredVectorsOptions {
  seed: number;
  dim: number;
  clusters: number;
  /** Non-zeros drawn per cluster centre. */
  nonZeros: number;
  rows: number;
  /** Each row gets up to `maxEdits - 1` random edits to its centre. */
  maxEdits: number;
  /** The magnitude a heavy edit writes (the bounds must not assume ±1 components). */
  heavy: number;
  /** Every n-th row is scaled by 0.77 instead of normalised; 0 normalises every row. */
  unnormalisedEvery?: number;
}

export function clusteredVectors(o: ClusteredVectorsOptions): Float32Array[] {
  const rand = rng(o.seed);
  const centres: Float32Array[] = [];
  for (let i = 0; i < o.clusters; i++) {
    const v = new Float32Array(o.dim);
    for (let k = 0; k < o.nonZeros; k++) v[Math.floor(rand() * o.dim)] = rand() < 0.5 ? -1 : 1;
    centres.push(v);
  }
  const vectors: Float32Array[] = [];
  for (let i = 0; i < o.rows; i++) {
    const v = Float32Array.from(centres[Math.floor(rand() * centres.length)]!);
    for (let k = 0; k < Math.floor(rand() * o.maxEdits); k++) v[Math.floor(rand() * o.dim)] = rand() < 0.5 ? -1 : rand() < 0.5 ? o.heavy : 0;
    let n = 0;
    for (const x of v) n += x * x;
    const unnormalised = o.unnormalisedEvery !== undefined && o.unnormalisedEvery > 0 && i % o.unnormalisedEvery === 0;
    const s = Math.fround(Math.sqrt(n) * (unnormalised ? 0.77 : 1));
    vectors.push(s === 0 ? v : v.map((x) => Math.fround(x / s)));
  }
  return vectors;
}
