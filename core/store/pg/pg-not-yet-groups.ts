/**
 * The port's groups the PostgreSQL adapter does not implement yet, each method listed (the
 * compiler checks every list against its interface): calling one throws `unsupported` naming it.
 * A group moves out of here, method by method, as the adapter grows.
 */
import type { JournalWrites, StoreRuns } from '../port.js';
import { notOnPostgresYet, notYetGroup } from './pg-not-yet.js';

export function pgRunsNotYet(): StoreRuns {
  return notYetGroup<StoreRuns>('runs', {
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
    insertCredential: true,
    markRevoked: true,
    beginBulkLoad: true,
  });
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
