/**
 * The synchronous bridge prepares statements under a name per connection (sync-pg-worker.ts).
 * Against a real server. What could go wrong: a prepared statement whose table another process
 * changed (a newer build adding a column) failing on every later call with "cached plan must not
 * change result type", or the name left on the server after it went stale.
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

/** How many of the connection's prepared statements have this text. */
function preparedCount(db: SyncPg, text: string): number {
  return db.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements').filter((r) => r.statement === text).length;
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
    expect(db.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements').map((r) => r.statement)).toEqual([text]);
  });
});
