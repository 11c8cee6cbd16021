/**
 * No PostgreSQL statement waits without bound (core/store/pg/pg-timeouts.ts): every connection
 * sets lock_timeout and statement_timeout, configurable in the store URL or the environment, and a
 * statement the server stops for waiting comes back as a typed `busy` error that names what waited
 * and for how long it was allowed to. Against a real server (MNEMO_TEST_PG_URL or a throwaway cluster).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, invoke } from '../../core/api/service.js';
import { ApiSession } from '../../core/api/context.js';
import { fixedClock } from '../../core/clock.js';
import { MnemoError } from '../../core/errors.js';
import { DEFAULT_PG_TIMEOUTS, pgTimeouts } from '../../core/store/pg/pg-timeouts.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { freshSchemaUrl, pgUnavailable, startPg, type PgServer } from '../../support/pg-cluster.js';

const NOW = 1_780_000_000;
const available = pgUnavailable();
const withParams = (url: string, params: string) => `${url}${url.includes('?') ? '&' : '?'}${params}`;

function thrown(fn: () => unknown): MnemoError {
  try {
    fn();
  } catch (err) {
    if (err instanceof MnemoError) return err;
    throw err;
  }
  throw new Error('expected a MnemoError');
}

describe('the timeouts a connection sets', () => {
  it('takes the store URL first, then the environment, then the defaults; refuses a value that is not milliseconds', () => {
    expect(pgTimeouts('postgres://u@h/db', {})).toEqual(DEFAULT_PG_TIMEOUTS);
    expect(pgTimeouts('postgres://u@h/db', { MNEMO_PG_LOCK_TIMEOUT_MS: '750' })).toEqual({ ...DEFAULT_PG_TIMEOUTS, lockMs: 750 });
    expect(pgTimeouts('postgres://u@h/db?lock_timeout=200&statement_timeout=0', { MNEMO_PG_LOCK_TIMEOUT_MS: '750' })).toEqual({ lockMs: 200, statementMs: 0 });
    const bad = thrown(() => pgTimeouts('postgres://u@h/db?lock_timeout=2s', {}));
    expect(bad.code).toBe('bad_input');
    expect(bad.message).toMatch(/lock_timeout in the store URL is "2s": give whole milliseconds/);
  });
});

describe('a statement that waits too long on a real server', () => {
  let server: PgServer | null = null;
  let holder: SyncPg;

  beforeAll(() => {
    if (available) return;
    server = startPg();
    holder = SyncPg.connect(server.url);
    holder.query('DROP TABLE IF EXISTS pg_timeout_test');
    holder.query("CREATE TABLE pg_timeout_test (id integer PRIMARY KEY, note text NOT NULL); INSERT INTO pg_timeout_test VALUES (1, 'one')");
  }, 60_000);

  afterAll(() => {
    holder?.close();
    server?.stop();
  });

  it('sets both on every connection, the defaults unless the URL says otherwise', (ctx) => {
    if (available) return ctx.skip(available);
    const plain = SyncPg.connect(server!.url);
    const tuned = SyncPg.connect(withParams(server!.url, 'lock_timeout=300&statement_timeout=4000'));
    try {
      expect(plain.query<{ lock_timeout: string }>('SHOW lock_timeout')[0]!.lock_timeout).toBe('5s');
      expect(plain.query<{ statement_timeout: string }>('SHOW statement_timeout')[0]!.statement_timeout).toBe('100s');
      expect(tuned.query<{ lock_timeout: string }>('SHOW lock_timeout')[0]!.lock_timeout).toBe('300ms');
      expect(tuned.query<{ statement_timeout: string }>('SHOW statement_timeout')[0]!.statement_timeout).toBe('4s');
    } finally {
      plain.close();
      tuned.close();
    }
  });

  it('a lock held past lock_timeout: busy, naming the statement that waited, the lock and the limit', (ctx) => {
    if (available) return ctx.skip(available);
    const waiter = SyncPg.connect(withParams(server!.url, 'lock_timeout=300'));
    holder.query('BEGIN');
    try {
      holder.query('SELECT id FROM pg_timeout_test WHERE id = 1 FOR UPDATE');
      const err = thrown(() => waiter.transaction(() => waiter.query("UPDATE pg_timeout_test SET note = 'waited' WHERE id = $1", [1])));
      expect(err.code).toBe('busy');
      expect(err.message).toMatch(/the statement UPDATE pg_timeout_test SET note = 'waited' WHERE id = \$1 waited longer than lock_timeout \(300 ms\) for a lock another connection held/);
      expect(err.details).toMatchObject({ sqlstate: '55P03', waited: 'lock', timeout_ms: 300 });
    } finally {
      holder.query('ROLLBACK');
    }
    // The connection is still usable, and nothing of the refused write is there.
    expect(waiter.query<{ note: string }>('SELECT note FROM pg_timeout_test WHERE id = 1')).toEqual([{ note: 'one' }]);
    waiter.close();
  });

  it('a statement past statement_timeout: busy, naming it and the limit', (ctx) => {
    if (available) return ctx.skip(available);
    const slow = SyncPg.connect(withParams(server!.url, 'statement_timeout=200'));
    try {
      const err = thrown(() => slow.query('SELECT pg_sleep(3)'));
      expect(err.code).toBe('busy');
      expect(err.message).toMatch(/the statement SELECT pg_sleep\(3\) ran longer than statement_timeout \(200 ms\)/);
      expect(err.details).toMatchObject({ sqlstate: '57014', waited: 'statement', timeout_ms: 200 });
      expect(slow.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      slow.close();
    }
  });

  it('through the service: an edit of a memory another connection has locked is refused as busy, and the memory is unchanged', async (ctx) => {
    if (available) return ctx.skip(available);
    const url = withParams(freshSchemaUrl(server!.url, 'timeouts_api'), 'lock_timeout=300');
    const session = new ApiSession({ clock: fixedClock(NOW) });
    session.open(url, { create: true });
    try {
      const m = await call(session, 'memory.add', { content: 'a memory another connection will hold' });
      holder.query('BEGIN');
      try {
        holder.query('SELECT id FROM timeouts_api.memories WHERE id = $1 FOR UPDATE', [m.id]);
        const refused = await invoke(session, 'memory.update', { id: m.id, patch: { title: 'waited for a lock' } });
        expect(refused).toMatchObject({ ok: false, error: { code: 'busy', message: expect.stringMatching(/memories.*waited longer than lock_timeout \(300 ms\)/), details: { waited: 'lock' } } });
      } finally {
        holder.query('ROLLBACK');
      }
      expect((await call(session, 'memory.get', { id: m.id })).memory.title).toBeNull();
    } finally {
      session.close();
    }
  }, 60_000);
});
