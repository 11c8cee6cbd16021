/**
 * Runs the neighbour join on several cores: the arrays live in SharedArrayBuffers, each worker
 * thread owns every W-th vector (the cost of vector i grows with i, so striding balances the
 * load), and the pairs come back as transferred buffers. Small inputs, or a machine with one core,
 * run the same kernel on the calling thread. The worker evaluates the kernel's own source text, so
 * there is no second implementation and no worker file to locate at run time.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { joinKernel, type JoinArrays, type JoinOutput } from './join-kernel.js';

/** Below this many vectors, starting threads costs more than it saves (measured: 10k gains). */
export const PARALLEL_MIN = 5_000;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
var __name = function (f) { return f; };
const joinKernel = ${joinKernel.toString()};
const out = joinKernel(workerData.arrays, workerData.offset, workerData.stride, workerData.stop);
const pi = out.pi.slice(0, out.np), pj = out.pj.slice(0, out.np), pc = out.pc.slice(0, out.np);
parentPort.postMessage({ pi, pj, pc, np: out.np, bounded: out.bounded, exact: out.exact, postings: out.postings, stopped: out.stopped }, [pi.buffer, pj.buffer, pc.buffer]);
`;

export function defaultWorkers(n: number): number {
  if (n < PARALLEL_MIN) return 1;
  return Math.max(1, Math.min(4, availableParallelism()));
}

/** Joins with `workers` threads (1 = on this thread); `shouldStop` is polled while workers run. */
export async function runJoin(arrays: JoinArrays, workers: number, shouldStop?: () => boolean): Promise<JoinOutput[]> {
  const stop = new Int32Array(new SharedArrayBuffer(4));
  if (workers <= 1) return [joinKernel(arrays, 0, 1, shouldStopFlag(stop, shouldStop))];
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
            const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { arrays, offset: w, stride: workers, stop } });
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
 * The single-threaded kernel checks `stop[0]` every 1024 rows; a getter-backed view lets it ask the
 * callback at those moments without threads.
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
