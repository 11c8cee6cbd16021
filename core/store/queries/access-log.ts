/**
 * Reads of the access log written once above the port for both backends (port/store-sql.ts): how
 * many events it holds, the newest one's id, and which memories the logged recalls of some queries
 * returned. None before the event table exists (a nooa file, or one opened read-only before the
 * migration that makes it).
 */
import type { StoreReader } from '../port/port.js';
import { intOf } from '../shared/sql-values.js';
import { oneOff, query } from '../shared/store-query.js';

const EVENTS = 'mnemo_access_events';
const RECALL_CHANNELS = "('recalled', 'searched')";

type Reads = Pick<StoreReader, 'sql'>;

/** How many access events the log holds. */
export function accessEventCount(store: Reads): number {
  if (!store.sql.hasTable(EVENTS)) return 0;
  return intOf(store.sql.get(query(`SELECT count(*) AS n FROM ${store.sql.table(EVENTS)}`))!['n'], 'count(*)');
}

/**
 * The newest access event's id (0 when none): a cheap mark of whether the log grew, so a reader of
 * the whole session log (the Scorer lab's "used later" labels) can keep its pass until it does.
 */
export function latestAccessEventId(store: Reads): number {
  if (!store.sql.hasTable(EVENTS)) return 0;
  const id = store.sql.get(query(`SELECT MAX(id) AS id FROM ${store.sql.table(EVENTS)}`))?.['id'];
  return id === null || id === undefined ? 0 : intOf(id, 'max(id)');
}

/**
 * For each query, the memories its logged recalls returned within the top k (rank is 0-based), by
 * any reader. One pass over the events for all the queries: the table has no index on query, and
 * one scan per query would cost a scan each on a store with millions of accesses.
 */
export function loggedResultIds(store: Pick<StoreReader, 'sql' | 'hasMnemo'>, queries: readonly string[], k: number): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const unique = [...new Set(queries)];
  if (!store.hasMnemo() || !store.sql.hasTable(EVENTS) || unique.length === 0) return out;
  const marks = unique.map(() => '?').join(',');
  // Its text holds one placeholder per query: prepared for this call alone, not kept in a statement cache.
  const rows = store.sql.all(
    oneOff(`SELECT DISTINCT query, memory_id FROM ${store.sql.table(EVENTS)} WHERE channel IN ${RECALL_CHANNELS} AND rank < ? AND query IN (${marks})`, [k, ...unique]),
  );
  for (const r of rows) {
    const ids = out.get(r['query'] as string);
    if (ids) ids.push(r['memory_id'] as string);
    else out.set(r['query'] as string, [r['memory_id'] as string]);
  }
  return out;
}
