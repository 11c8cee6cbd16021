/**
 * The synchronous bridge prepares statements under a name per connection (sync-pg-worker.ts).
 * Against a real server. What could go wrong: a prepared statement whose table another process
 * changed (a newer build adding a column) failing on every later call with "cached plan must not
 * change result type", or the name left on the server after it went stale; the names spent on the
 * first texts a process sees (one-off batch shapes) so that the texts that recur never get one, or
 * more names than the cap.
 */
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { createMemory } from '../../core/model/memory.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { errorOf } from '../helpers/mnemo-error.js';
import { pgStores } from '../helpers/pg-stores.js';

const NOW = 1_780_000_000;
const STORE = 'prepared_store';
const RAW = 'prepared_raw';
const pg = pgStores([STORE, RAW]);

/** The texts of the connection's prepared statements. */
function preparedTexts(db: SyncPg): string[] {
  return db.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements').map((r) => r.statement);
}

/** How many of the connection's prepared statements have this text. */
function preparedCount(db: SyncPg, text: string): number {
  return preparedTexts(db).filter((t) => t === text).length;
}

describe.skipIf(pg.unavailable)('named prepared statements on PostgreSQL', () => {
  it('an audit read and an event list answer the same after another connection adds a column to the events table', () => {
    const store = pg.connect(STORE, fixedClock(NOW));
    const m = createMemory({ content: 'read before and after a column is added' }, NOW);
    store.transaction(() => {
      store.add(m, null);
      store.recordAccessEvents(m.id, m.access_log, m.strength);
    });
    const audit = () => store.queries.auditEvents({ memoryId: m.id })!.events.map((e) => [e.event_id, e.memory_id, e.channel, e.memory_type, e.content]);
    const events = () => store.accessEvents({ memoryId: m.id }).events.map((e) => [e.event_id, e.memory_id, e.channel, e.credential_id]);
    // Each read more than once, so that its statement is prepared under a name.
    const before = [audit(), audit(), events(), events()];
    expect(before[0]).toHaveLength(1);

    pg.admin.query(`ALTER TABLE ${STORE}.mnemo_access_events ADD COLUMN added_by_a_newer_build text`);
    expect([audit(), audit(), events(), events()]).toEqual(before);
  });

  it('a prepared statement whose table changed is prepared again, at once outside a transaction and at the next try inside one', () => {
    pg.admin.query(`CREATE SCHEMA ${RAW}`);
    pg.admin.query(`CREATE TABLE ${RAW}.t (id int PRIMARY KEY, a text)`);
    pg.admin.query(`INSERT INTO ${RAW}.t VALUES (1, 'one')`);
    const db = pg.track(SyncPg.connect(pg.url));
    const text = `SELECT * FROM ${RAW}.t WHERE id = $1`;
    const read = () => db.query(text, [1]);
    read();
    read();
    expect(read()).toEqual([{ id: 1, a: 'one' }]);
    expect(preparedCount(db, text)).toBe(1);

    pg.admin.query(`ALTER TABLE ${RAW}.t ADD COLUMN b text DEFAULT 'x'`);
    expect(read()).toEqual([{ id: 1, a: 'one', b: 'x' }]);
    read();
    read();

    // Inside a transaction the error has aborted it: it reaches the caller, typed, and the transaction rolls back.
    pg.admin.query(`ALTER TABLE ${RAW}.t ADD COLUMN c int`);
    const err = errorOf(() => db.transaction(() => read()));
    expect(err?.details).toMatchObject({ sqlstate: '0A000' });
    expect(db.transaction(() => read())).toEqual([{ id: 1, a: 'one', b: 'x', c: null }]);
    read();
    read();
    // The stale names are gone from the server: what it holds for this connection is the text, once.
    expect(preparedTexts(db)).toEqual([text]);
  });

  it('names the texts that recur, not the first ones seen, and lets the least recently used name go past 300', () => {
    const db = pg.track(SyncPg.connect(pg.url));
    const common = 'SELECT $1::int AS common';
    for (let i = 0; i < 400; i++) db.query(`SELECT $1::int + ${i} AS once`, [i]);
    for (let i = 0; i < 3; i++) expect(db.query(common, [i])).toEqual([{ common: i }]);
    // Texts run once are never named.
    expect(preparedTexts(db)).toEqual([common]);

    // 350 texts run twice each: each is named; the common text, run now and then, keeps its name.
    const twice = (i: number) => `SELECT $1::int * ${i} AS twice`;
    for (let i = 0; i < 350; i++) {
      expect(db.query(twice(i), [1])).toEqual([{ twice: i }]);
      expect(db.query(twice(i), [2])).toEqual([{ twice: 2 * i }]);
      if (i % 50 === 0) db.query(common, [i]);
    }
    const texts = preparedTexts(db);
    expect(texts).toHaveLength(300);
    expect(texts).toContain(common);
    expect(texts).toContain(twice(349));
    expect(texts).not.toContain(twice(0));
    // A name let go is prepared again when its text comes back.
    expect(db.query(twice(0), [3])).toEqual([{ twice: 0 }]);
    expect(db.query(twice(0), [3])).toEqual([{ twice: 0 }]);
    expect(preparedTexts(db)).toContain(twice(0));
    expect(preparedTexts(db)).toHaveLength(300);
  });
});
