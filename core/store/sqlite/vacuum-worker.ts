/**
 * Rewrites a SQLite file in a worker thread, so the bytes an erase removed leave the file while
 * the thread that answers people and agents keeps answering: `VACUUM` copies every live page into a
 * fresh file (freed pages and the unused space inside pages, where deleted rows' bytes stay, are not
 * copied), then a `wal_checkpoint(TRUNCATE)` moves the result into the file and empties the WAL,
 * which held the old pages too. Before that, the FTS5 index over belief evidence is merged
 * (`optimize`): a deleted row's words stay in its old segments until a merge.
 *
 * What it costs: the whole file is rewritten (about 30 s for the 1 GB 100k demo store on the shared
 * development machine), and other connections' writes wait for the write lock meanwhile (readers
 * go on: WAL). docs/security.md ("Erasing") says so.
 *
 * The worker runs plain JavaScript given as text (as sync-pg.ts does: a TypeScript worker cannot
 * be started under the test runner's loader), with the same better-sqlite3 addon as the store.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface VacuumReport {
  seconds: number;
  bytes_before: number;
  bytes_after: number;
  problems: string[];
}

/** The worker's program; `workerData` is { path, binding, betterSqlite3, checkpointWaitMs, extraTables }. */
const PROGRAM = `
const { workerData, parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const Database = require(workerData.betterSqlite3);
const size = (p) => { try { return fs.statSync(p).size; } catch { return 0; } };
const bytes = () => size(workerData.path) + size(workerData.path + '-wal');
const problems = [];
const started = performance.now();
const before = bytes();
const db = new Database(workerData.path, workerData.binding ? { nativeBinding: workerData.binding } : {});
try {
  db.pragma('busy_timeout = 60000');
  db.pragma('secure_delete = ON');
  const fts = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'mnemo_delta_fts'").get();
  if (fts) db.exec("INSERT INTO mnemo_delta_fts(mnemo_delta_fts) VALUES ('optimize')");
  db.exec('VACUUM');
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const until = performance.now() + workerData.checkpointWaitMs;
  for (;;) {
    const r = db.pragma('wal_checkpoint(TRUNCATE)')[0];
    if (r.busy === 0) break;
    if (performance.now() >= until) {
      problems.push('a reader kept the WAL open past ' + Math.round(workerData.checkpointWaitMs / 1000) + ' s, so it was not truncated: ' + r.log + ' pages of it may still hold what was erased until the next checkpoint');
      break;
    }
    Atomics.wait(sleeper, 0, 0, 100);
  }
} catch (err) {
  problems.push(String(err && err.message || err));
} finally {
  db.close();
}
parentPort.postMessage({ seconds: (performance.now() - started) / 1000, bytes_before: before, bytes_after: bytes(), problems });
`;

/** VACUUMs the file at `path` in a worker thread and truncates its WAL; resolves with what it did. */
export function vacuumInWorker(path: string, binding: string | undefined, checkpointWaitMs = 10_000): Promise<VacuumReport> {
  const betterSqlite3 = createRequire(import.meta.url).resolve('better-sqlite3');
  return new Promise((resolve, reject) => {
    const worker = new Worker(PROGRAM, { eval: true, workerData: { path, binding, betterSqlite3, checkpointWaitMs } });
    worker.once('message', (m: VacuumReport) => resolve(m));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the VACUUM worker stopped with code ${code}`));
    });
  });
}
