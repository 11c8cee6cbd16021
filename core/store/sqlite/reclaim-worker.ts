/**
 * Makes the bytes an erase removed leave a SQLite file without holding the write lock for long,
 * in a worker thread, so the thread that answers people and agents keeps answering and other
 * processes' writes get the lock between its short transactions:
 *
 * 1. The erase's own deletes and updates already ran with `secure_delete = ON` (sqlite-erase.ts):
 *    each deleted cell was overwritten with zeros in its page, and each page it freed (a table's
 *    leaf, an overflow page of a long text) was zeroed as it went onto the freelist.
 * 2. The FTS5 index over belief evidence is merged (`optimize`): a deleted row's words stay in its
 *    old segments until a merge; the merge frees those segments (zeroed, secure_delete).
 * 3. The freelist is scrubbed: pages freed before (by a write that ran without secure_delete) may
 *    still hold old rows. A scratch table takes every free page, a few hundred per transaction,
 *    as zero-filled blobs (a page taken off the freelist is written whole), then gives them back
 *    a row per transaction with secure_delete on (each page zeroed again), and is dropped.
 * 4. `wal_checkpoint(TRUNCATE)` moves the zeroed pages into the file and empties the WAL, which
 *    held the old images of those pages. It is tried with a short busy timeout and retried: a
 *    checkpoint that waits for readers holds the write lock while it waits, so it never waits long.
 *
 * Why not VACUUM: it copies the whole file in one transaction (65 to 78 s for the 1 GB 100k demo
 * store), holding the write lock throughout; an agent's write waiting past its busy timeout failed
 * with "database is locked". What step 3 cannot reach, docs/erasing.md says: bytes a
 * delete left inside a page still in use, where that delete ran without secure_delete (the engine
 * runs with `secure_delete = FAST` since, which zeroes them; an older engine or another program
 * did not).
 *
 * The worker runs plain JavaScript given as text (as sync-pg.ts does: a TypeScript worker cannot
 * be started under the test runner's loader), with the same better-sqlite3 addon as the store.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface ReclaimReport {
  seconds: number;
  bytes_before: number;
  bytes_after: number;
  /** Free pages rewritten with zeros (step 3). */
  free_pages_zeroed: number;
  /** Write transactions the reclaim ran, and the longest of them (the longest any other writer could have waited on it). */
  transactions: number;
  longest_transaction_ms: number;
  problems: string[];
}

/** The worker's program; `workerData` is { path, binding, betterSqlite3, checkpointWaitMs, pagesPerTransaction, pauseMs }. */
const PROGRAM = `
const { workerData, parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const Database = require(workerData.betterSqlite3);
const size = (p) => { try { return fs.statSync(p).size; } catch { return 0; } };
const bytes = () => size(workerData.path) + size(workerData.path + '-wal');
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms) => Atomics.wait(sleeper, 0, 0, ms);
const problems = [];
const started = performance.now();
const before = bytes();
let transactions = 0;
let longest = 0;
let zeroed = 0;
const timed = (fn) => {
  const t0 = performance.now();
  const r = fn();
  const held = performance.now() - t0;
  longest = Math.max(longest, held);
  transactions++;
  // Other writers' busy handlers poll at growing intervals (up to 100 ms apart), not when the lock
  // frees: a pause as long as the lock was held (at least pauseMs) leaves the lock free at least half
  // the time, so a waiting writer's polls find it free rather than missing one short gap after another.
  sleep(Math.max(workerData.pauseMs, held));
  return r;
};
const SCRATCH = 'mnemo_erase_scrub';
const db = new Database(workerData.path, workerData.binding ? { nativeBinding: workerData.binding } : {});
try {
  db.pragma('busy_timeout = 5000');
  db.pragma('secure_delete = ON');
  const fts = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'mnemo_delta_fts'").get();
  if (fts) timed(() => db.exec("INSERT INTO mnemo_delta_fts(mnemo_delta_fts) VALUES ('optimize')"));
  const usable = db.pragma('page_size', { simple: true }) - 4;
  const freeNow = () => db.pragma('freelist_count', { simple: true });
  timed(() => db.exec('CREATE TABLE IF NOT EXISTS ' + SCRATCH + ' (id INTEGER PRIMARY KEY, pages BLOB)'));
  const take = db.prepare('INSERT INTO ' + SCRATCH + ' (pages) VALUES (zeroblob(?))');
  // Other writers free pages meanwhile (without secure_delete, if they are not this engine): the
  // budget stops the chase once the pages free at the start, and as many again, were taken.
  let budget = 2 * freeNow() + workerData.pagesPerTransaction;
  for (;;) {
    const free = freeNow();
    if (free === 0 || budget <= 0) break;
    const n = Math.min(free, workerData.pagesPerTransaction, budget);
    timed(() => take.run(n * usable));
    zeroed += n;
    budget -= n;
  }
  const ids = db.prepare('SELECT id FROM ' + SCRATCH).pluck().all();
  const give = db.prepare('DELETE FROM ' + SCRATCH + ' WHERE id = ?');
  for (const id of ids) timed(() => give.run(id));
  timed(() => db.exec('DROP TABLE ' + SCRATCH));
  db.pragma('busy_timeout = ' + workerData.checkpointTryMs);
  const until = performance.now() + workerData.checkpointWaitMs;
  for (;;) {
    const r = db.pragma('wal_checkpoint(TRUNCATE)')[0];
    if (r.busy === 0) break;
    if (performance.now() >= until) {
      problems.push('a reader or writer kept the WAL busy past ' + Math.round(workerData.checkpointWaitMs / 1000) + ' s, so it was not truncated: ' + r.log + ' pages of it may still hold what was erased until the next checkpoint');
      break;
    }
    sleep(100);
  }
} catch (err) {
  problems.push(String(err && err.message || err));
} finally {
  db.close();
}
parentPort.postMessage({ seconds: (performance.now() - started) / 1000, bytes_before: before, bytes_after: bytes(), free_pages_zeroed: zeroed, transactions, longest_transaction_ms: Math.round(longest), problems });
`;

export interface ReclaimOptions {
  /** How long the WAL truncation is retried for in all. */
  checkpointWaitMs?: number;
  /** How long one try may wait for readers (holding the write lock meanwhile). */
  checkpointTryMs?: number;
  /** Free pages taken per transaction (4 KiB each: 256 is a 1 MiB write). */
  pagesPerTransaction?: number;
  /** The shortest pause after each transaction, for other writers (it is at least as long as the transaction). */
  pauseMs?: number;
}

/** Zeroes the free pages of the file at `path` and truncates its WAL, in a worker thread; resolves with what it did. */
export function reclaimInWorker(path: string, binding: string | undefined, opts: ReclaimOptions = {}): Promise<ReclaimReport> {
  const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');
  const workerData = {
    path,
    binding,
    betterSqlite3,
    checkpointWaitMs: opts.checkpointWaitMs ?? 30_000,
    checkpointTryMs: opts.checkpointTryMs ?? 50,
    pagesPerTransaction: opts.pagesPerTransaction ?? 256,
    pauseMs: opts.pauseMs ?? 5,
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(PROGRAM, { eval: true, workerData });
    worker.once('message', (m: ReclaimReport) => resolve(m));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the reclaim worker stopped with code ${code}`));
    });
  });
}
