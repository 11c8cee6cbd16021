/**
 * After a long change (a reflection apply, the undo or redo of one), every other process on the
 * store is further behind than a catch-up from the change feed is worth (CATCH_UP_FEED_LIMIT),
 * so its next recall would rebuild its indexes: 16-22 s at 100k memories for an agent that had
 * answered within a second all through the change. Before the change's marker clears (while the
 * others still answer from their indexes as they were), the process that wrote it brings its own
 * indexes up to date and writes their snapshots; the others then load those.
 */
import type { Engine } from '../../../engine/engine.js';
import { rankRequest } from '../../../recall/explain.js';
import { resolveRequest } from '../../../recall/request.js';
import { CATCH_UP_FEED_LIMIT } from '../../../store/external-changes.js';

/**
 * A `beforeFinish` hook for a long change starting now. It acts only when the change wrote more
 * feed rows than `minRows` (default: what a catch-up reads before it gives up and rebuilds).
 */
export function leaveIndexesCurrent(engine: Engine, minRows = CATCH_UP_FEED_LIMIT): () => void {
  const start = engine.store.feedPosition();
  return () => {
    const end = engine.store.feedPosition();
    if (!start || !end || end.epoch !== start.epoch || end.seq - start.seq <= minRows) return;
    if (!engine.indexSnapshots.sidecar()?.writable) return;
    // A ranking reads (building or patching) every index the store's profile uses, and logs nothing.
    rankRequest(engine, resolveRequest(engine, { query: 'index refresh' }, { k: 1 }));
    engine.indexSnapshots.persistAllNow();
  };
}
