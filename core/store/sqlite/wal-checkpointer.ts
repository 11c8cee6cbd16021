/**
 * Moves a store's WAL into its file from a thread of its own, so the connections that answer
 * people and agents never do it.
 *
 * SQLite checkpoints on a commit: the connection whose commit takes the WAL past
 * `wal_autocheckpoint` pages (1,000 by default) copies every page in it into the file and syncs
 * the file, before its commit returns. A recall's accesses rewrite about sixty pages (nooa's ring
 * lives in each memory's row), so at 100k with eight agents an agent's worker paid for a
 * checkpoint every few dozen recalls, and every agent queued behind that worker waited it out
 * (measured on a scratch file with that write pattern: p99 of a ten-access transaction 14 to 21 ms
 * with the connection's own checkpoints, 2 to 5 ms without). During another session's reflection
 * the pages to copy are the reflection's too.
 *
 * So a connection opened with `walCheckpoints: 'background'` (the engine host's serving lanes)
 * starts this thread, which runs a PASSIVE checkpoint every few milliseconds while the WAL grows,
 * on its own connection: PASSIVE never takes the write lock and never waits for readers or
 * writers, so nobody waits on it. The connection keeps an automatic checkpoint far above what this
 * thread lets the WAL reach (BACKSTOP_PAGES), so a WAL nobody checkpoints (this thread failed) is
 * still bounded, as before, only later.
 *
 * The thread runs plain JavaScript given as text (as reclaim-worker.ts does: a TypeScript worker
 * cannot be started under the test runner's loader), with the same better-sqlite3 addon.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The automatic checkpoint of a connection whose checkpoints run here: 64 MiB of 4 KiB pages. */
export const BACKSTOP_PAGES = 16_384;

/** How often the thread looks while the WAL's frame counts move, and while they stand still. */
const BUSY_MS = 100;
const IDLE_MS = 1_000;

const PROGRAM = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.betterSqlite3);
let db = null;
let timer = null;
let last = '';
const stop = () => {
  if (timer) clearTimeout(timer);
  timer = null;
  try { if (db) db.close(); } catch {}
  db = null;
};
parentPort.on('message', (m) => { if (m === 'stop') { stop(); parentPort.close(); } });
const tick = () => {
  timer = null;
  let growing = false;
  try {
    // busy: another connection was checkpointing (its own commit's, or an erase's); log: the WAL's
    // pages; checkpointed: how many of them are in the file now. A WAL that was checkpointed keeps
    // its frames until the next writer starts it over, so what tells a WAL in use from a quiet one
    // is whether the counts moved since the last look, not whether they are zero.
    const r = db.pragma('wal_checkpoint(PASSIVE)')[0];
    const counts = r.log + '/' + r.checkpointed;
    growing = counts !== last;
    last = counts;
  } catch (err) {
    parentPort.postMessage({ failed: String((err && err.message) || err) });
    stop();
    return;
  }
  if (workerData.reportLooks) parentPort.postMessage({ look: growing });
  timer = setTimeout(tick, growing ? workerData.busyMs : workerData.idleMs);
};
try {
  db = new Database(workerData.path, { fileMustExist: true, ...(workerData.binding ? { nativeBinding: workerData.binding } : {}) });
  timer = setTimeout(tick, workerData.busyMs);
} catch (err) {
  parentPort.postMessage({ failed: String((err && err.message) || err) });
  stop();
}
`;

/** Whether a connection opened with these options leaves its checkpoints to a thread of the store's: the one place that says so, for the connection's pragma and for the store that starts the thread. */
export function checkpointsInBackground(path: string, opts: { walCheckpoints?: 'self' | 'background'; readonly?: boolean }): boolean {
  return opts.walCheckpoints === 'background' && path !== ':memory:' && opts.readonly !== true;
}

export interface WalCheckpointer {
  /** Ends the thread (its connection closes); the store's own connection is untouched. */
  stop(): void;
}

/**
 * Starts checkpointing the WAL of the file at `path` from a thread of its own. `onFailure` hears
 * why it stopped on its own (the file went away, the addon failed to load); the connection's
 * backstop checkpoint goes on from then. `onLook` hears each look and whether the WAL had moved
 * since the last (for a test of how often it looks).
 */
export function startWalCheckpointer(path: string, binding: string | undefined, onFailure: (message: string) => void, onLook?: (walMoved: boolean) => void): WalCheckpointer {
  const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');
  const workerData = { path, binding, betterSqlite3, busyMs: BUSY_MS, idleMs: IDLE_MS, reportLooks: onLook !== undefined };
  const worker = new Worker(PROGRAM, { eval: true, workerData, name: 'WAL checkpointer' });
  // It never keeps a process alive: a process that ends without closing its store just ends.
  worker.unref();
  worker.on('message', (m: { failed?: string; look?: boolean }) => {
    if (m.failed) onFailure(m.failed);
    else if (m.look !== undefined) onLook?.(m.look);
  });
  worker.on('error', (err) => onFailure(err.message));
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      worker.postMessage('stop');
    },
  };
}
