/**
 * Ranking metrics against a set of relevant ids, binary relevance: recall@k (share of the relevant
 * found in the top k), MRR (1 / rank of the first relevant one, 0 if none in the top k) and nDCG@k.
 */
import { queryMetrics } from '../ranking-metrics.js';
import type { LabMetrics } from './types.js';

export function rankingMetrics(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): LabMetrics {
  // A query nothing labels has no metrics (null), not zeros: the lab leaves it out of the means.
  if (relevant.size === 0) return { recall: null, mrr: null, ndcg: null };
  return queryMetrics(relevant, ranked, k);
}

/** |A ∩ B| / k over the two top k lists. */
export function rankOverlap(a: readonly string[], b: readonly string[], k: number): number {
  const sa = new Set(a.slice(0, k));
  return b.slice(0, k).filter((id) => sa.has(id)).length / k;
}

/** Mean of the non-null values (null when there are none). */
export function meanOf(values: readonly (number | null)[]): number | null {
  const xs = values.filter((v): v is number => v !== null);
  return xs.length ? xs.reduce((s, v) => s + v, 0) / xs.length : null;
}
