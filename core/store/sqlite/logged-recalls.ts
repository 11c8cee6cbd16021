/**
 * The store's logged recalls as a query set (the Scorer lab): each distinct query a reader asked
 * through recall or search, with when and how often, the scope it ran under, and the memories that
 * recall returned (the lab's stand-in relevance labels until the "used later" rule lands).
 */
import { connectionOf, statementOf } from './connection.js';
import { hasEventTable } from './access-events.js';
import { jsonField } from './json-sql.js';
import { hasMigration } from './migrations.js';
import type { RowSource } from '../shared/store-handle.js';

export interface LoggedRecall {
  query: string;
  reader_owner: string;
  /** The owner scope the latest of these recalls ran under (null: everyone, or not logged). */
  scope: string | null;
  /** How many accesses (one per returned memory) the query logged. */
  accesses: number;
  first_ts: number;
  last_ts: number;
}

const RECALL_CHANNELS = "('recalled', 'searched')";

function readable(store: RowSource & { hasMnemo(): boolean }): boolean {
  return store.hasMnemo() && hasEventTable(connectionOf(store));
}

/** Distinct logged recall queries, most recent first. */
export function loggedRecalls(store: RowSource & { hasMnemo(): boolean }, limit: number): LoggedRecall[] {
  if (!readable(store)) return [];
  const scope = hasMigration(connectionOf(store), '003-access-context') ? `MAX(${jsonField('context', '$.owner')})` : 'NULL';
  return statementOf(
    store,
    `SELECT query, reader_owner, ${scope} AS scope, count(*) AS accesses, MIN(ts) AS first_ts, MAX(ts) AS last_ts
     FROM mnemo_access_events
     WHERE channel IN ${RECALL_CHANNELS} AND query IS NOT NULL AND query != ''
     GROUP BY query, reader_owner ORDER BY last_ts DESC LIMIT ?`,
  ).all(limit) as LoggedRecall[];
}

/**
 * For each query, the memories its logged recalls returned within the top k (rank is 0-based), by
 * any reader. One pass over the events for all the queries: the table has no index on query, and
 * one scan per query would cost a scan each on a store with millions of accesses.
 */
export function loggedResultIds(store: RowSource & { hasMnemo(): boolean }, queries: readonly string[], k: number): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const unique = [...new Set(queries)];
  if (!readable(store) || unique.length === 0) return out;
  const marks = unique.map(() => '?').join(',');
  const rows = connectionOf(store)
    .prepare(`SELECT DISTINCT query, memory_id FROM mnemo_access_events WHERE channel IN ${RECALL_CHANNELS} AND rank < ? AND query IN (${marks})`)
    .all(k, ...unique) as { query: string; memory_id: string }[];
  for (const r of rows) {
    const ids = out.get(r.query);
    if (ids) ids.push(r.memory_id);
    else out.set(r.query, [r.memory_id]);
  }
  return out;
}
