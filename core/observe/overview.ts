/**
 * The Overview's drill-down data: Datasette-style facet counts over the live memories (type,
 * owner, todo status, archived, edge type, retention bucket, idle-time bucket) and a sample of
 * (retention, importance) points for the scatter. The buckets are chosen here; the counting is
 * core/store/sqlite/overview-counts.ts (one aggregate each, the same expressions the Memories list
 * filters by, so a facet's count is exactly the number of rows its click shows).
 */
import { DEFAULT_FORGET_POLICY } from '../model/forget-policy.js';
import type { RetentionPoint, StoreReader } from '../store/port/port.js';

export interface RangeFacet {
  /** Display label, e.g. "0.02–0.1". */
  value: string;
  n: number;
  /** The filter the Memories list applies for this bucket: [min, max). */
  min: number | null;
  max: number | null;
}

export interface OverviewFacets {
  now: number;
  live: number;
  archived: number;
  types: { value: string; n: number }[];
  owners: { value: string; n: number }[];
  statuses: { value: string; n: number }[];
  /** Live memories with at least one edge (out or in) of the type. */
  edge_types: { value: string; n: number }[];
  retention: RangeFacet[];
  idle: RangeFacet[];
  prune_threshold: number;
  half_life_hours: number;
}

export type ScatterPoint = RetentionPoint;

export interface RetentionScatter {
  now: number;
  total: number;
  /** Points drawn (every k-th live memory by rowid when the store has more than the sample). */
  points: ScatterPoint[];
  sampled: boolean;
  prune_threshold: number;
}

const HOUR = 3600;
const DAY = 24 * HOUR;

/** Retention buckets: the first edge is the prune threshold (below it a memory is prunable). */
export function retentionBuckets(threshold: number): { value: string; min: number | null; max: number | null }[] {
  const edges = [0, threshold, 0.1, 0.3, 0.6, 0.9].filter((v, i, a) => i === 0 || v > a[i - 1]!);
  return edges.map((lo, i) => {
    const hi = edges[i + 1] ?? null;
    return { value: hi === null ? `≥ ${lo}` : `${lo}–${hi}`, min: i === 0 ? null : lo, max: hi };
  });
}

export const IDLE_BUCKETS: { value: string; min: number | null; max: number | null }[] = [
  { value: '< 1 hour', min: null, max: HOUR },
  { value: '1 hour – 1 day', min: HOUR, max: DAY },
  { value: '1 – 7 days', min: DAY, max: 7 * DAY },
  { value: '7 – 30 days', min: 7 * DAY, max: 30 * DAY },
  { value: '30 – 90 days', min: 30 * DAY, max: 90 * DAY },
  { value: '≥ 90 days', min: 90 * DAY, max: null },
];

/** Each bucket with the number of live memories in it. */
function withCounts(buckets: { value: string; min: number | null; max: number | null }[], counts: number[]): RangeFacet[] {
  return buckets.map((b, i) => ({ ...b, n: counts[i] ?? 0 }));
}

export function overviewFacets(store: StoreReader, now: number, policy = DEFAULT_FORGET_POLICY): OverviewFacets {
  const counts = store.queries.liveAndArchivedCounts();
  const threshold = policy.prune_activation_threshold;
  const half = policy.decay_half_life_hours;
  const rb = retentionBuckets(threshold);
  return {
    now,
    live: counts.live,
    archived: counts.archived,
    types: store.queries.liveValueCounts('type'),
    owners: store.queries.liveValueCounts('owner'),
    statuses: store.queries.liveValueCounts('status').filter((r) => r.value !== ''),
    edge_types: store.queries.liveEdgeTypeCounts(),
    retention: withCounts(rb, store.queries.liveRetentionBucketCounts(now, half, rb)),
    idle: withCounts(IDLE_BUCKETS, store.queries.liveIdleBucketCounts(now, IDLE_BUCKETS)),
    prune_threshold: threshold,
    half_life_hours: half,
  };
}

export function retentionScatter(store: StoreReader, now: number, sample: number, policy = DEFAULT_FORGET_POLICY): RetentionScatter {
  const total = store.queries.liveCount();
  const step = Math.max(1, Math.ceil(total / Math.max(1, sample)));
  const points = store.queries.retentionSample(now, policy.decay_half_life_hours, step);
  return { now, total, points, sampled: step > 1, prune_threshold: policy.prune_activation_threshold };
}
