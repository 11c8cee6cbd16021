/**
 * A worker thread that lowers its own priority as the jobs lane does, starts a thread of its own (as
 * the neighbour join does) and reports the nice values both threads see, then exits.
 */
import { getPriority } from 'node:os';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../../core/host/thread-priority.js';

const outcome = lowerThisThreadPriority((workerData as { nice: number }).nice);
const inner = new Worker("require('node:worker_threads').parentPort.postMessage(require('node:os').getPriority(0))", { eval: true });
inner.once('message', (innerNice: number) => {
  parentPort!.postMessage({ outcome, own: getPriority(0), inner: innerNice });
  void inner.terminate();
});
