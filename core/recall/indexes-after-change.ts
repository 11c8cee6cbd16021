/**
 * After a long change (a reflection apply, the undo or redo of one), every other process on the
 * store is further behind than a catch-up from the change feed is worth (CATCH_UP_FEED_LIMIT),
 * so its next recall would rebuild its indexes: 16-22 s at 100k memories for an agent that had
 * answered within a second all through the change. Before the change's marker clears (while the
 * others still answer from their indexes as they were), the process that wrote it brings its own
 * indexes up to date, writes their snapshots and announces them in the marker; it then keeps the
 * marker a few seconds, while the others load the snapshots into second copies between their
 * calls (store/derived/index-handoff.ts), so that their first call after the change only swaps them in.
 */
import type { Engine } from '../engine/engine.js';
import type { FinishControl } from '../model/job-phase.js';
import { rankRequest } from './explain.js';
import { resolveRequest } from './request.js';
import { CATCH_UP_FEED_LIMIT } from '../store/port/feed-position.js';
import { announceSnapshots, handoffHoldMs } from '../store/derived/index-handoff.js';

export interface IndexHandoffOptions {
  /** Feed rows the change must have written for the hand-over to be worth it (default: what a catch-up reads before it gives up). */
  minRows?: number;
  /** How long to keep the marker after announcing the snapshots (default: handoffHoldMs of the time the snapshots took to write; 0: clear at once). */
  holdMs?: number;
  /**
   * Have the other workers of this process hold their indexes back for the whole change, as other
   * processes do (run-marker.ts `hands_over`): an agent's reflect, beside other agents. Left out,
   * they follow it batch by batch, as `mnemo serve`'s workbench views do while it commits or undoes
   * (the list, the graph and the badge move as the change goes).
   */
  holdOthersBack?: boolean;
}

/**
 * A `beforeFinish` hook for a long change starting now. It acts only when the change wrote more
 * feed rows than `minRows`.
 */
export function leaveIndexesCurrent(engine: Engine, opts: IndexHandoffOptions = {}): ((ctl?: FinishControl) => Promise<void>) & { readonly handsOverIndexes: boolean } {
  const minRows = opts.minRows ?? CATCH_UP_FEED_LIMIT;
  const start = engine.store.feedPosition();
  // Without a sidecar it can write, nothing is left for the others: they had better follow the run.
  const handsOverIndexes = opts.holdOthersBack === true && start !== null && engine.indexSnapshots.sidecar()?.writable === true;
  const hook = async (ctl: FinishControl = { cancelled: () => false, progress: () => {} }) => {
    const end = engine.store.feedPosition();
    if (!start || !end || end.epoch !== start.epoch || end.seq - start.seq <= minRows) return;
    if (!engine.indexSnapshots.sidecar()?.writable) return;
    ctl.progress(0, 2, 'handover');
    // A ranking reads (building or patching) every index the store's profile uses, and logs nothing.
    rankRequest(engine, resolveRequest(engine, { query: 'index refresh' }, { k: 1 }));
    // A duration for pacing the hand-over, not a time the logic records: the monotonic timer.
    const writeStarted = performance.now();
    ctl.progress(1, 2, 'handover');
    engine.indexSnapshots.persistAllNow();
    ctl.progress(2, 2, 'handover');
    // Announced: where the change's rows end, not how far this process has heard since. The indexes
    // were read one after another while agents kept committing, so each snapshot stands at its own
    // position, all at or past `end`; the others take any snapshot at or past what they are told
    // (DerivedSnapshot.restoreAt) and patch the rest from the feed. Announcing the furthest position
    // heard made every snapshot read before the last commit look too old: at 100k, the agent then
    // rebuilt four of its six indexes on its first call after the change (3.4 s).
    if (!announceSnapshots(engine.store, end)) return;
    const holdMs = opts.holdMs ?? handoffHoldMs(performance.now() - writeStarted);
    // The hold is a courtesy to the others (up to INDEX_HANDOFF_MAX_MS): a cancel cuts it short,
    // since the change it holds for is about to be taken back. Reported in seconds of the hold.
    const holdStart = performance.now();
    const holdS = Math.round(holdMs / 100) / 10;
    for (;;) {
      const held = performance.now() - holdStart;
      ctl.progress(Math.min(holdS, Math.round(held / 100) / 10), holdS, 'hold');
      if (held >= holdMs || ctl.cancelled()) break;
      await new Promise((resolve) => setTimeout(resolve, Math.min(HOLD_LOOK_MS, holdMs - held)));
    }
  };
  return Object.assign(hook, { handsOverIndexes });
}

/** How often a hold looks for a cancel. */
const HOLD_LOOK_MS = 50;
