/**
 * The long changes of store.runs (port.ts, `StoreRuns`), one set for both adapters: a change
 * written in batches, undo and redo in batches, the undo of a change with its dependants, and the
 * recovery of a run a dead writer left. They write through the journal's statements
 * (journal.ts, JournalSql), so each backend supplies only those.
 */
import { ChangeRun, Pacer, recoverDeadRun, redoInBatches, undoInBatches } from './change-run.js';
import type { JournalledStore } from './journal.js';
import type { StoreRuns } from '../port/port.js';
import { undoWithDependents } from './undo-group.js';

export type JournalRuns = Pick<StoreRuns, 'changeRun' | 'pacer' | 'recoverDeadRun' | 'replayInBatches' | 'undoWithDependents'>;

export function journalRuns(store: JournalledStore): JournalRuns {
  return {
    changeRun: (label, kind, meta, atLock, handsOver) => new ChangeRun(store, label, kind, meta, atLock, handsOver),
    pacer: (pacing) => new Pacer(store, pacing),
    recoverDeadRun: () => recoverDeadRun(store),
    replayInBatches: (step, pacing, onProgress, beforeFinish, shouldCancel) =>
      'undo' in step ? undoInBatches(store, step.undo, pacing, onProgress, beforeFinish, shouldCancel) : redoInBatches(store, step.redo, pacing, onProgress, beforeFinish, shouldCancel),
    undoWithDependents: (changeId, opts) => undoWithDependents(store, changeId, opts),
  };
}
