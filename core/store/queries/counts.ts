/**
 * The counts behind the Overview, stats and the store panel, one statement each over the promoted
 * columns, written once for both backends (port/store-sql.ts). Retention and idle time are the
 * expressions the Memories list filters by (shared/retention-sql.ts), so a count is exactly the
 * number of rows its click shows. Equal counts come in key order (NULL first), so an order is the
 * same on every run and on either backend.
 */
import type { OwnerScope } from '../../model/owner.js';
import type { CountBucket, KeyCount, OverviewColumn, RetentionPoint, StatsColumn, TableCounts, ValueCount } from '../port/count-rows.js';
import type { StoreReader } from '../port/port.js';
import { ownerClause } from '../shared/owner-sql.js';
import { foreignRun, type RunMarker, type RunMode } from '../shared/run-marker.js';
import { idleSql, retentionSql } from '../shared/retention-sql.js';
import { dialectOf } from '../shared/sql-dialect.js';
import { intOf } from '../shared/sql-values.js';
import { oneOff, query } from '../shared/store-query.js';

const LIVE = 'archived = 0';

type Reads = Pick<StoreReader, 'sql' | 'hasMnemo'>;

function count(store: Reads, sql: string, params: readonly unknown[] = []): number {
  return intOf(store.sql.get(query(sql, params))?.['n'] ?? 0, 'count(*)');
}

const valueCounts = (rows: Record<string, unknown>[]): ValueCount[] => rows.map((r) => ({ value: r['value'] as string, n: intOf(r['n'], 'count(*)') }));

/** An owner scope as a condition both backends accept (PostgreSQL has no `WHERE 1`). */
function ownerCondition(scope: OwnerScope): { sql: string; params: unknown[] } {
  const oc = ownerClause(scope);
  return { sql: oc.sql === '1' ? 'TRUE' : oc.sql, params: oc.params };
}

/** Live memories per value of `column` (NULL counted as ''), most frequent first. */
export function liveValueCounts(store: Reads, column: OverviewColumn): ValueCount[] {
  const memories = store.sql.table('memories');
  return valueCounts(store.sql.all(query(`SELECT coalesce(${column}, '') AS value, count(*) AS n FROM ${memories} WHERE ${LIVE} GROUP BY ${column} ORDER BY n DESC, value ASC`)));
}

/** How many memories are live and how many archived. */
export function liveAndArchivedCounts(store: Reads): { live: number; archived: number } {
  const r = store.sql.get(query(`SELECT count(*) FILTER (WHERE archived = 0) AS live, count(*) FILTER (WHERE archived = 1) AS archived FROM ${store.sql.table('memories')}`));
  return { live: intOf(r?.['live'] ?? 0, 'live'), archived: intOf(r?.['archived'] ?? 0, 'archived') };
}

/** Live memories per edge type they touch: each counts once per type, in either direction (as the list filter asks). */
export function liveEdgeTypeCounts(store: Reads): ValueCount[] {
  const [memories, edges] = [store.sql.table('memories'), store.sql.table('memory_edges')];
  return valueCounts(
    store.sql.all(
      query(
        `SELECT t.type AS value, count(*) AS n FROM (
           SELECT src AS id, type FROM ${edges} UNION SELECT dst AS id, type FROM ${edges}
         ) AS t JOIN ${memories} m ON m.id = t.id WHERE m.archived = 0 GROUP BY t.type ORDER BY n DESC, value ASC`,
      ),
    ),
  );
}

/** Live memories per retention bucket at `now`, in the buckets' order. */
export function liveRetentionBucketCounts(store: Reads, now: number, halfLifeHours: number, buckets: readonly CountBucket[]): number[] {
  return bucketCounts(store, retentionSql(now, halfLifeHours, 'm', dialectOf(store.sql).larger), buckets);
}

/** Live memories per idle-time bucket (seconds since the last access) at `now`, in the buckets' order. */
export function liveIdleBucketCounts(store: Reads, now: number, buckets: readonly CountBucket[]): number[] {
  return bucketCounts(store, idleSql(now, 'm', dialectOf(store.sql).larger), buckets);
}

function bucketCounts(store: Reads, expr: string, buckets: readonly CountBucket[]): number[] {
  const rows = store.sql.all(oneOff(`SELECT ${caseOf(expr, buckets)} AS b, count(*) AS n FROM ${store.sql.table('memories')} m WHERE ${LIVE} GROUP BY b`));
  const byBucket = new Map(rows.map((r) => [intOf(r['b'], 'bucket'), intOf(r['n'], 'count(*)')]));
  return buckets.map((_, i) => byBucket.get(i) ?? 0);
}

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

/** How many memories are live. */
export function liveCount(store: Reads): number {
  return count(store, `SELECT count(*) AS n FROM ${store.sql.table('memories')} WHERE ${LIVE}`);
}

/** Every `step`-th live memory in rowid order with its retention at `now`: a deterministic sample spread over the whole store. */
export function retentionSample(store: Reads, now: number, halfLifeHours: number, step: number): RetentionPoint[] {
  const d = dialectOf(store.sql);
  return store.sql
    .all(
      oneOff(
        `SELECT id, type, ${retentionSql(now, halfLifeHours, '', d.larger)} AS retention, importance FROM (
           SELECT id, type, strength, last_accessed, importance, row_number() OVER (ORDER BY rowid) AS k FROM ${store.sql.table('memories')} WHERE archived = 0
         ) AS live WHERE (k - 1) % ? = 0 ORDER BY k`,
        [step],
      ),
    )
    .map((r) => ({ id: r['id'] as string, type: r['type'] as string, retention: r['retention'] as number, importance: r['importance'] as number }));
}

