/**
 * Ranking metrics against a set of relevant ids, binary relevance: recall@k (share of the relevant
 * found in the top k), MRR (1 / rank of the first relevant one, 0 if none in the top k) and nDCG@k.
 */
import type { LabMetrics } from './types.js';

export function rankingMetrics(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): LabMetrics {
  if (relevant.size === 0) return { recall: null, mrr: null, ndcg: null };
  const top = ranked.slice(0, k);
  let hits = 0;
  let firstHit = 0;
  let dcg = 0;
  top.forEach((id, i) => {
    if (!relevant.has(id)) return;
    hits += 1;
    if (firstHit === 0) firstHit = i + 1;
    dcg += 1 / Math.log2(i + 2);
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) idcg += 1 / Math.log2(i + 2);
  return { recall: hits / relevant.size, mrr: firstHit ? 1 / firstHit : 0, ndcg: idcg ? dcg / idcg : 0 };
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
