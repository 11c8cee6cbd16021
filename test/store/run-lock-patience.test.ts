/**
 * A long change's step that finds the write lock kept by other writers past the busy wait never
 * began, and is tried again after a pause (Pacer.take, core/store/shared/lock-not-taken.ts) instead
 * of failing the whole change: eight agents logging accesses beside a 100k reflection kept the
 * lock past SQLite's 5 s wait, and the pass failed `busy` after a minute of work. A step that fails
 * for any other reason still fails at once.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../../core/reflect/apply.js';
import type { Engine } from '../../core/engine/engine.js';
import { connectionOf } from '../../core/store/sqlite/connection.js';
import { lockNotTaken } from '../../core/store/shared/lock-not-taken.js';
import { plannedStore, NOW } from '../../support/long-writes.js';
import { openAt } from '../../support/reflect.js';

const BUSY_WAIT_MS = 100;
let engine: Engine | null = null;
let other: Database.Database | null = null;
afterEach(() => {
  if (other?.inTransaction) other.exec('ROLLBACK');
  other?.close();
  engine?.close();
  engine = other = null;
});

describe('a long change while another writer keeps the lock', () => {
  it('waits for it past the busy wait and applies the whole plan', async () => {
    const { path, plan } = await plannedStore(300);
    engine = openAt(path, NOW);
    connectionOf(engine.store).pragma(`busy_timeout = ${BUSY_WAIT_MS}`);
    other = new Database(path);
    // Another writer takes the lock for six busy waits.
    other.exec('BEGIN IMMEDIATE');
    let released = 0;
    const started = performance.now();
    setTimeout(() => {
      other!.exec('COMMIT');
      released = performance.now() - started;
    }, 6 * BUSY_WAIT_MS);
    // A step alone gives up after one busy wait, saying the lock was never taken.
    let refused: unknown = null;
    try {
      engine.store.transaction(() => engine!.store.setMeta('probe', '1'));
    } catch (err) {
      refused = err;
    }
    expect(lockNotTaken(refused)).toBe(true);

    const res = await applyPlan(engine, plan, { pacing: { pauseMs: 20 } });
    expect(released).toBeGreaterThan(0);
    expect(res.change_id).not.toBeNull();
    expect(res.applied.length).toBeGreaterThan(0);
    expect(res.report.interrupted ?? false).toBe(false);
  }, 120_000);

  it('does not try again a step that failed for another reason', async () => {
    const { path } = await plannedStore(300);
    engine = openAt(path, NOW);
    const pacer = engine.store.runs.pacer({ batchMs: 200, maxBatchItems: 10, pauseMs: 20 });
    let tries = 0;
    await expect(
      pacer.take(() => {
        tries++;
        throw new Error('a step that fails');
      }),
    ).rejects.toThrow('a step that fails');
    expect(tries).toBe(1);
    pacer.end();
  }, 120_000);
});
