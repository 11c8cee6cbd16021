/**
 * A worker extension for the engine host's tests (core/host/worker-extension.ts): it holds its
 * worker's thread, synchronously, as a long stretch of engine work does, so a test can see what
 * the host answers meanwhile without the worker.
 *   test.hold {ms}: busy for ms, then null.
 *   test.job {steps, stepMs}: a long write job (write-job.ts) that never yields: each step reports
 *   its progress and checks for a cancel, then is busy for stepMs; returns the step it stopped at.
 *   test.exit: the worker thread ends, as one that crashed.
 *   test.priority: the nice value of the worker's thread.
 *   test.ticks: how many times a 10 ms timer of the worker has run since it started.
 */
import { getPriority } from 'node:os';
import { writeJobOf } from '../../core/api/handlers/shared/write-job.js';
import type { WorkerExtensionContext } from '../../core/host/worker-extension.js';

function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    /* the thread is held, as by a long synchronous step */
  }
}

export function register(ctx: WorkerExtensionContext): void {
  let ticks = 0;
  setInterval(() => (ticks += 1), 10).unref();
  ctx.handle('test.ticks', () => ticks);
  ctx.handle('test.hold', (p) => {
    busy((p as { ms: number }).ms);
    return null;
  });
  ctx.handle('test.exit', () => process.exit(3));
  ctx.handle('test.priority', () => getPriority(0));
  ctx.handle('test.job', (p) => {
    const { steps, stepMs } = p as { steps: number; stepMs: number };
    return writeJobOf(ctx.session.engine()).run('test.job', true, async (job) => {
      for (let i = 0; i < steps; i++) {
        if (job.cancelled()) return { stopped_at: i };
        job.progress(i, steps, 'apply');
        busy(stepMs);
      }
      return { stopped_at: null };
    });
  });
}
