/**
 * store.runs on PostgreSQL: the methods written so far, and the rest listed (the compiler checks
 * the list against the interface), each throwing `unsupported` naming itself.
 */
import type { IngestRuns } from '../shared/ingest-runs.js';
import type { JournalRuns } from '../shared/journal-runs.js';
import type { StoreRuns } from '../port/port.js';
import { notYetGroup } from './pg-not-yet.js';

/**
 * What of store.runs is written: the long changes (journal-runs.ts) and ingest runs
 * (ingest-runs.ts), both shared with SQLite, the credential writes (each in the store's
 * transaction), the bulk load, and the change feed's retention (pg-feed-retention.ts).
 */
export interface PgRunsWritten extends JournalRuns, IngestRuns {
  insertCredential: StoreRuns['insertCredential'];
  markRevoked: StoreRuns['markRevoked'];
  beginBulkLoad: StoreRuns['beginBulkLoad'];
  setFeedRetention: StoreRuns['setFeedRetention'];
  pruneFeed: StoreRuns['pruneFeed'];
  erase: StoreRuns['erase'];
}

export function pgRuns(written: PgRunsWritten): StoreRuns {
  const notYet = notYetGroup<Omit<StoreRuns, keyof PgRunsWritten>>('runs', {});
  return { ...notYet, ...written };
}
