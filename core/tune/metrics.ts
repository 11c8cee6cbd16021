/** The tuner's metrics: which one the objective reads, and means over queries (per query: recall/ranking-metrics.ts). */
import type { MetricValues } from '../recall/ranking-metrics.js';

export const TUNE_METRICS = ['recall', 'mrr', 'ndcg'] as const;
export type TuneMetric = (typeof TUNE_METRICS)[number];

export type { MetricValues } from '../recall/ranking-metrics.js';
export { queryMetrics } from '../recall/ranking-metrics.js';

export function meanMetrics(values: readonly MetricValues[]): MetricValues {
  const n = values.length;
  if (n === 0) return { recall: 0, mrr: 0, ndcg: 0 };
  const sum = (f: (v: MetricValues) => number) => values.reduce((s, v) => s + f(v), 0) / n;
  return { recall: sum((v) => v.recall), mrr: sum((v) => v.mrr), ndcg: sum((v) => v.ndcg) };
}
