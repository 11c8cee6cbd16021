/**
 * A long change written by another thread of this process (an engine host's jobs worker, beside the
 * workers that answer) is live to the other threads (core/store/shared/run-marker.ts): they hold
 * their views back until it ends and never "recover" it as a dead writer's; once that thread is
 * gone, its marker is a dead writer's. Each thread has its own copy of the module that knows which
 * runs this process drives, so before the marker named its thread, a run in the jobs worker looked
 * dead to every other worker of the same process.
 */
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { Worker } from 'node:worker_threads';
import { fixedClock } from '../../core/clock.js';
import { startWorker } from '../../core/host/worker-thread.js';
import { keptTableCounts } from '../../core/store/queries/counts.js';
import { recoverInterruptedRun } from '../../core/store/shared/change-run.js';
import { foreignRun, holdsIndexesBack, markerIsLive, runInProgress } from '../../core/store/shared/run-marker.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { expected, fixtureCopy } from '../../support/fixture.js';

const NOW = expected().now as number;
const CHANGE = 4242;
let worker: Worker | null = null;
let store: MemoryStore | null = null;
afterEach(async () => {
  await worker?.terminate();
  worker = null;
  store?.close();
  store = null;
});

async function said(w: Worker, word: string): Promise<void> {
  for (;;) {
    const [m] = (await once(w, 'message')) as [string];
    if (m === word) return;
  }
}

describe('a long change in another thread of this process', () => {
  it("is live while that thread runs (held back, never recovered), and a dead writer's once the thread has ended", async () => {
    const path = fixtureCopy();
    store = MemoryStore.open(path, { clock: fixedClock(NOW) });
    store.ensureMnemo();
    const before = keptTableCounts(store, NOW);
    expect(before.held).toBeNull();
    worker = startWorker(new URL('../helpers/run-writer-thread.ts', import.meta.url).href, { workerData: { path, now: NOW, changeId: CHANGE } });
    await said(worker, 'running');

    expect(runInProgress(store)?.change_id).toBe(CHANGE);
    expect(markerIsLive(store, runInProgress(store)!)).toBe(true);
    expect(foreignRun(store) !== null).toBe(true);
    // The indexes are patched batch by batch: this run leaves no snapshots at its end.
    expect(holdsIndexesBack(store)).toBe(false);
    // An open beside it (a worker started again, a store switch) leaves the run to its writer.
    expect(recoverInterruptedRun(store)).toBeNull();
    expect(runInProgress(store)?.change_id).toBe(CHANGE);

    // One of its batches lands: store.info's counts stay as they were until the change ends, and
    // say that they are held, for which change and since when (the badge shows it).
    worker.postMessage('commit');
    await said(worker, 'committed');
    const held = keptTableCounts(store, NOW + 60);
    expect(held.counts).toEqual(before.counts);
    expect(held.held).toMatchObject({ change_id: CHANGE, counted_at: NOW });
    // Polled again with no commit since: still held (the run goes on).
    expect(keptTableCounts(store, NOW + 61).held?.change_id).toBe(CHANGE);

    // The thread ends part-way: its marker is now a dead writer's, and the counts are read again.
    const exited = once(worker, 'exit');
    worker.postMessage('end');
    await exited;
    worker = null;
    expect(markerIsLive(store, runInProgress(store)!)).toBe(false);
    expect(foreignRun(store) !== null).toBe(false);
    expect(keptTableCounts(store, NOW + 120)).toEqual({ counts: { ...before.counts, edges: before.counts.edges - 1 }, held: null });
  }, 60_000);

  it('is held back by the other threads when it says it will hand its indexes over, and no longer once its thread has ended', async () => {
    const path = fixtureCopy();
    store = MemoryStore.open(path, { clock: fixedClock(NOW) });
    store.ensureMnemo();
    worker = startWorker(new URL('../helpers/run-writer-thread.ts', import.meta.url).href, { workerData: { path, now: NOW, changeId: CHANGE, handsOver: true } });
    await said(worker, 'running');
    expect(runInProgress(store)?.hands_over).toBe(true);
    expect(holdsIndexesBack(store)).toBe(true);
    const exited = once(worker, 'exit');
    worker.postMessage('end');
    await exited;
    worker = null;
    // A dead writer hands nothing over: the indexes follow the store again.
    expect(holdsIndexesBack(store)).toBe(false);
  }, 60_000);
});
