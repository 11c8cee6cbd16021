/**
 * The Overview's drill-down data: Datasette-style facet counts over the live memories (type,
 * owner, todo status, archived, edge type, retention bucket, idle-time bucket) and a sample of
 * (retention, importance) points for the scatter. Every count is one SQL aggregate over promoted
 * columns, with the same expressions the Memories list filters by, so a facet's count is exactly
 * the number of rows its click shows.
 */
import { DEFAULT_FORGET_POLICY } from '../model/forget-policy.js';
import { idleSql, retentionSql } from '../store/retention-sql.js';
import type { DB } from '../store/sqlite.js';

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

export interface ScatterPoint {
  id: string;
  type: string;
  retention: number;
  importance: number;
}

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

function caseOf(expr: string, buckets: { min: number | null; max: number | null }[]): string {
  const arms = buckets.map((b, i) => {
    const cond = [b.min !== null ? `${expr} >= ${b.min}` : null, b.max !== null ? `${expr} < ${b.max}` : null].filter(Boolean).join(' AND ') || '1';
    return `WHEN ${cond} THEN ${i}`;
  });
  return `CASE ${arms.join(' ')} ELSE -1 END`;
}

export function overviewFacets(db: DB, now: number, policy = DEFAULT_FORGET_POLICY): OverviewFacets {
  const live = 'archived = 0';
  const group = (col: string) =>
    db.prepare(`SELECT coalesce(${col}, '') AS value, count(*) AS n FROM memories WHERE ${live} GROUP BY ${col} ORDER BY n DESC, value ASC`).all() as { value: string; n: number }[];
  const counts = db.prepare('SELECT coalesce(sum(archived = 0), 0) AS live, coalesce(sum(archived = 1), 0) AS archived FROM memories').get() as { live: number; archived: number };
  // Each memory counts once per edge type it touches, in either direction (as the list filter asks).
  const edgeTypes = db
    .prepare(
      `SELECT t.type AS value, count(*) AS n FROM (
         SELECT src AS id, type FROM memory_edges UNION SELECT dst AS id, type FROM memory_edges
       ) AS t JOIN memories m ON m.id = t.id WHERE m.archived = 0 GROUP BY t.type ORDER BY n DESC, value ASC`,
    )
    .all() as { value: string; n: number }[];
  const threshold = policy.prune_activation_threshold;
  const half = policy.decay_half_life_hours;
  const rb = retentionBuckets(threshold);
  const bucketCounts = (expr: string, buckets: { value: string; min: number | null; max: number | null }[]): RangeFacet[] => {
    const rows = db.prepare(`SELECT ${caseOf(expr, buckets)} AS b, count(*) AS n FROM memories WHERE ${live} GROUP BY b`).all() as { b: number; n: number }[];
    const byBucket = new Map(rows.map((r) => [r.b, r.n]));
    return buckets.map((b, i) => ({ ...b, n: byBucket.get(i) ?? 0 }));
  };
  return {
    now,
    live: counts.live,
    archived: counts.archived,
    types: group('type'),
    owners: group('owner'),
    statuses: group('status').filter((r) => r.value !== ''),
    edge_types: edgeTypes,
    retention: bucketCounts(retentionSql(now, half), rb),
    idle: bucketCounts(idleSql(now), IDLE_BUCKETS),
    prune_threshold: threshold,
    half_life_hours: half,
  };
}

export function retentionScatter(db: DB, now: number, sample: number, policy = DEFAULT_FORGET_POLICY): RetentionScatter {
  const total = (db.prepare('SELECT count(*) AS n FROM memories WHERE archived = 0').get() as { n: number }).n;
  const step = Math.max(1, Math.ceil(total / Math.max(1, sample)));
  // Every step-th live row in rowid order: a deterministic sample spread over the whole store.
  const rows = db
    .prepare(
      `SELECT id, type, ${retentionSql(now, policy.decay_half_life_hours, '')} AS retention, importance FROM (
         SELECT id, type, strength, last_accessed, importance, row_number() OVER (ORDER BY rowid) AS k FROM memories WHERE archived = 0
       ) WHERE (k - 1) % ? = 0`,
    )
    .all(step) as ScatterPoint[];
  return { now, total, points: rows, sampled: step > 1, prune_threshold: policy.prune_activation_threshold };
}
