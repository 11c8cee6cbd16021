/**
 * What a long job and the thread that hosts it tell each other when the engine runs in a worker
 * (core/host/engine-worker.ts): the host's cancel of a call, and the job's news that its progress
 * moved. Both must work while the job holds its thread: a job checks between items, synchronously,
 * so a cancel cannot wait for a message the worker's event loop would only read once the job
 * yields. The host therefore writes the ids of the calls it cancels into shared memory (a board of
 * slots), and the job reads them there; news go the other way as a plain callback the worker posts
 * from (posting needs no free event loop).
 *
 * One engine session per thread, so the state here is per thread. Without a host (the CLI, tests,
 * the library) no call is current, nothing is ever cancelled, and news go nowhere.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Slot 0 counts the cancels ever written; slots 1… hold the latest cancelled call ids, in turn. */
export const CANCEL_BOARD_SLOTS = 64;

const currentCall = new AsyncLocalStorage<number>();
let board: Int32Array | null = null;
/** Cancels this thread has read from its messages (a board slot may since have been reused). */
const cancelledHere = new Set<number>();
let newsListener: (() => void) | null = null;

/** A board for the host to write and a worker to read (SharedArrayBuffer: the same memory on both threads). */
export function newCancelBoard(): SharedArrayBuffer {
  return new SharedArrayBuffer(4 * (CANCEL_BOARD_SLOTS + 1));
}

/** The host's side: records that call `id` is cancelled, visible to the worker at once. */
export function writeCancel(buffer: SharedArrayBuffer, id: number): void {
  const slots = new Int32Array(buffer);
  const n = Atomics.add(slots, 0, 1);
  Atomics.store(slots, 1 + (n % CANCEL_BOARD_SLOTS), id);
}

/** The worker's side: reads cancels from this board from now on. */
export function readCancelsFrom(buffer: SharedArrayBuffer): void {
  board = new Int32Array(buffer);
}

/** The worker's side, once the host's cancel message is read: remembered past the board's reuse of its slot. */
export function noteCancelled(id: number): void {
  cancelledHere.add(id);
}

/** Runs `fn` as call `id`: everything it starts, synchronous or not, sees that id in callCancelled(). */
export function runAsCall<T>(id: number, fn: () => T): T {
  return currentCall.run(id, fn);
}

/** Forgets a finished call's cancel. */
export function callEnded(id: number): void {
  cancelledHere.delete(id);
}

/** Whether the host cancelled the call this code runs for (its client went away, a window closed, a cancel was asked). */
export function callCancelled(): boolean {
  const id = currentCall.getStore();
  if (id === undefined) return false;
  if (cancelledHere.has(id)) return true;
  if (!board) return false;
  const written = Math.min(Atomics.load(board, 0), CANCEL_BOARD_SLOTS);
  for (let i = 1; i <= written; i++) if (Atomics.load(board, i) === id) return true;
  return false;
}

/** A long job's progress moved (or it started or ended): the host's mirror of it is brought up to date. */
export function jobNews(): void {
  newsListener?.();
}

/** The worker's side: who hears jobNews (one listener per thread). */
export function onJobNews(listener: (() => void) | null): void {
  newsListener = listener;
}
