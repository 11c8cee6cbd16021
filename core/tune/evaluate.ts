/**
 * Scores a profile on a labelled set by running the real recall pipeline (the dry run: nothing is
 * logged, so one evaluation never changes what the next one sees), or its cached form (rank-cache.ts). Only the profile changes
 * between evaluations; each engine's derived indexes (vectors, corpus, BM25, part_of, entities)
 * are built on its first query and reused, which is why the knob space leaves out `stem` (it
 * picks another index) and every other switch that is not a number.
 */
import { rank } from '../recall/pipeline.js';
import type { RecallProfile } from '../recall/profile.js';
import type { LabelledQuery, LabelledSet, LabelledStore } from './labels.js';
import type { RankCache } from './rank-cache.js';
import { meanMetrics, queryMetrics, type MetricValues } from './metrics.js';

/** Ranked ids for one query under a profile, items outside `rankable` skipped, at most k. */
export function rankedIds(store: LabelledStore, q: LabelledQuery, profile: RecallProfile, k: number, cache?: RankCache): string[] {
  const rows = cache ? cache.rank(store, q, profile).rows : rank(store.engine, { query: q.query, hops: profile.knobs.hops, owner: q.owner, profile, now: q.asOf }).rows;
  const out: string[] = [];
  for (const row of rows) {
    if (store.rankable && !store.rankable.has(row.id)) continue;
    out.push(row.id);
    if (out.length === k) break;
  }
  return out;
}

export interface Evaluation extends MetricValues {
  /** Queries scored. */
  n: number;
}

/** With a cache (rank-cache.ts), each query's candidates are gathered once and re-scored; the ranks are the same. */
export function evaluateProfile(set: LabelledSet, profile: RecallProfile, k: number, signal?: AbortSignal, cache?: RankCache): Evaluation {
  const values: MetricValues[] = [];
  for (const store of set) {
    for (const q of store.queries) {
      signal?.throwIfAborted();
      values.push(queryMetrics(new Set(q.relevant), rankedIds(store, q, profile, k, cache), k));
    }
  }
  return { ...meanMetrics(values), n: values.length };
}
