/**
 * The SQLite adapter's side of the port's long changes and bulk writes (port.ts, `StoreRuns`):
 * each method hands the store to the module that holds the SQL (change-run, undo-group,
 * ingest-run, bulk-load, feed-retention, agent-credentials). Only the writer has them.
 */
import { insertCredential, markRevoked } from './agent-credentials.js';
import { beginBulkLoad } from './bulk-load.js';
import { ChangeRun, Pacer, recoverDeadRun, redoInBatches, undoInBatches } from './change-run.js';
import { pruneFeed, setFeedRetention } from './feed-retention.js';
import { beginIngestRun, clearIngestRun, foreignDeltaDimensions, noteIngestBatch, rollbackIngestRun } from './ingest-run.js';
import type { JournalledStore } from './journal.js';
import type { StoreRuns } from './port.js';
import { undoWithDependents } from './undo-group.js';

export function sqliteRuns(store: JournalledStore & { count(scope: { includeArchived?: boolean }): number }): StoreRuns {
  return {
    changeRun: (label, kind, meta, atLock) => new ChangeRun(store, label, kind, meta, atLock),
    pacer: (pacing) => new Pacer(store, pacing),
    recoverDeadRun: () => recoverDeadRun(store),
    undoInBatches: (changeId, pacing, onProgress, beforeFinish) => undoInBatches(store, changeId, pacing, onProgress, beforeFinish),
    redoInBatches: (changeId, pacing, onProgress, beforeFinish) => redoInBatches(store, changeId, pacing, onProgress, beforeFinish),
    undoWithDependents: (changeId, opts) => undoWithDependents(store, changeId, opts),

    beginIngestRun: () => beginIngestRun(store),
    noteIngestBatch: (m, first, last) => noteIngestBatch(store, m, first, last),
    foreignDeltaDimensions: (m) => foreignDeltaDimensions(store, m),
    clearIngestRun: () => clearIngestRun(store),
    rollbackIngestRun: (m) => rollbackIngestRun(store, m),

    setFeedRetention: (policy) => setFeedRetention(store, policy),
    pruneFeed: (now, pacing) => pruneFeed(store, now, pacing),

    insertCredential: (c) => insertCredential(store, c),
    markRevoked: (ids, now) => markRevoked(store, ids, now),

    beginBulkLoad: () => beginBulkLoad(store),
  };
}
