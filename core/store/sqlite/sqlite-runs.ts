/**
 * The SQLite adapter's side of the port's long changes and bulk writes (port.ts, `StoreRuns`):
 * each method hands the store to the module that holds the SQL (the long changes shared with
 * PostgreSQL in journal-runs, and ingest-run, bulk-load, feed-retention, agent-credentials, and the
 * erase in shared/erase-run.ts over sqlite-erase.ts).
 * Only the writer has them.
 */
import { insertCredential, markRevoked } from './agent-credentials.js';
import { beginBulkLoad } from './bulk-load.js';
import { pruneFeed, setFeedRetention } from './feed-retention.js';
import { ingestRuns } from '../shared/ingest-runs.js';
import { runErase, type EraseStore } from '../shared/erase-run.js';
import { journalRuns } from '../shared/journal-runs.js';
import type { StoreRuns } from '../port/port.js';
import { sqliteIngestSql } from './sqlite-ingest-sql.js';
import { sqliteEraseBackend } from './sqlite-erase.js';

export function sqliteRuns(store: EraseStore & { count(scope: { includeArchived?: boolean }): number }): StoreRuns {
  const erasing = sqliteEraseBackend(store);
  return {
    ...journalRuns(store),

    ...ingestRuns(store, sqliteIngestSql(store)),

    setFeedRetention: (policy) => setFeedRetention(store, policy),
    pruneFeed: (now, pacing) => pruneFeed(store, now, pacing),

    insertCredential: (c) => insertCredential(store, c),
    markRevoked: (ids, now) => markRevoked(store, ids, now),

    beginBulkLoad: () => beginBulkLoad(store),

    erase: (plan, opts, pacing) => runErase(store, erasing, plan, opts, pacing),
  };
}
