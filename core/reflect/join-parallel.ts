/**
 * Runs the neighbour join on several cores: the layout lives in one shared WebAssembly memory, each
 * worker thread instantiates the kernel over it and owns every W-th probe row (the cost of row i
 * grows with i, so striding balances the load), and the pairs come back as transferred buffers.
 * Small inputs, or a machine with one core, run the same driver on the calling thread. The worker
 * evaluates the driver's own source text, so there is no second implementation and no worker file
 * to locate at run time.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { runJoinSlice, type JoinOutput } from './join-kernel.js';
import { JOIN_KERNEL_WASM_BASE64 } from './join-kernel-wasm.js';
import type { JoinLayout } from './join-layout.js';

/** Below this many vectors, starting threads costs more than it saves (measured: 10k gains). */
export const PARALLEL_MIN = 5_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
var __name = function (f) { return f; };
const runJoinSlice = ${runJoinSlice.toString()};
const out = runJoinSlice(workerData.layout, workerData.wasm, workerData.worker, workerData.workers, workerData.stop, workerData.progress);
parentPort.postMessage(out, [out.pi.buffer, out.pj.buffer, out.pc.buffer]);
`;

export function defaultWorkers(n: number): number {
  if (n < PARALLEL_MIN) return 1;
  return Math.max(1, Math.min(4, availableParallelism()));
}

/** How many row probes the whole join makes: every group is probed by the rows from its start on. */
export function joinRowProbes(layout: Pick<JoinLayout, 'n' | 'groups' | 'groupSize'>): number {
  let total = 0;
  for (let g = 0; g < layout.groups; g++) total += Math.max(0, layout.n - g * layout.groupSize);
  return total;
}

/**
 * Joins with `workers` threads (1 = on this thread). While workers run, `shouldStop` is polled and
 * `onProgress` hears the row probes done so far out of `joinRowProbes(layout)`; on one thread the
 * join blocks this thread, so progress is only reported at the end.
 */
export async function runJoin(layout: JoinLayout, workers: number, shouldStop?: () => boolean, onProgress?: (done: number, total: number) => void): Promise<JoinOutput[]> {
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const progress = new Int32Array(new SharedArrayBuffer(4));
  const total = joinRowProbes(layout);
  if (workers <= 1) {
    const out = [runJoinSlice(layout, JOIN_KERNEL_WASM_BASE64, 0, 1, shouldStopFlag(stop, shouldStop), progress)];
    onProgress?.(Atomics.load(progress, 0), total);
    return out;
  }
  // A stop asked for already is honoured before any worker starts: the first poll comes 50 ms in,
  // and a small join (or a busy main thread) can finish before it, as if no stop had been asked.
  if (shouldStop?.()) Atomics.store(stop, 0, 1);
  const poll =
    shouldStop || onProgress
      ? setInterval(() => {
          if (shouldStop?.()) Atomics.store(stop, 0, 1);
          onProgress?.(Atomics.load(progress, 0), total);
        }, 50)
      : null;
  let out: JoinOutput[];
  try {
    out = await Promise.all(
      Array.from(
        { length: workers },
        (_, w) =>
          new Promise<JoinOutput>((resolve, reject) => {
            const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { layout, wasm: JOIN_KERNEL_WASM_BASE64, worker: w, workers, stop, progress } });
            worker.once('message', (m: JoinOutput) => {
              resolve(m);
              void worker.terminate();
            });
            worker.once('error', reject);
            worker.once('exit', (code) => {
              if (code !== 0) reject(new Error(`neighbour join worker exited with code ${code}`));
            });
          }),
      ),
    );
  } finally {
    if (poll) clearInterval(poll);
  }
  onProgress?.(Atomics.load(progress, 0), total);
  return out;
}

/**
 * The single-threaded driver checks `stop[0]` between kernel calls; a getter-backed view lets it
 * ask the callback at those moments without threads.
 */
function shouldStopFlag(stop: Int32Array, shouldStop?: () => boolean): Int32Array {
  if (!shouldStop) return stop;
  return new Proxy(stop, {
    get(target, prop, receiver) {
      if (prop === '0') return shouldStop() ? 1 : 0;
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}
