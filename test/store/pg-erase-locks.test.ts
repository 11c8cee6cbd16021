/**
 * An erase's VACUUM FULL on PostgreSQL needs each table's ACCESS EXCLUSIVE lock; while it waits
 * for it (another session holds the table), every later request on that table queues behind it.
 * The erase waits at most 1 s a try (lock_timeout), then steps aside and tries again (pg/pg-erase.ts):
 * a reader arriving meanwhile is answered in about that, not when the other session lets go
 * (before, it waited for the whole of the other session's transaction, 8 s here).
 */
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import type { EraseReceipt } from '../../core/erase/erase.js';
import { freshSchemaUrl, pgUnavailable, startPg, type PgServer } from '../../support/pg-cluster.js';
import { CANARY, steppingClock } from '../helpers/erase-canary.js';

const unavailable = pgUnavailable();
const SCHEMA = 'erase_locks';
const HOLD_MS = 8000;

describe.skipIf(unavailable !== null)('erase beside other sessions (PostgreSQL)', () => {
  let server: PgServer | null = null;
  let session: ApiSession | null = null;
  const clients: pg.Client[] = [];
  afterEach(async () => {
    session?.close();
    session = null;
    for (const c of clients.splice(0)) await c.end().catch(() => {});
  });
  afterAll(() => server?.stop());

  it('a reader of a table the erase rewrites does not queue behind its VACUUM FULL waiting for the lock', { timeout: 180_000 }, async () => {
    server = startPg();
    const url = freshSchemaUrl(server.url, SCHEMA);
    const clock = steppingClock(1_780_000_000);
    session = new ApiSession({ clock });
    session.open(url, { create: true });
    await call(session, 'memory.add', { content: `a note about ${CANARY}`, owner: 'coder@1' });
    await call(session, 'memory.add', { content: 'nothing to erase here', owner: 'coder@1' });
    const client = async () => {
      const c = new pg.Client({ connectionString: server!.url });
      clients.push(c);
      await c.connect();
      return c;
    };
    const holder = await client();
    const reader = await client();
    const watcher = await client();
    // Another session reads the memories table in a transaction it keeps open for HOLD_MS.
    await holder.query('BEGIN');
    await holder.query(`SELECT count(*) FROM ${SCHEMA}.memories`);
    const released = new Promise<void>((resolve) => setTimeout(() => void holder.query('COMMIT').then(() => resolve()), HOLD_MS));
    clock.step();
    const erasing = call(session, 'memory.erase', { match: CANARY }) as Promise<EraseReceipt>;
    // Until the erase's VACUUM FULL waits for the lock the holder has.
    for (;;) {
      const r = await watcher.query("SELECT 1 FROM pg_stat_activity WHERE query LIKE 'VACUUM (FULL%' AND wait_event_type = 'Lock'");
      if (r.rowCount) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const t0 = performance.now();
    await reader.query(`SELECT count(*) FROM ${SCHEMA}.memories`);
    const waitedMs = performance.now() - t0;
    await released;
    const receipt = await erasing;
    expect(receipt.reclaim.rewrote).toContain('memories');
    expect(receipt.reclaim.problems).toEqual([]);
    // A try waits 1 s for the lock; the holder keeps it 8 s: the reader came through well before the holder let go.
    expect(waitedMs).toBeLessThan(HOLD_MS / 2);
  });
});
