/**
 * The store's logged recalls as a query set (the Scorer lab): each distinct query a reader asked
 * through recall or search, with when and how often, the scope it ran under, and the memories that
 * recall returned (the lab's stand-in relevance labels until the "used later" rule lands).
 */
import { connectionOf, statementOf } from './connection.js';
import { hasEventTable } from './access-events.js';
import { jsonField } from '../shared/json-sql.js';
import { hasMigration } from './migrations.js';
import type { RowSource } from '../shared/store-handle.js';
import type { LoggedRecall } from '../port/event-rows.js';

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
