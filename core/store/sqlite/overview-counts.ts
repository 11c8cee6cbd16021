/**
 * The aggregates behind the Overview: value counts over the live memories, live/archived totals,
 * edge types touched by live memories, bucket counts of retention and idle time, and an evenly
 * spread sample for the retention scatter. Each is one SQL aggregate over promoted columns, with
 * the same expressions the Memories list filters by (retention-sql.ts), so a count is exactly the
 * number of rows its click shows.
 */
import { connectionOf } from './connection.js';
import { idleSql, retentionSql } from '../shared/retention-sql.js';
import type { RowSource } from '../shared/store-handle.js';

export interface ValueCount {
  value: string;
  n: number;
}

/** A bucket [min, max) of a numeric expression; either end may be absent. */
export interface CountBucket {
  min: number | null;
  max: number | null;
}

export interface RetentionPoint {
  id: string;
  type: string;
  retention: number;
  importance: number;
}

/** Promoted columns the Overview groups by. */
export type OverviewColumn = 'type' | 'owner' | 'status';

const LIVE = 'archived = 0';

/** Live memories per value of `column` (NULL counted as ''), most frequent first. */
export function liveValueCounts(source: RowSource, column: OverviewColumn): ValueCount[] {
  return connectionOf(source)
    .prepare(`SELECT coalesce(${column}, '') AS value, count(*) AS n FROM memories WHERE ${LIVE} GROUP BY ${column} ORDER BY n DESC, value ASC`)
    .all() as ValueCount[];
}

/** How many memories are live and how many archived. */
export function liveAndArchivedCounts(source: RowSource): { live: number; archived: number } {
  return connectionOf(source).prepare('SELECT coalesce(sum(archived = 0), 0) AS live, coalesce(sum(archived = 1), 0) AS archived FROM memories').get() as {
    live: number;
    archived: number;
  };
}

/** Live memories per edge type they touch: each counts once per type, in either direction (as the list filter asks). */
export function liveEdgeTypeCounts(source: RowSource): ValueCount[] {
  return connectionOf(source)
    .prepare(
      `SELECT t.type AS value, count(*) AS n FROM (
         SELECT src AS id, type FROM memory_edges UNION SELECT dst AS id, type FROM memory_edges
       ) AS t JOIN memories m ON m.id = t.id WHERE m.archived = 0 GROUP BY t.type ORDER BY n DESC, value ASC`,
    )
    .all() as ValueCount[];
}

/** Live memories per retention bucket at `now`, in the buckets' order. */
export function liveRetentionBucketCounts(source: RowSource, now: number, halfLifeHours: number, buckets: readonly CountBucket[]): number[] {
  return bucketCounts(source, retentionSql(now, halfLifeHours), buckets);
}

/** Live memories per idle-time bucket (seconds since the last access) at `now`, in the buckets' order. */
export function liveIdleBucketCounts(source: RowSource, now: number, buckets: readonly CountBucket[]): number[] {
  return bucketCounts(source, idleSql(now), buckets);
}

function bucketCounts(source: RowSource, expr: string, buckets: readonly CountBucket[]): number[] {
  const rows = connectionOf(source).prepare(`SELECT ${caseOf(expr, buckets)} AS b, count(*) AS n FROM memories WHERE ${LIVE} GROUP BY b`).all() as { b: number; n: number }[];
  const byBucket = new Map(rows.map((r) => [r.b, r.n]));
  return buckets.map((_, i) => byBucket.get(i) ?? 0);
}

/** `CASE WHEN <in bucket 0> THEN 0 … ELSE -1 END` (bounds are numbers of our own bucket tables, inlined). */
function caseOf(expr: string, buckets: readonly CountBucket[]): string {
  const arms = buckets.map((b, i) => {
    const cond = [b.min !== null ? `${expr} >= ${b.min}` : null, b.max !== null ? `${expr} < ${b.max}` : null].filter(Boolean).join(' AND ') || '1';
    return `WHEN ${cond} THEN ${i}`;
  });
  return `CASE ${arms.join(' ')} ELSE -1 END`;
}

/** How many memories are live. */
export function liveCount(source: RowSource): number {
  return (connectionOf(source).prepare('SELECT count(*) AS n FROM memories WHERE archived = 0').get() as { n: number }).n;
}

/** Every `step`-th live memory in rowid order with its retention at `now`: a deterministic sample spread over the whole store. */
export function retentionSample(source: RowSource, now: number, halfLifeHours: number, step: number): RetentionPoint[] {
  return connectionOf(source)
    .prepare(
      `SELECT id, type, ${retentionSql(now, halfLifeHours, '')} AS retention, importance FROM (
         SELECT id, type, strength, last_accessed, importance, row_number() OVER (ORDER BY rowid) AS k FROM memories WHERE archived = 0
       ) WHERE (k - 1) % ? = 0`,
    )
    .all(step) as RetentionPoint[];
}
