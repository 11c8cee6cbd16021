/**
 * The counts behind the Overview, stats and the store panel on PostgreSQL (overview-counts.ts and
 * store-counts.ts are SQLite's): the same aggregates over the promoted columns, with the same
 * retention and idle expressions (retention-sql.ts, written with `greatest`), and the same orders.
 * Where SQLite orders by count alone, it leaves equal counts in whatever order its plan gives;
 * here they come in key order (NULL first), so the order is at least the same on every run.
 */
import type { OwnerScope } from '../../model/owner.js';
import type { CountBucket, OverviewColumn, RetentionPoint, ValueCount } from '../sqlite/overview-counts.js';
import { ownerClause } from '../shared/owner-sql.js';
import type { OwnerSummaries } from '../sqlite/owner-summaries.js';
import type { CountQueries } from '../port/port.js';
import { idleSql, retentionSql } from '../shared/retention-sql.js';
import type { KeyCount, SchemaVersions, StatsColumn, TableCounts } from '../sqlite/store-counts.js';
import { PG_STORE_TABLE } from './pg-schema.js';
import { pgOwnerSummaries } from './pg-owner-summaries.js';
import { intOf, numbered } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';

const LIVE = 'archived = 0';

/** `CASE WHEN <in bucket 0> THEN 0 … ELSE -1 END` (bounds are numbers of our own bucket tables, inlined after a finiteness check). */
function caseOf(expr: string, buckets: readonly CountBucket[]): string {
  const bound = (n: number) => {
    if (!Number.isFinite(n)) throw new Error('bucket bounds must be finite');
    return String(n);
  };
  const arms = buckets.map((b, i) => {
    const cond = [b.min !== null ? `${expr} >= ${bound(b.min)}` : null, b.max !== null ? `${expr} < ${bound(b.max)}` : null].filter(Boolean).join(' AND ') || 'TRUE';
    return `WHEN ${cond} THEN ${i}`;
  });
  return `CASE ${arms.join(' ')} ELSE -1 END`;
}

export class PgCounts implements CountQueries {
  constructor(private readonly conn: PgStoreConnection) {}

  private q(sql: string, params: readonly unknown[] = []): Record<string, unknown>[] {
    return this.conn.db().query(sql, params);
  }

  private get memories(): string {
    return this.conn.table('memories');
  }

  private count(sql: string, params: readonly unknown[] = []): number {
    return intOf(this.q(sql, params)[0]!['n'], 'count(*)');
  }

  private valueCounts(sql: string, params: readonly unknown[] = []): ValueCount[] {
    return this.q(sql, params).map((r) => ({ value: r['value'] as string, n: intOf(r['n'], 'count(*)') }));
  }

  liveValueCounts(column: OverviewColumn): ValueCount[] {
    return this.valueCounts(`SELECT coalesce(${column}, '') AS value, count(*) AS n FROM ${this.memories} WHERE ${LIVE} GROUP BY ${column} ORDER BY n DESC, value ASC`);
  }

  liveAndArchivedCounts(): { live: number; archived: number } {
    const r = this.q(`SELECT count(*) FILTER (WHERE archived = 0) AS live, count(*) FILTER (WHERE archived = 1) AS archived FROM ${this.memories}`)[0]!;
    return { live: intOf(r['live'], 'live'), archived: intOf(r['archived'], 'archived') };
  }

  liveEdgeTypeCounts(): ValueCount[] {
    const edges = this.conn.table('memory_edges');
    return this.valueCounts(
      `SELECT t.type AS value, count(*) AS n FROM (
         SELECT src AS id, type FROM ${edges} UNION SELECT dst AS id, type FROM ${edges}
       ) AS t JOIN ${this.memories} m ON m.id = t.id WHERE m.archived = 0 GROUP BY t.type ORDER BY n DESC, value ASC`,
    );
  }

  liveRetentionBucketCounts(now: number, halfLifeHours: number, buckets: readonly CountBucket[]): number[] {
    return this.bucketCounts(retentionSql(now, halfLifeHours, 'm', 'greatest'), buckets);
  }

