/**
 * The synchronous PostgreSQL connection (core/store/pg/sync-pg.ts) that lets a PostgreSQL adapter
 * keep the store port synchronous. Against a real server: MNEMO_TEST_PG_URL, or a throwaway cluster
 * (support/pg-cluster.ts; .ci/run installs PostgreSQL so that CI never skips this). What could go
 * wrong: replies crossing between connections, a transaction leaking onto another connection or
 * surviving a throw, server errors arriving untyped, a closed connection still answering.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MnemoError } from '../../core/errors.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { pgUnavailable, startPg, type PgServer } from '../../support/pg-cluster.js';

const available = pgUnavailable();

describe('SyncPg, a synchronous connection to a real PostgreSQL server', () => {
  let server: PgServer | null = null;
  let a: SyncPg;
  let b: SyncPg;

  beforeAll(() => {
    if (available) return;
    server = startPg();
    a = SyncPg.connect(server.url);
    b = SyncPg.connect(server.url);
    a.query('DROP TABLE IF EXISTS sync_pg_test');
    a.query('CREATE TABLE sync_pg_test (id integer PRIMARY KEY, note text NOT NULL)');
  }, 60_000);

  afterAll(() => {
    a?.close();
    b?.close();
    server?.stop();
  });

  it('answers each query with its own rows, parameters bound, on interleaved connections', (ctx) => {
    if (available) return ctx.skip(available);
    a.query('INSERT INTO sync_pg_test VALUES ($1, $2), ($3, $4)', [1, 'one', 2, "two's \u2028 line"]);
    for (let i = 0; i < 50; i++) {
      const id = (i % 2) + 1;
      const conn = i % 3 === 0 ? a : b;
      expect(conn.query<{ id: number; note: string }>('SELECT id, note FROM sync_pg_test WHERE id = $1', [id])).toEqual([{ id, note: id === 1 ? 'one' : "two's \u2028 line" }]);
    }
  });

  it('keeps a transaction on its connection: the other sees it only once committed', (ctx) => {
    if (available) return ctx.skip(available);
    const count = (c: SyncPg) => Number(c.query<{ n: string }>('SELECT count(*) AS n FROM sync_pg_test')[0]!.n);
    const before = count(b);
    a.transaction(() => {
      a.query("INSERT INTO sync_pg_test VALUES (10, 'ten')");
      expect(count(a)).toBe(before + 1);
      expect(count(b)).toBe(before);
    });
    expect(count(b)).toBe(before + 1);
  });

  it('rolls back everything written inside a transaction that throws, and rethrows', (ctx) => {
    if (available) return ctx.skip(available);
    expect(() =>
      a.transaction(() => {
        a.query("INSERT INTO sync_pg_test VALUES (20, 'twenty')");
        throw new Error('the caller failed half-way');
      }),
    ).toThrow('the caller failed half-way');
    expect(b.query('SELECT id FROM sync_pg_test WHERE id = 20')).toEqual([]);
    // The connection is usable afterwards (not left in an aborted transaction).
    expect(a.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('turns server errors into typed errors with the SQLSTATE: a broken constraint is a conflict, a bad statement internal', (ctx) => {
    if (available) return ctx.skip(available);
    const thrown = (fn: () => unknown): MnemoError => {
      try {
        fn();
      } catch (err) {
        return err as MnemoError;
      }
      throw new Error('expected a throw');
    };
    const dup = thrown(() => a.query("INSERT INTO sync_pg_test VALUES (1, 'again')"));
    expect(dup).toBeInstanceOf(MnemoError);
    expect(dup.code).toBe('conflict');
    expect(dup.details).toMatchObject({ sqlstate: '23505' });
    const missing = thrown(() => b.query('SELECT * FROM no_such_table'));
    expect(missing.code).toBe('internal');
    expect(missing.details).toMatchObject({ sqlstate: '42P01' });
    expect(missing.message).toMatch(/no_such_table/);
  });

  it('refuses a closed connection and an unreachable server with typed errors, leaving the others working', (ctx) => {
    if (available) return ctx.skip(available);
    const c = SyncPg.connect(server!.url);
    c.close();
    expect(() => c.query('SELECT 1')).toThrow(MnemoError);
    const unreachable = (() => {
      try {
        SyncPg.connect('postgres://nobody@/none?host=/nonexistent-socket-dir');
      } catch (err) {
        return err as MnemoError;
      }
      return null;
    })();
    expect(unreachable).toBeInstanceOf(MnemoError);
    expect(unreachable!.code).toBe('internal');
    expect(a.query('SELECT 2 AS two')).toEqual([{ two: 2 }]);
  });
});
