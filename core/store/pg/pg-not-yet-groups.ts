/**
 * store.runs on PostgreSQL: the methods written so far, and the rest listed (the compiler checks
 * the list against the interface), each throwing `unsupported` naming itself.
 */
import type { StoreRuns } from '../port.js';
import { notYetGroup } from './pg-not-yet.js';

/** What of store.runs is written: the credential writes (each in the store's transaction) and the bulk load. */
export interface PgRunsWritten {
  insertCredential: StoreRuns['insertCredential'];
  markRevoked: StoreRuns['markRevoked'];
  beginBulkLoad: StoreRuns['beginBulkLoad'];
}

export function pgRuns(written: PgRunsWritten): StoreRuns {
  const notYet = notYetGroup<Omit<StoreRuns, keyof PgRunsWritten>>('runs', {
    changeRun: true,
    pacer: true,
    recoverDeadRun: true,
    undoInBatches: true,
    redoInBatches: true,
    undoWithDependents: true,
    beginIngestRun: true,
    noteIngestBatch: true,
    foreignDeltaDimensions: true,
    clearIngestRun: true,
    rollbackIngestRun: true,
    setFeedRetention: true,
    pruneFeed: true,
  });
  return { ...notYet, ...written };
}
