/**
 * How a long change (a reflection apply, an undo or redo in batches, a belief ingest, a feed prune)
 * shares the write lock: work per transaction, then a pause so waiting connections get the lock.
 * Pure numbers; the store's long-change machinery (store/shared/change-run.ts) runs on them.
 */
export interface RunPacing {
  /** Work per transaction before it commits. */
  batchMs?: number;
  /** Upper bound of items per transaction (tests use a small one to force many batches). */
  maxBatchItems?: number;
  /** Pause between transactions, so waiting connections get the lock. */
  pauseMs?: number;
}

/**
 * Why these numbers: a connection waiting for the write lock (an agent's add, a recall logging its
 * accesses) sleeps in SQLite's busy handler, in steps that grow to 100 ms. A pause shorter than
 * that step can fall between two of its looks, batch after batch, and the agent starves for
 * seconds; a pause a little longer than the step is seen by every waiter, so a waiting call gets
 * the lock within one batch plus one pause. The batch is long enough that the commit and the pause
 * cost about a third of the run's time.
 */
const DEFAULTS: Required<RunPacing> = { batchMs: 200, maxBatchItems: Number.MAX_SAFE_INTEGER, pauseMs: 110 };

/** The defaults, with whatever the caller set. */
export function pacingOf(p: RunPacing | undefined): Required<RunPacing> {
  return { ...DEFAULTS, ...(p ?? {}) };
}

/** A deadline for one transaction's work: the time budget or the item cap, whichever comes first. */
export function batchBudget(p: Required<RunPacing>): () => boolean {
  const until = performance.now() + p.batchMs;
  let items = 0;
  return () => ++items >= p.maxBatchItems || performance.now() >= until;
}

/**
 * A take-back after a cancel (a commit's batches rolled back, an undo or redo turned around):
 * someone is waiting for it to end, so its transactions are longer. A waiting connection still gets
 * the lock within one of them plus one pause (about half a second), but the take-back spends less
 * of its time committing and pausing, and so ends sooner. Item caps (tests) are kept.
 */
export const TAKE_BACK_BATCH_MS = 500;

export function takeBackPacing(p: Required<RunPacing>): Required<RunPacing> {
  return { ...p, batchMs: Math.max(p.batchMs, TAKE_BACK_BATCH_MS) };
}
