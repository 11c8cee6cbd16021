/**
 * A PostgreSQL copy of a store only nooa has written gains Mnemo's rows on its first Mnemo write, as
 * the SQLite file does (migration): the meta rows of a store nooa made, and one backfilled access
 * event per entry already in the rings, before the write's own events. Against a real server
 * (MNEMO_TEST_PG_URL, or a throwaway cluster).
 *
 * What could go wrong: the first write refused (Mnemo's tables missing), the rings not backfilled
 * or backfilled twice (two connections at once), events in another order, a default profile other
 * than nooa's, the upgrade left half-done by a write that failed, a connection opened before the
 * upgrade still saying the store has no journal.
 */
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { copyStore } from '../../core/store/copy/copy-stores.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import { DEFAULT_PROFILE_KEY } from '../../core/store/queries/saved-profiles.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { freshSchemaUrl } from '../../support/pg-cluster.js';
import { expected, fixtureFileCopy } from '../../support/fixture.js';
import { runCli } from '../helpers/cli.js';
import { pgServer } from '../helpers/pg-server.js';
import { accessEventCount } from '../../core/store/queries/access-log.js';

const server = pgServer();
const NOW = expected().now as number;
let schemas = 0;

/** A fresh PostgreSQL copy of the nooa-only fixture. */
function pgCopy(): string {
  const url = freshSchemaUrl(server.url, `nooa_up_${++schemas}`);
  copyStore(fixtureFileCopy(), url);
  return url;
}

/** What Mnemo's first write added: the default profile, and every access event but its id. */
function upgraded(store: { getMeta(key: string): string | null; accessEvents: MemoryStore['accessEvents'] }): { profile: string | null; events: unknown[] } {
  const { events } = store.accessEvents({ limit: 100_000, order: 'asc' });
  return { profile: store.getMeta(DEFAULT_PROFILE_KEY), events: events.map(({ event_id: _id, ...rest }) => rest) };
}

describe.skipIf(server.unavailable)('a nooa-only store on PostgreSQL, first written by Mnemo', () => {
  it('gains the same meta and backfilled events as the SQLite file, then the write', async () => {
    const sqlite = fixtureFileCopy();
    const pg = pgCopy();
    for (const db of [sqlite, pg]) {
      const res = await runCli(['search', db, 'deploy notifier to staging', '--now', String(NOW), '--json']);
      expect(res.code, res.stderr).toBe(0);
    }
    const a = MemoryStore.open(sqlite, { readonly: true, clock: fixedClock(NOW) });
    const b = PgStore.open(pg, { readonly: true, clock: fixedClock(NOW) });
    try {
      expect(b.hasMnemo()).toBe(true);
      const want = upgraded(a);
      const got = upgraded(b);
      expect(got.events.length).toBeGreaterThan(10);
      expect(got.events.filter((e) => (e as { backfilled: boolean }).backfilled).length).toBeGreaterThan(0);
      expect(got).toEqual(want);
    } finally {
      a.close();
      b.close();
    }
  });

  it('backfills once when a second connection, opened before the first one upgraded the store, writes next', () => {
    const pg = pgCopy();
    const one = PgStore.open(pg, { clock: fixedClock(NOW) });
    const two = PgStore.open(pg, { clock: fixedClock(NOW) });
    try {
      one.ensureMnemo();
      two.ensureMnemo();
      expect(two.hasMnemo()).toBe(true);
      const backfilled = one.accessEvents({ limit: 100_000, order: 'asc' }).events.filter((e) => e.backfilled);
      const fresh = fixtureFileCopy();
      const ref = MemoryStore.open(fresh, { clock: fixedClock(NOW) });
      ref.ensureMnemo();
      const want = accessEventCount(ref);
      ref.close();
      expect(backfilled.length).toBe(want);
    } finally {
      one.close();
      two.close();
    }
  });

  // A host's workers each hold a connection opened at start: the reading one must see the journal the writing one began.
  it('shows the journal and meta to a connection opened before another one upgraded the store and wrote', () => {
    const pg = pgCopy();
    const reader = PgStore.open(pg, { clock: fixedClock(NOW) });
    const writer = PgStore.open(pg, { clock: fixedClock(NOW) });
    try {
      expect(reader.hasMnemo()).toBe(false);
      expect(reader.journal.history()).toEqual([]);
      const id = writer.iter().next().value!.id;
      writer.change('Archived 1 memory', 'memory.archive', () => writer.setArchived(id, true));
      const [change] = writer.journal.history(1);
      expect(change).toBeDefined();
      expect(reader.hasMnemo()).toBe(true);
      expect(reader.journal.history(1)).toEqual([change]);
      expect(reader.journal.get(change!.id).kind).toBe(change!.kind);
      expect(reader.getMeta(DEFAULT_PROFILE_KEY)).toBe(writer.getMeta(DEFAULT_PROFILE_KEY));
    } finally {
      reader.close();
      writer.close();
    }
  });

  it('keeps nothing of the upgrade when the write that set it off fails', () => {
    const pg = pgCopy();
    const store = PgStore.open(pg, { clock: fixedClock(NOW) });
    try {
      expect(() =>
        store.transaction(() => {
          store.ensureMnemo();
          throw new Error('the write failed');
        }),
      ).toThrow('the write failed');
      expect(store.hasMnemo()).toBe(false);
      expect(accessEventCount(store)).toBe(0);
      expect(store.getMeta(DEFAULT_PROFILE_KEY)).toBeNull();
    } finally {
      store.close();
    }
  });
});
