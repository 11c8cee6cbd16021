/**
 * Issue 13 item 7: the batched apply is still all-or-nothing. A child process applies a plan in
 * short transactions and is killed with SIGKILL after some batches have committed (the run marker
 * is in the store). A reader in between sees the marker; the next writable open rolls the partial
 * change back, so the rows equal the dump taken before the apply and integrity_check is ok.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { applyPlan } from '../../core/reflect/apply.js';
import { runInProgress } from '../../core/store/shared/run-marker.js';
import { dumpStore, integrityOk, openAt } from '../../support/reflect.js';
import { NOW, plannedStore } from '../../support/long-writes.js';
import { nooaTables, tablesAt } from '../../support/feed-walk.js';

const CHILD = join(process.cwd(), 'test', 'helpers', 'apply-child.ts');

/** Journal rows the running apply has committed so far (0 while its marker is not there yet). */
function committedRows(db: string): number {
  const conn = new Database(db, { readonly: true, fileMustExist: true });
  try {
    const marker = conn.prepare("SELECT value FROM mnemo_meta WHERE key = 'journal_run'").get() as { value: string } | undefined;
    if (!marker) return 0;
    const id = (JSON.parse(marker.value) as { change_id: number }).change_id;
    return (conn.prepare('SELECT count(*) AS n FROM mnemo_journal_rows WHERE change_id = ?').get(id) as { n: number }).n;
  } catch {
    return 0; // busy or mid-checkpoint: look again
  } finally {
    conn.close();
  }
}

/** Runs the apply child and kills it with SIGKILL once `rows` journal rows are committed. */
function applyAndKill(db: string, planPath: string, rows: number): Promise<'killed' | 'finished'> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, db, planPath, String(NOW)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const poll = setInterval(() => {
      if (committedRows(db) >= rows) child.kill('SIGKILL');
    }, 20);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearInterval(poll);
      if (signal === 'SIGKILL') resolve('killed');
      else if (code === 0) resolve('finished');
      else reject(new Error(`apply child failed (${code}): ${err}`));
    });
  });
}

describe('a batched apply killed with kill -9', () => {
  it('is rolled back by the next writable open: rows as before, integrity ok, no change left', { timeout: 300_000 }, async () => {
    for (const rows of [1, 200, 600]) {
      const { path, planPath } = await plannedStore(1000);
      const setup = openAt(path, NOW);
      setup.store.ensureMnemo();
      setup.close();
      const before = dumpStore(path);
      expect(await applyAndKill(path, planPath, rows), `kill after ${rows} rows`).toBe('killed');

      // A reader in between sees the partial change, and the marker that says so.
      const reader = MemoryStore.open(path, { readonly: true, onWarning: () => {} });
      expect(runInProgress(reader)?.mode).toBe('record');
      reader.close();
      expect(dumpStore(path)).not.toEqual(before);

      const warnings: string[] = [];
      const reopened = MemoryStore.open(path, { onWarning: (m) => warnings.push(m) });
      expect(warnings.join('\n')).toMatch(/was cut short by process \d+ and has been rolled back/);
      expect(runInProgress(reopened)).toBeNull();
      expect(reopened.journal.history(100).filter((c) => c.kind === 'reflect.apply')).toEqual([]);
      reopened.close();
      expect(integrityOk(path)).toBe(true);
      expect(dumpStore(path)).toEqual(before);
    }
  });

  it('a connection opened before the crash recovers the cut-short change when it starts its own apply', { timeout: 300_000 }, async () => {
    const { path, plan, planPath } = await plannedStore(1000);
    const setup = openAt(path, NOW);
    setup.store.ensureMnemo();
    setup.close();
    const before = dumpStore(path);
    const early = openAt(path, NOW); // opened before the crash: nothing to recover yet
    expect(await applyAndKill(path, planPath, 50)).toBe('killed');
    expect(runInProgress(early.store)?.mode).toBe('record');
    // The store is as planned again once the leftover is rolled back, so the same plan applies.
    const res = await applyPlan(early, plan, {});
    expect(res.change_id).not.toBeNull();
    expect(runInProgress(early.store)).toBeNull();
    expect(early.store.journal.history(100).filter((c) => c.kind === 'reflect.apply').map((c) => c.id)).toEqual([res.change_id]);
    early.store.journal.undo(res.change_id!);
    early.close();
    expect(dumpStore(path)).toEqual(before);
  });

  it('leaves the change feed in step with the tables: its rows commit with each batch and with the rollback', { timeout: 300_000 }, async () => {
    const { path, planPath } = await plannedStore(1000);
    const setup = openAt(path, NOW);
    setup.store.ensureMnemo();
    setup.close();
    const look = () => new Database(path, { readonly: true });
    let db = look();
    const startSeq = (db.prepare('SELECT coalesce(max(seq), 0) FROM mnemo_feed').pluck().get() as number);
    const start = nooaTables(db);
    db.close();
    expect(await applyAndKill(path, planPath, 200)).toBe('killed');

    // Cut short: the committed batches' feed rows walk the half-applied tables back to the start.
    db = look();
    const cut = db.prepare('SELECT count(*) AS n, count(DISTINCT change_id) AS changes FROM mnemo_feed WHERE seq > ?').get(startSeq) as { n: number; changes: number };
    expect(cut.n).toBeGreaterThan(0);
    expect(cut.changes).toBe(1);
    expect(tablesAt(db, startSeq)).toEqual(start);
    db.close();

    // Rolled back by the next writable open: the tables are as at the start, and so is the walk.
    MemoryStore.open(path, { onWarning: () => {} }).close();
    db = look();
    expect(nooaTables(db)).toEqual(start);
    expect(tablesAt(db, startSeq)).toEqual(start);
    db.close();
  });
});
