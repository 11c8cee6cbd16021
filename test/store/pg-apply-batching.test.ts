/**
 * A reflection apply on PostgreSQL sends few requests through the synchronous bridge: each 64
 * operations' memories are locked and read in one statement and held (pg-held-rows.ts), their
 * writes are held and flushed as one statement per table ahead of the next statement, and the
 * writes nobody reads are deferred into that next request (SyncPg.defer). What could go wrong: a
 * held row or edge list that is not the table's, a write held back and never sent (or sent after
 * a rollback), the journal's images or order differing from the unbatched path's (SQLite's), a
 * deferred statement's failure lost or blamed on another statement.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { generateDemo } from '../../core/demo/generate.js';
import { MnemoError } from '../../core/errors.js';
import { createMemory } from '../../core/model/memory.js';
import type { Engine } from '../../core/engine/engine.js';
import { applyPlan } from '../../core/reflect/apply.js';
import { planOps, planReflection } from '../../core/reflect/plan.js';
import { copyStore } from '../../core/store/copy/copy-stores.js';
import { bridgeRoundTrips, SyncPg } from '../../core/store/pg/sync-pg.js';
import { tempDir } from '../../support/fixture.js';
import { freshSchemaUrl } from '../../support/pg-cluster.js';
import { openAt } from '../../support/reflect.js';
import { errorOf } from '../helpers/mnemo-error.js';
import { pgServer } from '../helpers/pg-server.js';

const NOW = 1_780_000_000;
const server = pgServer();

const MEMORY_COLS = 'rowid, id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, data';

/** Every memory (embedding as hex) and every edge list in rowid order, as SQLite holds them. */
function dumpSqlite(path: string): unknown {
  const db = new Database(path, { readonly: true });
  try {
    const memories = db.prepare(`SELECT ${MEMORY_COLS}, lower(hex(embedding)) AS emb FROM memories ORDER BY id`).all();
    const edges = db.prepare('SELECT src, dst, type, weight, created_at FROM memory_edges ORDER BY src, rowid').all();
    return { memories, edges };
  } finally {
    db.close();
  }
}

/** The same from PostgreSQL, integers as numbers. */
function dumpPg(url: string, schema: string): unknown {
  const db = SyncPg.connect(url);
  try {
    const cols = MEMORY_COLS.split(', ')
      .map((c) => (['rowid', 'strength', 'access_count', 'archived'].includes(c) ? `${c}::float8 AS ${c}` : c))
      .join(', ');
    const memories = db.query(`SELECT ${cols}, encode(embedding, 'hex') AS emb FROM ${schema}.memories ORDER BY id COLLATE "C"`);
    const edges = db.query(`SELECT src, dst, type, weight, created_at FROM ${schema}.memory_edges ORDER BY src COLLATE "C", rowid`);
    return { memories, edges };
  } finally {
    db.close();
  }
}

function journalOf(engine: Engine, changeId: number): unknown {
  return engine.store.journal.rows(changeId);
}

