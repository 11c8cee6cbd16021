/**
 * Several processes opening one new PostgreSQL store at once (a fleet's agents starting together)
 * must all end with the one store, made once. The first process here is stopped inside its
 * creating transaction until a second process, opening the same store, waits on it; on the old
 * code that second process then failed (`CREATE SCHEMA IF NOT EXISTS` waits for the first's
 * catalog row, then breaks its unique index) and the agent died.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { pgStores } from '../helpers/pg-stores.js';
import { countMemories } from '../../core/store/queries/memory-lookups.js';

const NOW = 1_780_000_000;
const SCHEMA = 'pgcreate_race';
const pg = pgStores([SCHEMA]);

describe.skipIf(pg.unavailable)('opening one new PostgreSQL store from two processes at once', () => {
  it('makes it once; the second process waits and opens what the first made', async () => {
    const url = pg.storeUrl(SCHEMA);
    let out = '';
    let ended: Promise<number | null> = Promise.resolve(null);
    const query = SyncPg.prototype.query;
    let paused = false;
    // Inside the first process's creating transaction, right after it makes the schema: start the second and wait until it waits.
    SyncPg.prototype.query = function (this: SyncPg, sql: string, params?: readonly unknown[]) {
      const rows = query.call(this, sql, params as never);
      if (!paused && /^CREATE SCHEMA/.test(sql)) {
        paused = true;
        const child = spawn(process.execPath, ['--import', 'tsx', join(process.cwd(), 'test', 'helpers', 'pg-open-child.ts'), url, String(NOW)], { stdio: ['ignore', 'pipe', 'inherit'] });
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        ended = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
        const pause = new Int32Array(new SharedArrayBuffer(4));
        for (let i = 0; ; i++) {
          if (i === 3000) throw new Error('the second process never waited for the first');
          const [w] = pg.admin.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND application_name = 'mnemo'");
          if (Number(w!.n) > 0) break;
          Atomics.wait(pause, 0, 0, 20);
        }
      }
      return rows;
    } as typeof query;
    let first: PgStore;
    try {
      first = pg.track(PgStore.open(url, { create: true, clock: fixedClock(NOW) }));
    } finally {
      SyncPg.prototype.query = query;
    }
    expect(paused).toBe(true);
    expect(await ended).toBe(0);
    expect(JSON.parse(out.trim())).toEqual({ ok: true, memories: 0 });
    // Made once: one set of store facts, and the store opens and writes.
    const [facts] = pg.admin.query<{ n: string }>(`SELECT count(*) AS n FROM ${SCHEMA}.mnemo_pg_store WHERE key = 'has_mnemo'`);
    expect(Number(facts!.n)).toBe(1);
    expect(countMemories(first)).toBe(0);
  }, 120_000);
});
