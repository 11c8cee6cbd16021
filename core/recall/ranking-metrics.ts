/**
 * Ranking metrics for one labelled query, shared by the tuner's objective and the Scorer lab's
 * table. All three read the same top k:
 *   recall@k = |relevant ∩ top k| / |relevant|;
 *   MRR      = 1 / rank of the first relevant memory in the top k (0 when none is there);
 *   nDCG@k   = DCG / ideal DCG, binary gains, log2(rank + 1) discount.
 */

export interface MetricValues {
  recall: number;
  mrr: number;
  ndcg: number;
}

export function queryMetrics(relevant: ReadonlySet<string>, ranked: readonly string[], k: number): MetricValues {
  const top = ranked.slice(0, k);
  let hits = 0;
  let firstHit = 0;
  let dcg = 0;
  top.forEach((id, i) => {
    if (!relevant.has(id)) return;
    hits++;
    if (firstHit === 0) firstHit = i + 1;
    dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return {
    recall: relevant.size === 0 ? 0 : hits / relevant.size,
    mrr: firstHit === 0 ? 0 : 1 / firstHit,
    ndcg: ideal === 0 ? 0 : dcg / ideal,
  };
}