/** Rows per table; the event table and the journal count 0 before Mnemo's tables exist. */
export function tableCounts(store: Reads): TableCounts {
  const t = (name: string) => store.sql.table(name);
  return {
    memories: count(store, `SELECT count(*) AS n FROM ${t('memories')}`),
    archived: count(store, `SELECT count(*) AS n FROM ${t('memories')} WHERE archived = 1`),
    edges: count(store, `SELECT count(*) AS n FROM ${t('memory_edges')}`),
    events: store.sql.hasTable('mnemo_access_events') ? count(store, `SELECT count(*) AS n FROM ${t('mnemo_access_events')}`) : 0,
    changes: store.hasMnemo() ? count(store, `SELECT count(*) AS n FROM ${t('mnemo_journal')}`) : 0,
  };
}

/** Each SQLite store's last row counts, where its file stood when they were taken, and when (the engine's clock). */
const keptCounts = new WeakMap<object, { at: string; countedAt: number; counts: TableCounts }>();

/** Why store.info's counts are not the store's rows as they are: another writer's long change is being written. */
export interface CountsHeld {
  change_id: number;
  label: string;
  mode: RunMode;
  /** When the counts shown were taken (the engine's clock): before that change, or part-way through it. */
  counted_at: number;
}

export interface KeptCounts {
  counts: TableCounts;
  /** Set while the counts are held for another writer's long change; null when they are the rows as they are. */
  held: CountsHeld | null;
}

/**
 * tableCounts, kept while a SQLite file stands still. At 100k memories counting the edges and the
 * million access events takes tens of milliseconds, and the views poll store.info several times a
 * second. A count can only move with a commit: another connection's moves data_version, ours moves
 * totalChanges, so keeping them until either moves is exact. PostgreSQL learns of other
 * connections' commits only when it catches up, so there every call counts afresh.
 *
 * While another connection writes a long change (run-marker.ts), they stay as they were until it
 * ends: its rows are neither before nor after, and counting after each of its batches cost every
 * poll 25 to 135 ms during a 100k commit in the jobs worker. Held counts say so (`held`), since the
 * list and the graph follow that change batch by batch meanwhile: a view must not show two numbers
 * that disagree without saying why.
 */
export function keptTableCounts(store: Reads & Pick<StoreReader, 'dataVersion' | 'totalChanges' | 'path' | 'getMeta'>, now: number): KeptCounts {
  if (store.sql.dialect !== 'sqlite') return { counts: tableCounts(store), held: null };
  const at = `${store.dataVersion()}:${store.totalChanges()}`;
  const kept = keptCounts.get(store);
  // Taken at this very point of the file, they are the rows as they are, run or no run: no marker to read on the views' polls.
  if (kept && kept.at === at) return { counts: { ...kept.counts }, held: null };
  const run = kept && store.hasMnemo() ? foreignRun(store) : null;
  if (kept && run) return { counts: { ...kept.counts }, held: heldFor(run, kept.countedAt) };
  const counts = tableCounts(store);
  keptCounts.set(store, { at, countedAt: now, counts });
  return { counts: { ...counts }, held: null };
}

/** Kept counts are held while another writer's long change runs on (they will not follow it until it ends). */
function heldFor(run: RunMarker | null, countedAt: number): CountsHeld | null {
  return run ? { change_id: run.change_id, label: run.label, mode: run.mode, counted_at: countedAt } : null;
}

/** Memories in the owner scope per value of `column` (archived included), most frequent first. */
export function countsByColumn(store: Reads, column: StatsColumn, scope: OwnerScope): KeyCount[] {
  const oc = ownerCondition(scope);
  const nullsFirst = dialectOf(store.sql).nullsFirst;
  return store.sql
    .all(query(`SELECT ${column} AS k, count(*) AS n FROM ${store.sql.table('memories')} WHERE ${oc.sql} GROUP BY ${column} ORDER BY n DESC, k ASC${nullsFirst}`, oc.params))
    .map((r) => ({ k: r['k'] as string | null, n: intOf(r['n'], 'count(*)') }));
}

/** Archived memories in the owner scope. */
export function archivedCount(store: Reads, scope: OwnerScope): number {
  const oc = ownerCondition(scope);
  return count(store, `SELECT count(*) AS n FROM ${store.sql.table('memories')} WHERE archived = 1 AND ${oc.sql}`, oc.params);
}

/** Edges per type (every edge, whatever its endpoints' owners), most frequent first. */
export function edgeCountsByType(store: Reads): { k: string; n: number }[] {
  return store.sql
    .all(query(`SELECT type AS k, count(*) AS n FROM ${store.sql.table('memory_edges')} GROUP BY type ORDER BY n DESC, k ASC`))
    .map((r) => ({ k: r['k'] as string, n: intOf(r['n'], 'count(*)') }));
}

/** Belief dimensions (0 on a store whose belief tables do not exist yet). */
export function beliefDimensionCount(store: Reads): number {
  return store.sql.hasTable('mnemo_dimensions') ? count(store, `SELECT count(*) AS n FROM ${store.sql.table('mnemo_dimensions')}`) : 0;
}
