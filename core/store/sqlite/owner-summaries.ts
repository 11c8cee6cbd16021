/**
 * One row per owner of the open store (the Fleet view's "Agents in this store"): a fleet of agents
 * writing one store is one store with many owners. Each table is grouped once, by owner, in one
 * statement (never a statement per owner); the groups are folded into rows here, for both adapters
 * (pg/pg-owner-summaries.ts runs the same statements on PostgreSQL).
 *
 * The rows are capped: the first `limit` owners in byte order (SQLite's BINARY collation,
 * PostgreSQL's "C"), so a store with a million owners answers a bounded page with `truncated` set.
 * The cap is found first (the owner just past it), and every group is then read below it.
 */
import { isCrossOwner } from '../../model/owner.js';
import { connectionOf } from './connection.js';
import { hasEventTable } from './access-events.js';
import { byBytes } from '../shared/byte-order.js';
import type { RowSource } from '../shared/store-handle.js';

export interface OwnerSummary {
  /** The exact owner string (`""`: unowned memories). */
  owner: string;
  live: number;
  archived: number;
  /** Live memories per type. */
  by_type: Record<string, number>;
  /** Edges whose source is one of its memories (archived ones included). */
  edges_out: number;
  /** Access events on its memories, by any reader. */
  accesses: number;
  /**
   * Access events this owner made, as a reader, on memories of another role: the Access audit's
   * "cross-owner only" rule (isCrossOwner), so these add up to that filter's total.
   */
  foreign_reads: number;
  /** The newest `created_at` of its memories (rows keep no update time); null when it owns none. */
  last_created: number | null;
  /** The newest access event on its memories; null when none was read. */
  last_access: number | null;
}

export interface OwnerSummaries {
  owners: OwnerSummary[];
  /** More owners than `limit`: the rows are the first `limit` in byte order. */
  truncated: boolean;
}

/** The most rows one answer holds. */
export const MAX_OWNER_SUMMARIES = 1000;

/** The groups each statement returns, as numbers. */
export interface OwnerGroups {
  memories: { owner: string; type: string; archived: number; n: number; last_created: number }[];
  edges: { owner: string; n: number }[];
  events: { memory_owner: string; reader_owner: string; n: number; last_ts: number }[];
}

/**
 * The statements, for either adapter: `table` spells a table's name as the adapter does, and each
 * `?` is bound to the bound (the first owner left out) when there is one. `firstLeftOut` takes the
 * limit as its offset.
 */
export function ownerSummarySql(table: (name: string) => string, bounded: boolean) {
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
export function foldOwnerSummaries(groups: OwnerGroups, bound: string | null, limit: number): OwnerSummaries {
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

/** SQLite: the statements on one connection; a nooa file without mnemo's event table has no accesses. */
export function ownerSummaries(source: RowSource, limit: number): OwnerSummaries {
  const db = connectionOf(source);
  const first = db.prepare(ownerSummarySql((t) => t, false).firstLeftOut).get(limit) as { owner: string } | undefined;
  const bound = first?.owner ?? null;
  const sql = ownerSummarySql((t) => t, bound !== null);
  const at = bound === null ? [] : [bound];
  return foldOwnerSummaries(
    {
      memories: db.prepare(sql.memories).all(...at) as OwnerGroups['memories'],
      edges: db.prepare(sql.edges).all(...at) as OwnerGroups['edges'],
      events: hasEventTable(db) ? (db.prepare(sql.events).all(...at, ...at) as OwnerGroups['events']) : [],
    },
    bound,
    limit,
  );
}
