/**
 * The hand-over of indexes at the end of a long change (a reflection apply, the undo or redo of
 * one). Such a change moves more of the store than a catch-up from the change feed reads, so every
 * other process would load its indexes afresh on its next call: seconds at 100k memories, for an
 * agent that answered within a second all through the change.
 *
 * So the writer, once every row is written and before its marker clears, leaves current index
 * snapshots and says so in the marker (`snapshots_at`). It then keeps the marker a little longer
 * (handoffHoldMs): the processes beside it, which keep answering from their indexes as they were
 * while a marker stands, load the new snapshots into second copies between their calls (derived.ts
 * `prepareAhead`). When the marker clears, their next call swaps the copy in and patches only what
 * changed since `snapshots_at`.
 */
import { runInProgress } from '../shared/run-marker.js';
import type { FeedPosition } from '../port/feed-position.js';
import { RUN_MARKER_KEY } from '../shared/journal.js';

/**
 * The least time the writer keeps its marker after announcing its snapshots. The others look at the
 * marker about once a second (IndexSnapshots.retryLater) and then load a snapshot per turn of their
 * event loop.
 */
export const INDEX_HANDOFF_MS = 5000;
/** The most: past this, a process still loading finishes on its next call. */
export const INDEX_HANDOFF_MAX_MS = 30_000;

/**
 * How long to hold, given how long the writer took to write the snapshots: reading them back costs
 * the others about as much, and more when the machine is loaded, which slows the writer alike. At
 * 100k on a loaded machine a fixed 5 s was too short (the agent's first call after the apply still
 * loaded what it had not reached: 3.4 s).
 */
export function handoffHoldMs(writeMs: number): number {
  return Math.min(INDEX_HANDOFF_MAX_MS, Math.max(INDEX_HANDOFF_MS, Math.round(2 * writeMs)));
}

/** Records in the standing marker that index snapshots current at `at` are in the sidecar. False when no marker stands. */
export function announceSnapshots(store: { getMeta(key: string): string | null; setMeta(key: string, value: string): void }, at: FeedPosition): boolean {
  const marker = runInProgress(store);
  if (!marker) return false;
  store.setMeta(RUN_MARKER_KEY, JSON.stringify({ ...marker, snapshots_at: { epoch: at.epoch, seq: at.seq } }));
  return true;
}

/** The position a standing marker's writer left snapshots at; null when no marker stands or it has not (yet). */
export function announcedSnapshots(store: { getMeta(key: string): string | null }): FeedPosition | null {
  const at = runInProgress(store)?.snapshots_at;
  return at && typeof at.epoch === 'string' && Number.isSafeInteger(at.seq) ? at : null;
}
