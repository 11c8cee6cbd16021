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
 */

/** Slot 0: how many long changes of this process want the lock now; slot 1: the store they write. */
const SLOTS = 2;

let board = new Int32Array(new SharedArrayBuffer(4 * SLOTS));

/** A worker's side: shares the board its host made (core/host/host-protocol.ts COURTESY_BOARD_BYTES). */
export function useCourtesyBoard(buffer: SharedArrayBuffer): void {
  if (buffer.byteLength < 4 * SLOTS) throw new Error(`a write-courtesy board needs ${4 * SLOTS} bytes, got ${buffer.byteLength}`);
  board = new Int32Array(buffer);
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
