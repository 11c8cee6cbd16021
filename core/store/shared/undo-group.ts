/**
 * "Undo this and the changes that depend on it" as one step. The group is the change plus every
 * later, still-applied change that depends on it (journal-dependents.ts); it is undone newest
 * first, so each undo meets the store exactly as the change after it left it.
 *
 * Why not always one transaction: a group's undo is as long as the sum of its changes, and one
 * undo of a 100k-row reflection pass is minutes of work; held as one transaction, it would lock
 * every agent out for those minutes, which is what change-run.ts exists to prevent. So:
 *
 * - A small group (the usual case: a few curation edits) is undone in ONE transaction. A failure
 *   anywhere rolls it all back in SQLite; nothing is half-undone, nothing to repair.
 * - A big group runs paced, like any long undo, under one run marker that queues the rest of the
 *   group. If a batch fails, or the user cancels, what the run already undid is rolled forward
 *   again (after-images written back, newest change last, each change marked applied again), so
 *   the store and the journal are as they were before the request. Rolling forward rather than finishing the undo:
 *   the failure may be anywhere in the group, and the user confirmed the whole group, not a part of
 *   it; the after-images being written back were in the store moments before, so they restore
 *   cleanly. If the process dies instead, the next writable open completes the run for the whole
 *   group (the queue is in the marker): that is the rule for every interrupted undo, and it also
 *   leaves no change half-undone.
 *
 * Redo stays per change: the group was undone newest first, so "redo the last undone" brings it back
 * in the original order, the change itself first, one change per redo.
 */
import { MnemoError } from '../../errors.js';
import type { JobProgressSink } from '../../model/job-phase.js';
import { batchBudget, pacingOf } from '../../model/run-pacing.js';
import { Pacer, refuseIfRunning, replayCancelled, replayStep, turnBack } from './change-run.js';
import { claimMarker, newMarker, runInProgress, setLiveRun } from './run-marker.js';
import type { JournalledStore } from './journal.js';
import type { ChangeSummary, GroupUndoOptions, GroupUndoResult } from '../port/store-rows.js';

/** Groups with at most this many journal rows are undone in one transaction (a few ms to a few hundred). */
export const ONE_TRANSACTION_ROWS = 200;

export async function undoWithDependents(store: JournalledStore, changeId: number, opts: GroupUndoOptions = {}): Promise<GroupUndoResult> {
  const limit = opts.oneTransactionRows ?? ONE_TRANSACTION_ROWS;
  let group: ChangeSummary[] = [];
  let total = 0;
  const doneInOne = store.transaction(() => {
    store.ensureMnemo();
    refuseIfRunning(store);
    group = store.journal.checkUndoWithDependents(changeId, opts.actorOwner);
    total = group.reduce((n, c) => n + c.rows, 0);
    if (total <= limit) {
      for (const c of group) {
        store.journal.writeImages(store.journal.rows(c.id), 'before', c.id);
        store.journal.markUndone(c.id);
      }
      return true;
    }
    const [first, ...queue] = group;
    claimMarker(store, { ...newMarker(store, first!.id, 'undo', first!.label, Number.MAX_SAFE_INTEGER), queue: queue.map((c) => c.id) });
    return false;
  });
  const ids = group.map((c) => c.id);
  if (doneInOne) {
    opts.onProgress?.(total, total, 'undo');
    return result(store, ids);
  }
  const p = pacingOf(opts.pacing);
  const pacer = new Pacer(store, p);
  const cancel = opts.shouldCancel ?? (() => false);
  let done = 0;
  // Where each row sat before the undo wrote it, so that a cancel puts it back byte for byte.
  const placements = new Map<string, unknown>();
  opts.onProgress?.(0, total, 'undo');
  setLiveRun(store, ids, true);
  try {
    for (;;) {
      if (cancel()) {
        pacer.end();
        await rollForward(store, ids, p, done, opts.onProgress, placements);
        throw replayCancelled('undo', store.journal.get(changeId));
      }
      if (await pacer.take(() => replayStep(store, 'undo', batchBudget(p), { onRows: (n) => opts.onProgress?.((done += n), total, 'undo'), keepPlacements: placements }))) break;
      await pacer.between();
    }
  } catch (err) {
    if (!(err instanceof MnemoError && err.details?.['cancelled'] === true)) await rollForward(store, ids, p, done, opts.onProgress, placements);
    throw err;
  } finally {
    pacer.end();
    setLiveRun(store, ids, false);
  }
  return result(store, ids);
}

function result(store: JournalledStore, ids: number[]): GroupUndoResult {
  const undone = ids.map((id) => store.journal.get(id));
  return { change: undone[undone.length - 1]!, undone };
}

/**
 * Takes back what a failed or cancelled group undo did: the rows already restored of the change it
 * stopped in, then each change it finished, the most recently undone first (so the original order
 * comes back), under one marker (change-run.ts, turnBack), so even this is safe against a crash.
 */
async function rollForward(store: JournalledStore, ids: number[], p: ReturnType<typeof pacingOf>, done: number, onProgress?: JobProgressSink, placements?: ReadonlyMap<string, unknown>): Promise<void> {
  const marker = runInProgress(store);
  if (!marker || marker.mode !== 'undo') return;
  const at = ids.indexOf(marker.change_id);
  const finished = ids.slice(0, Math.max(at, 0)).reverse();
  try {
    await turnBack(store, p, finished, done, (d, t) => onProgress?.(d, t, 'take-back'), placements);
  } catch (err) {
    throw new MnemoError(
      'internal',
      `the undo of change #${ids[ids.length - 1]} with the changes that depend on it failed, and putting back what it had undone failed too (${(err as Error).message}); History shows which changes are undone; the next open of the store finishes the step that was cut short`,
    );
  }
}
