/**
 * ACT-R base-level activation over a memory's access ring, as nooa computes it for recency
 * (retrieval) and for rescoring importance (reflection):
 *   B = ln Σ_k max(now − t_k, 1 s)^(−d)   over ring entries whose channel feeds ACT-R,
 * with B = −10 when the sum is not positive (no such entry).
 */
import { ACTR_CHANNELS } from './enums.js';
import type { AccessRecord } from './memory.js';

export const NO_ACTIVATION = -10;

export function baseLevelActivation(log: readonly Pick<AccessRecord, 'ts' | 'channel'>[], now: number, decay = 0.5): number {
  let sum = 0;
  for (const entry of log) {
    if (!ACTR_CHANNELS.has(entry.channel)) continue;
    sum += Math.max(now - entry.ts, 1) ** -decay;
  }
  return sum > 0 ? Math.log(sum) : NO_ACTIVATION;
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}