describe.skipIf(server.unavailable)('a reflection apply on PostgreSQL, batched', () => {
  it('writes, journals and undoes exactly what SQLite does, in far fewer round trips than statements', async () => {
    const sqlitePath = join(tempDir('mnemo-pgbatch-'), 'store.sqlite');
    const planned = openAt(sqlitePath, NOW, true);
    generateDemo(planned.store, { size: 1000, seed: 7, now: NOW });
    const plan = await planReflection(planned);
    planned.close();
    const url = freshSchemaUrl(server.url, 'apply_batching');
    copyStore(sqlitePath, url);
    const ops = planOps(plan);
    // Every kind of op the demo plans, so each write path is held and flushed.
    expect(new Set(ops.map((o) => o.op))).toEqual(new Set(['merge', 'link', 'rescore', 'prune']));
    const before = dumpSqlite(sqlitePath);
    expect(dumpPg(url, 'apply_batching')).toEqual(before);

    // Small batches: rows touched again in a later batch move their after-image (a second statement kind).
    const pacing = { maxBatchItems: 25, pauseMs: 0 };
    const lite = openAt(sqlitePath, NOW);
    const pg = openAt(url, NOW);
    try {
      const liteResult = await applyPlan(lite, plan, { pacing });
      const trips0 = bridgeRoundTrips();
      const pgResult = await applyPlan(pg, plan, { pacing });
      const trips = bridgeRoundTrips() - trips0;
      expect(pgResult.applied).toEqual(liteResult.applied);
      expect(pgResult.skipped).toEqual(liteResult.skipped);
      expect(pgResult.report).toMatchObject({ ...liteResult.report, duration_ms: expect.any(Number) });
      // Unbatched, each op was about eleven statements, each its own round trip; now a few per batch of 25.
      expect(ops.length).toBeGreaterThan(1000);
      expect(trips).toBeLessThan(ops.length / 2);

      expect(dumpPg(url, 'apply_batching')).toEqual(dumpSqlite(sqlitePath));
      expect(journalOf(pg, pgResult.change_id!)).toEqual(journalOf(lite, liteResult.change_id!));

      lite.store.journal.undo(liteResult.change_id!);
      pg.store.journal.undo(pgResult.change_id!);
      expect(dumpSqlite(sqlitePath)).toEqual(before);
      expect(dumpPg(url, 'apply_batching')).toEqual(before);
    } finally {
      lite.close();
      pg.close();
    }
  }, 300_000);

  it('a change that throws after writing held rows leaves nothing written, and its held writes are never sent', () => {
    const url = freshSchemaUrl(server.url, 'apply_batching_rollback');
    const engine = openAt(url, NOW, true);
    try {
      const store = engine.store;
      const a = createMemory({ content: 'the deploy cache failed on staging' }, NOW);
      const b = createMemory({ content: 'alice fixed the notifier' }, NOW);
      store.add(a, null);
      store.add(b, null);
      const failing = errorOf(() =>
        store.change('held then thrown', 'test', () => {
          store.lockAhead!([a.id, b.id]);
          const m = store.get(a.id)!;
          m.content = 'changed, then taken back';
          store.save(m);
          store.addEdge(a.id, b.id, 'related');
          // Read back inside the change: the held row with its write, as the table will have it.
          expect(store.get(a.id)!.content).toBe('changed, then taken back');
          expect(store.neighbors(a.id).map((e) => e.target_id)).toEqual([b.id]);
          throw new MnemoError('conflict', 'taken back on purpose');
        }),
      );
      expect(failing?.message).toBe('taken back on purpose');
      expect(store.get(a.id)!.content).toBe('the deploy cache failed on staging');
      expect(store.neighbors(a.id)).toEqual([]);
      // The next change on the connection writes only its own rows.
      store.change('next', 'test', () => store.setArchived(b.id, true));
      expect(store.get(a.id)!.content).toBe('the deploy cache failed on staging');
      expect(store.neighbors(a.id)).toEqual([]);
      expect(store.get(b.id)!.archived).toBe(true);
    } finally {
      engine.close();
    }
  }, 120_000);

  it('a deferred write that fails fails the statement that sent it, naming the write', () => {
    const schema = 'apply_batching_defer';
    freshSchemaUrl(server.url, schema);
    const db = SyncPg.connect(server.url);
    try {
      db.query(`CREATE SCHEMA ${schema}`);
      db.query(`CREATE TABLE ${schema}.t (id int PRIMARY KEY)`);
      db.query('BEGIN');
      db.defer(`INSERT INTO ${schema}.t VALUES (1)`);
      db.defer(`INSERT INTO ${schema}.t VALUES (1)`);
      db.defer(`INSERT INTO ${schema}.t VALUES (2)`);
      const err = errorOf(() => db.query('SELECT 1'));
      expect(err?.code).toBe('conflict');
      expect(err?.message).toMatch(/deferred/);
      expect(err?.details?.['sql']).toBe(`INSERT INTO ${schema}.t VALUES (1)`);
      db.query('ROLLBACK');
      // Discarded before its rollback: never run.
      db.query('BEGIN');
      db.defer(`INSERT INTO ${schema}.t VALUES (3)`);
      db.discardDeferred();
      db.query('ROLLBACK');
      expect(db.query(`SELECT count(*)::int AS n FROM ${schema}.t`)).toEqual([{ n: 0 }]);
    } finally {
      db.close();
    }
  });
});
