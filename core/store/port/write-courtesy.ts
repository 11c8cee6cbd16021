/**
 * Courtesy between the writers of one process, in shared memory. SQLite has one write lock and no
 * queue for it. A long change's batch (a reflection applying, an undo, an erase) that finds the lock
 * taken sleeps in SQLite's busy handler and looks again after 1, 2, 5 … 100 ms, while agents'
 * access writes (a few milliseconds each, about ninety a second from eight agents at 100k) take it
 * in between. Beside eight agents at 100k the jobs worker's thread was found asleep in the busy
 * handler in half of its samples, and the reflect's apply crawled.
 *
 * So a long change says when it wants the lock (its batch, from trying to commit), and an access
 * write that may wait (sqlite-access-log.ts, `deferIfBusy`) is kept meanwhile instead of taking
 * the lock: it is written in the change's pause. Only within a process (the engine host makes one
 * board and hands it to every worker; without a host, each thread has its own), and only for the
 * store the change writes (by a hash of its path).
 *
 * The pause must be long enough for them. Beside eight agents at 100k, the accesses kept through
 * each batch came out of a 110 ms pause more slowly than they went in, the pile grew through the
 * apply, and the agents ended up waiting for the lock anyway (seconds at a time). So the workers
 * also count on the board the accesses they keep, and a long change's pause lasts, within a bound,
 * until they are written (change-run.ts, Pacer.between).
 */

/**
 * Word 0: how many long changes of this process want the lock now; word 1: the store they write;
 * from word 2, one per thread: how many accesses it keeps, to be written in a long change's pause
 * (one word each, so a thread that stops takes its count with it: the host clears its word).
 */
const FIRST_KEPT = 2;

let board = new Int32Array(new SharedArrayBuffer(4 * (FIRST_KEPT + 1)));
let ownKept = FIRST_KEPT;

/** A worker's side: shares the board its host made, counting its kept accesses in word `slot` of theirs (core/host/host-protocol.ts courtesyBoard). */
export function useCourtesyBoard(buffer: SharedArrayBuffer, slot: number): void {
  const words = buffer.byteLength / 4;
  if (!Number.isInteger(slot) || slot < 0 || FIRST_KEPT + slot >= words) throw new Error(`a write-courtesy board of ${buffer.byteLength} bytes has no word for worker ${slot}`);
  board = new Int32Array(buffer);
  ownKept = FIRST_KEPT + slot;
}

/** The key a store is known by on the board: an FNV-1a hash of its path (or URL). */
export function courtesyKey(path: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
  return h;
}

/** Says a long change wants the store's write lock until the returned release is called. */
export function wantWriteLock(key: number): () => void {
  Atomics.store(board, 1, key);
  Atomics.add(board, 0, 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    Atomics.sub(board, 0, 1);
  };
}

/** Whether a long change of this process wants this store's write lock now. */
export function writerWaiting(key: number): boolean {
  return Atomics.load(board, 0) > 0 && Atomics.load(board, 1) === key;
}

/** Counts accesses kept for a long change's pause (positive), or written or dropped (negative). */
export function noteKeptAccesses(delta: number): void {
  if (delta !== 0) Atomics.add(board, ownKept, delta);
}

/** How many accesses the workers of this process keep for a long change's pause, over all stores. */
export function keptAccesses(): number {
  let kept = 0;
  for (let i = FIRST_KEPT; i < board.length; i++) kept += Math.max(0, Atomics.load(board, i));
  return kept;
}