  liveIdleBucketCounts(now: number, buckets: readonly CountBucket[]): number[] {
    return this.bucketCounts(idleSql(now, 'm', 'greatest'), buckets);
  }

  private bucketCounts(expr: string, buckets: readonly CountBucket[]): number[] {
    const rows = this.q(`SELECT ${caseOf(expr, buckets)} AS b, count(*) AS n FROM ${this.memories} m WHERE ${LIVE} GROUP BY b`);
    const byBucket = new Map(rows.map((r) => [r['b'] as number, intOf(r['n'], 'count(*)')]));
    return buckets.map((_, i) => byBucket.get(i) ?? 0);
  }

  liveCount(): number {
    return this.count(`SELECT count(*) AS n FROM ${this.memories} WHERE ${LIVE}`);
  }

  retentionSample(now: number, halfLifeHours: number, step: number): RetentionPoint[] {
    return this.q(
      `SELECT id, type, ${retentionSql(now, halfLifeHours, '', 'greatest')} AS retention, importance FROM (
         SELECT id, type, strength, last_accessed, importance, row_number() OVER (ORDER BY rowid) AS k FROM ${this.memories} WHERE archived = 0
       ) AS live WHERE (k - 1) % $1 = 0 ORDER BY k`,
      [step],
    ).map((r) => ({ id: r['id'] as string, type: r['type'] as string, retention: r['retention'] as number, importance: r['importance'] as number }));
  }

  tableCounts(): TableCounts {
    return {
      memories: this.count(`SELECT count(*) AS n FROM ${this.memories}`),
      archived: this.count(`SELECT count(*) AS n FROM ${this.memories} WHERE archived = 1`),
      edges: this.count(`SELECT count(*) AS n FROM ${this.conn.table('memory_edges')}`),
      events: this.count(`SELECT count(*) AS n FROM ${this.conn.table('mnemo_access_events')}`),
      changes: this.count(`SELECT count(*) AS n FROM ${this.conn.table('mnemo_journal')}`),
    };
  }

  /** nooa's user_version as the store keeps it (mnemo_pg_store), Mnemo's from mnemo_meta. */
  schemaVersions(): SchemaVersions {
    const [nooa] = this.q(`SELECT value FROM ${this.conn.table(PG_STORE_TABLE)} WHERE key = 'nooa_user_version'`);
    const [mnemo] = this.q(`SELECT value FROM ${this.conn.table('mnemo_meta')} WHERE key = 'schema_version'`);
    return { nooa: Number(nooa?.['value'] ?? 0), mnemo: Number(mnemo?.['value'] ?? 0) };
  }

  countsByColumn(column: StatsColumn, scope: OwnerScope): KeyCount[] {
    const oc = ownerClause(scope);
    const where = oc.sql === '1' ? 'TRUE' : numbered(oc.sql);
    return this.q(`SELECT ${column} AS k, count(*) AS n FROM ${this.memories} WHERE ${where} GROUP BY ${column} ORDER BY n DESC, k ASC NULLS FIRST`, oc.params).map((r) => ({
      k: r['k'] as string | null,
      n: intOf(r['n'], 'count(*)'),
    }));
  }

  archivedCount(scope: OwnerScope): number {
    const oc = ownerClause(scope);
    const where = oc.sql === '1' ? 'TRUE' : numbered(oc.sql);
    return this.count(`SELECT count(*) AS n FROM ${this.memories} WHERE archived = 1 AND ${where}`, oc.params);
  }

  edgeCountsByType(): { k: string; n: number }[] {
    return this.q(`SELECT type AS k, count(*) AS n FROM ${this.conn.table('memory_edges')} GROUP BY type ORDER BY n DESC, k ASC`).map((r) => ({ k: r['k'] as string, n: intOf(r['n'], 'count(*)') }));
  }

  beliefDimensionCount(): number {
    return this.count(`SELECT count(*) AS n FROM ${this.conn.table('mnemo_dimensions')}`);
  }

  ownerSummaries(limit: number): OwnerSummaries {
    return pgOwnerSummaries(this.conn, limit);
  }
}
