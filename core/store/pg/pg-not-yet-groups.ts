/**
 * The port's groups the PostgreSQL adapter implements only in part (runs) or not yet (the journal),
 * each missing method listed (the compiler checks every list against its interface): calling one
 * throws `unsupported` naming it. A method moves out of the lists as the adapter grows.
 */
import type { JournalWrites, StoreRuns } from '../port.js';
import { notOnPostgresYet, notYetGroup } from './pg-not-yet.js';

/** What of store.runs is written: the credential writes, each run in the store's transaction. */
export interface PgRunsWritten {
  insertCredential: StoreRuns['insertCredential'];
  markRevoked: StoreRuns['markRevoked'];
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
    beginBulkLoad: true,
  });
  return { ...notYet, ...written };
}

/**
 * The journal: nothing is journalled on PostgreSQL yet (store.change throws too), so `capture`,
 * which is a no-op outside a change on SQLite, is one here as well; every read and undo throws.
 */
export function pgJournalNotYet(): JournalWrites {
  const methods = notYetGroup<Omit<JournalWrites, 'kinds' | 'capture'>>('journal', { history: true, get: true, rows: true, dependents: true, undo: true, redo: true });
  return {
    ...methods,
    capture: () => {},
    get kinds(): string[] {
      throw notOnPostgresYet('journal.kinds');
    },
  };
}
