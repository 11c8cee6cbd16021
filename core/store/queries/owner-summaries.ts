/**
 * One row per owner of the open store (the Fleet view's "Agents in this store"): a fleet of agents
 * writing one store is one store with many owners. Each table is grouped once, by owner, in one
 * statement (never a statement per owner), on either backend (port/store-sql.ts); the groups are
 * folded into rows here.
 *
 * The rows are capped: the first `limit` owners in byte order (SQLite's BINARY collation,
 * PostgreSQL's "C"), so a store with a million owners answers a bounded page with `truncated` set.
 * The cap is found first (the owner just past it), and every group is then read below it.
 */
import { isCrossOwner } from '../../model/owner.js';
import type { StoreReader } from '../port/port.js';
import { byBytes } from '../shared/byte-order.js';
import { intOf } from '../shared/sql-values.js';
import { query } from '../shared/store-query.js';
import type { OwnerSummaries, OwnerSummary } from '../port/count-rows.js';

/** The most rows one answer holds. */
export const MAX_OWNER_SUMMARIES = 1000;

/** The groups each statement returns, as numbers. */
interface OwnerGroups {
  memories: { owner: string; type: string; archived: number; n: number; last_created: number }[];
  edges: { owner: string; n: number }[];
  events: { memory_owner: string; reader_owner: string; n: number; last_ts: number }[];
}

/**
 * The statements: `table` spells a table's name as the backend does, and each `?` is bound to the
 * bound (the first owner left out) when there is one. `firstLeftOut` takes the limit as its offset.
 */
function ownerSummarySql(table: (name: string) => string, bounded: boolean) {
  const [memories, edges, events] = [table('memories'), table('memory_edges'), table('mnemo_access_events')];
  const below = (cond: string) => (bounded ? `WHERE ${cond}` : '');
  return {
    firstLeftOut: `SELECT DISTINCT owner FROM ${memories} ORDER BY owner LIMIT 1 OFFSET ?`,
    memories: `SELECT owner, type, archived, count(*) AS n, max(created_at) AS last_created FROM ${memories} ${below('owner < ?')} GROUP BY owner, type, archived`,
    edges: `SELECT m.owner AS owner, count(*) AS n FROM ${edges} e JOIN ${memories} m ON m.id = e.src ${below('m.owner < ?')} GROUP BY m.owner`,
    events: `SELECT m.owner AS memory_owner, e.reader_owner AS reader_owner, count(*) AS n, max(e.ts) AS last_ts
       FROM ${events} e JOIN ${memories} m ON m.id = e.memory_id ${below('(m.owner < ? OR e.reader_owner < ?)')} GROUP BY m.owner, e.reader_owner`,
  };
}

const emptySummary = (owner: string): OwnerSummary => ({ owner, live: 0, archived: 0, by_type: {}, edges_out: 0, accesses: 0, foreign_reads: 0, last_created: null, last_access: null });
const newest = (a: number | null, b: number): number => (a === null || b > a ? b : a);

/** The rows the groups make, owners below `bound` only (null: every owner), at most `limit`. */
function foldOwnerSummaries(groups: OwnerGroups, bound: string | null, limit: number): OwnerSummaries {
  const rows = new Map<string, OwnerSummary>();
  const types = new Map<string, Map<string, number>>();
  const kept = (owner: string) => bound === null || byBytes(owner, bound) < 0;
  const row = (owner: string): OwnerSummary => {
    let r = rows.get(owner);
    if (!r) rows.set(owner, (r = emptySummary(owner)));
    return r;
  };
  for (const g of groups.memories) {
    const r = row(g.owner);
    r.last_created = newest(r.last_created, g.last_created);
    if (g.archived !== 0) {
      r.archived += g.n;
      continue;
    }
    r.live += g.n;
    // A Map, then fromEntries: a type read from a foreign row may be any string, "__proto__" too.
    const byType = types.get(g.owner) ?? types.set(g.owner, new Map()).get(g.owner)!;
    byType.set(g.type, (byType.get(g.type) ?? 0) + g.n);
  }
  for (const g of groups.edges) row(g.owner).edges_out += g.n;
  for (const g of groups.events) {
    if (kept(g.memory_owner)) {
      const r = row(g.memory_owner);
      r.accesses += g.n;
      r.last_access = newest(r.last_access, g.last_ts);
    }
    if (kept(g.reader_owner) && isCrossOwner(g.reader_owner, g.memory_owner)) row(g.reader_owner).foreign_reads += g.n;
  }
  for (const [owner, byType] of types) row(owner).by_type = Object.fromEntries([...byType].sort(([a], [b]) => byBytes(a, b)));
  const sorted = [...rows.values()].sort((a, b) => byBytes(a.owner, b.owner));
  return { owners: sorted.slice(0, limit), truncated: bound !== null || sorted.length > limit };
}

/** The rows, the first `limit` owners in byte order; a nooa file without Mnemo's event table has no accesses. */
export function ownerSummaries(store: Pick<StoreReader, 'sql'>, limit: number): OwnerSummaries {
  const rows = (sql: string, params: readonly unknown[]) => store.sql.all(query(sql, params));
  const table = (name: string) => store.sql.table(name);
  const [first] = rows(ownerSummarySql(table, false).firstLeftOut, [limit]);
  const bound = first ? (first['owner'] as string) : null;
  const sql = ownerSummarySql(table, bound !== null);
  const at = bound === null ? [] : [bound];
  const groups: OwnerGroups = {
    memories: rows(sql.memories, at).map((r) => ({
      owner: r['owner'] as string,
      type: r['type'] as string,
      archived: Number(r['archived']),
      n: intOf(r['n'], 'count(*)'),
      last_created: r['last_created'] as number,
    })),
    edges: rows(sql.edges, at).map((r) => ({ owner: r['owner'] as string, n: intOf(r['n'], 'count(*)') })),
    events: store.sql.hasTable('mnemo_access_events')
      ? rows(sql.events, [...at, ...at]).map((r) => ({
          memory_owner: r['memory_owner'] as string,
          reader_owner: r['reader_owner'] as string,
          n: intOf(r['n'], 'count(*)'),
          last_ts: r['last_ts'] as number,
        }))
      : [],
  };
  return foldOwnerSummaries(groups, bound, limit);
}
