/**
 * The SQLite adapter's side of the port's long changes and bulk writes (port.ts, `StoreRuns`):
 * each method hands the store to the module that holds the SQL (the long changes shared with
 * PostgreSQL in journal-runs, and ingest-run, bulk-load, feed-retention, and the erase in
 * shared/erase-run.ts over sqlite-erase.ts).
 * Only the writer has them.
 */
import { beginBulkLoad } from './bulk-load.js';
import { pruneFeed } from './feed-retention.js';
import { ingestRuns } from '../shared/ingest-runs.js';
import { runErase, type EraseStore } from '../shared/erase-run.js';
import { journalRuns } from '../shared/journal-runs.js';
import type { StoreReader, StoreRuns } from '../port/port.js';
import { sqliteIngestSql } from './sqlite-ingest-sql.js';
import { sqliteEraseBackend } from './sqlite-erase.js';

export function sqliteRuns(store: EraseStore & Pick<StoreReader, 'sql'>): StoreRuns {
  const erasing = sqliteEraseBackend(store);
  return {
    ...journalRuns(store),

    ...ingestRuns(store, sqliteIngestSql(store)),

    pruneFeed: (now, pacing) => pruneFeed(store, now, pacing),

    beginBulkLoad: () => beginBulkLoad(store),

    erase: (plan, opts, pacing) => runErase(store, erasing, plan, opts, pacing),
  };
}
