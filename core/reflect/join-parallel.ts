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
const out = runJoinSlice(workerData.layout, workerData.wasm, workerData.worker, workerData.workers, workerData.stop);
parentPort.postMessage(out, [out.pi.buffer, out.pj.buffer, out.pc.buffer]);
`;

export function defaultWorkers(n: number): number {
  if (n < PARALLEL_MIN) return 1;
  return Math.max(1, Math.min(4, availableParallelism()));
}

/** Joins with `workers` threads (1 = on this thread); `shouldStop` is polled while workers run. */
export async function runJoin(layout: JoinLayout, workers: number, shouldStop?: () => boolean): Promise<JoinOutput[]> {
  const stop = new Int32Array(new SharedArrayBuffer(4));
  if (workers <= 1) return [runJoinSlice(layout, JOIN_KERNEL_WASM_BASE64, 0, 1, shouldStopFlag(stop, shouldStop))];
  const poll = shouldStop
    ? setInterval(() => {
        if (shouldStop()) Atomics.store(stop, 0, 1);
      }, 50)
    : null;
  try {
    return await Promise.all(
      Array.from(
        { length: workers },
        (_, w) =>
          new Promise<JoinOutput>((resolve, reject) => {
            const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { layout, wasm: JOIN_KERNEL_WASM_BASE64, worker: w, workers, stop } });
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
