/**
 * A recall's accesses on PostgreSQL lock the recalled memories' rows all at once, in id order
 * (PgStore.logAccesses): two recalls returning overlapping memories in different rank orders
 * used to lock them one by one in rank order, so each could hold the row the other waited for
 * (`deadlock detected`, 40P01, reaching the caller as `busy`).
 *
 * The second connection is another process with a plain `pg` client, so the interleaving is
 * fixed whatever the timing: it locks the lower id, waits until the store's call waits for that
 * row, then asks for the higher id. A store that took the higher id first (rank order) holds it
 * while it waits: the server finds the cycle and fails one of the two. Also what could go wrong:
 * an access lost or counted twice once the rows are held and written in one statement, and the
 * round trips of a recall's accesses growing with the memories again (about four per memory).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { accessRecord, createMemory } from '../../core/model/memory.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import { bridgeRoundTrips } from '../../core/store/pg/sync-pg.js';
import { pgStores } from '../helpers/pg-stores.js';
import { accessEventCount } from '../../core/store/queries/access-log.js';

const NOW = 1_780_000_000;
const SCHEMA = 'access_lock_order';
const pg = pgStores([SCHEMA]);

/**
 * The other connection's part, as a plain script: lock `lo`, say so, wait until a statement of
 * another session waits on a lock (the store's call), lock `hi`, commit, print how that went.
 */
const OTHER_CONNECTION = `
const { Client } = require(process.env.PG_MODULE);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
(async () => {
  const c = new Client({ connectionString: process.env.PG_URL });
  await c.connect();
  const table = process.env.TABLE;
  await c.query('BEGIN');
  await c.query('SELECT 1 FROM ' + table + ' WHERE id = $1 FOR UPDATE', [process.env.LO]);
  process.stdout.write('locked\\n');
  let waiting = false;
  for (let i = 0; i < 500 && !waiting; i++) {
    const r = await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid() AND datname = current_database()");
    waiting = r.rows[0].n > 0;
    if (!waiting) await sleep(20);
  }
  let outcome = waiting ? 'ok' : 'nobody-waited';
  try {
    await c.query('SELECT 1 FROM ' + table + ' WHERE id = $1 FOR UPDATE', [process.env.HI]);
  } catch (err) {
    outcome = err.code || String(err);
  }
  await c.query(outcome === 'ok' ? 'COMMIT' : 'ROLLBACK');
  await c.end();
  process.stdout.write(outcome + '\\n');
})().catch((err) => { process.stdout.write('failed ' + err.message + '\\n'); process.exit(1); });
`;

/** Starts the other connection; resolves `locked` once it holds `lo`, `done` with its last line. */
function otherConnection(url: string, lo: string, hi: string): { locked: Promise<void>; done: Promise<string> } {
  const child = spawn(process.execPath, ['-e', OTHER_CONNECTION], {
    env: { ...process.env, PG_MODULE: createRequire(import.meta.url).resolve('pg'), PG_URL: url, TABLE: `${SCHEMA}.memories`, LO: lo, HI: hi },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  let onLocked: () => void = () => {};
  const locked = new Promise<void>((resolve) => (onLocked = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes('locked\n')) onLocked();
  });
  const done = new Promise<string>((resolve) => child.on('close', () => resolve(out.trim().split('\n').pop() ?? '')));
  return { locked, done };
}

describe.skipIf(pg.unavailable)('access logging on PostgreSQL locks its memories in id order', () => {
  it('does not deadlock with a connection locking the same two memories in the opposite order', async () => {
    const clock = fixedClock(NOW);
    const a = pg.connect(SCHEMA, clock);
    const made = [createMemory({ content: 'the first of two memories both recalls return' }, NOW), createMemory({ content: 'the second of two memories both recalls return' }, NOW)];
    for (const m of made) a.add(m, null);
    const [lo, hi] = made.map((m) => m.id).sort();
    const b = pg.track(PgStore.open(pg.storeUrl(SCHEMA), { clock }));
    const other = otherConnection(pg.storeUrl(SCHEMA).replace(/[?&]schema=[^&]*/, ''), lo!, hi!);
    await other.locked;
    // Rank order: the higher id first, the opposite of the other connection's.
    b.logAccesses([hi!, lo!].map((id) => ({ id, record: accessRecord(NOW + 1, 'recalled', { query: 'q' }) })));
    expect(await other.done).toBe('ok');
    for (const id of [lo!, hi!]) expect(a.get(id)!.access_count).toBe(made[0]!.access_count + 1);
  }, 30_000);

  it('logs ten accesses in a few round trips, each counted once', () => {
    const store = pg.connect(SCHEMA, fixedClock(NOW));
    const made = Array.from({ length: 10 }, (_v, i) => createMemory({ content: `memory number ${i} of a recall's ten` }, NOW));
    for (const m of made) store.add(m, null);
    const eventsBefore = accessEventCount(store);
    const before = bridgeRoundTrips();
    store.logAccesses([...made, made[3]!].map((m) => ({ id: m.id, record: accessRecord(NOW + 2, 'recalled', { query: 'ten' }) })));
    // The lock-and-read of all eleven (BEGIN with it), then the rows' UPDATE and the events' INSERT with the COMMIT: 58 when each was locked, read and written alone.
    expect(bridgeRoundTrips() - before).toBeLessThanOrEqual(2);
    expect(accessEventCount(store)).toBe(eventsBefore + 11);
    const fresh = pg.track(PgStore.open(pg.storeUrl(SCHEMA), { clock: fixedClock(NOW) }));
    for (const [i, m] of made.entries()) {
      const got = fresh.get(m.id)!;
      expect(got.access_count).toBe(m.access_count + (i === 3 ? 2 : 1));
      expect(got.last_accessed_at).toBe(NOW + 2);
    }
  });
});
