/**
 * A PostgreSQL store's transaction sends its BEGIN with its first statement (deferred). What could
 * go wrong: a transaction that fails before any statement reached the server still sending a
 * ROLLBACK (a wasted round trip, and "WARNING: there is no transaction in progress" in the
 * server's log), or one that fails after a statement not rolling back and leaving its writes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { createMemory } from '../../core/model/memory.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import { bridgeRoundTrips, SyncPg } from '../../core/store/pg/sync-pg.js';
import { pgStores } from '../helpers/pg-stores.js';

const NOW = 1_780_000_000;
const SCHEMA = 'transaction_rollback';
const pg = pgStores([SCHEMA]);

/** The statements this process sends from now on (each one's text), read when asked. */
function recordStatements(): () => string[] {
  const spy = vi.spyOn(SyncPg.prototype, 'query');
  return () => spy.mock.calls.map((call) => call[0]);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe.skipIf(pg.unavailable)('a transaction that fails on PostgreSQL', () => {
  it('sends nothing, ROLLBACK included, when it fails before its first statement', () => {
    const store = pg.connect(SCHEMA, fixedClock(NOW));
    const m = createMemory({ content: 'a memory whose accesses are never logged' }, NOW);
    store.add(m, null);
    const sent = recordStatements();
    const trips = bridgeRoundTrips();

    expect(() =>
      store.transaction(() => {
        throw new Error('before any statement');
      }),
    ).toThrow('before any statement');
    // A deferred write only: it waited for the next statement, and is forgotten.
    expect(() =>
      store.transaction(() => {
        store.recordAccessEvents(m.id, m.access_log, m.strength);
        throw new Error('after a deferred write');
      }),
    ).toThrow('after a deferred write');

    expect(sent()).toEqual([]);
    expect(bridgeRoundTrips() - trips).toBe(0);
    vi.restoreAllMocks();
    expect(store.accessEvents({ memoryId: m.id }).total).toBe(0);
    // The connection is outside any transaction: the next one commits.
    store.recordAccessEvents(m.id, m.access_log, m.strength);
    expect(store.accessEvents({ memoryId: m.id }).total).toBe(1);
  });

  it('rolls back, once, when it fails after a statement, and leaves nothing written', () => {
    const store = pg.connect(SCHEMA, fixedClock(NOW));
    const m = createMemory({ content: 'a memory added, then rolled back' }, NOW);
    const sent = recordStatements();

    expect(() =>
      store.transaction(() => {
        store.add(m, null);
        throw new Error('after a statement');
      }),
    ).toThrow('after a statement');

    expect(sent().filter((sql) => sql === 'ROLLBACK')).toHaveLength(1);
    expect(sent().filter((sql) => sql.includes('COMMIT'))).toEqual([]);
    vi.restoreAllMocks();
    const other = pg.track(PgStore.open(pg.storeUrl(SCHEMA), { clock: fixedClock(NOW) }));
    expect(other.get(m.id)).toBeNull();
    expect(store.get(m.id)).toBeNull();
  });
});
