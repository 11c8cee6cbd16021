/**
 * Time travel on a PostgreSQL store (core/store/pg/pg-history-*.ts), with several connections to
 * one store on a real server (MNEMO_TEST_PG_URL, or a throwaway cluster).
 *
 * What could go wrong: a before-image that does not give back the old row (an access, an update
 * that kept the embedding, an edge); a change of another connection left showing, or rolled back
 * in part; a writer whose clock is behind the others' slipping its change of a row in after a
 * change of that row that is rolled back; an instant before the history accepted; a past store
 * that can be written to, or that moves when others commit; an agent's role reading the old
 * content of a memory that was another owner's, from the feed or from a past store.
 */
import { describe, expect, it } from 'vitest';
import { fixedClock, type Clock } from '../../core/clock.js';
import { MnemoError } from '../../core/errors.js';
import { accessRecord, createMemory, type Memory } from '../../core/model/memory.js';
import { grantAgent } from '../../core/store/pg/pg-grant.js';
import { parsePgStoreUrl } from '../../core/store/pg/pg-url.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { pgStores } from '../helpers/pg-stores.js';
import { errorOf } from '../helpers/mnemo-error.js';
import { allMemories, memoryEmbedding } from '../../core/store/queries/memory-lookups.js';

const T0 = 1_780_000_000;
const T1 = T0 + 100;
const T2 = T0 + 200;
const T3 = T0 + 300;

function steppedClock(start: number): Clock & { set(t: number): void } {
  let t = start;
  return { now: () => t, set: (next) => (t = next) };
}

const vector = (seed: number) => Float32Array.from({ length: 256 }, (_v, i) => Math.sin(seed * 7 + i) / 8);

/** Everything a reader sees of the store: each memory (edges included) in iteration order, with its embedding. */
function snapshot(store: PgStore): unknown[] {
  return allMemories(store).map((m) => ({ ...m, embedding: Array.from(memoryEmbedding(store, m.id) ?? []) }));
}

describe('time travel on a PostgreSQL store', () => {
  const SCHEMAS = ['pgtt_writers', 'pgtt_agents', 'pgtt_upgrade'];
  const pg = pgStores(SCHEMAS, (admin) =>
    admin.query(`DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'pgtt_agents.coder@2') THEN EXECUTE 'DROP OWNED BY "pgtt_agents.coder@2"'; EXECUTE 'DROP ROLE "pgtt_agents.coder@2"'; END IF; END $$`),
  );
  const { connect, storeUrl } = pg;

  function past(schema: string, at: number, url = storeUrl(schema)): PgStore {
    return pg.track(PgStore.openAsOf(url, at, { clock: fixedClock(T3 + 1000) }));
  }

  it('shows each instant exactly as a reader saw it then, after updates, deletes, edges and accesses by two connections', (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    const clockA = steppedClock(T0);
    const clockB = steppedClock(T0);
    const a = connect('pgtt_writers', clockA);
    const b = connect('pgtt_writers', clockB);
    const reader = connect('pgtt_writers', fixedClock(T3));
    const at = (t: number) => {
      clockA.set(t);
      clockB.set(t);
    };

    at(T1);
    const [m1, m2, m3] = ['the deploy checklist lives in the wiki', 'roll back with make rollback', 'lunch is on Fridays'].map((content) => createMemory({ content, tags: ['ops'] }, T1)) as [Memory, Memory, Memory];
    a.add(m1, vector(1));
    a.add(m2, vector(2));
    a.add(m3, null);
    a.addEdge(m1.id, m2.id, 'related', 0.5);
    const m4 = createMemory({ content: 'the printer toner is in the cupboard' }, T1);
    b.add(m4, vector(4));
    const atT1 = snapshot(reader);

    at(T2);
    b.save({ ...b.get(m1.id)!, content: 'the deploy checklist moved to the runbook' });
    a.delete(m3.id);
    a.removeEdge(m1.id, m2.id, 'related');
    b.addEdge(m2.id, m4.id, 'supports', 0.8);
    a.logAccesses([{ id: m2.id, record: accessRecord(T2, 'recalled', { query: 'rollback' }) }]);
    b.logAccesses([{ id: m2.id, record: accessRecord(T2, 'searched', { query: 'make' }) }]);
    b.setArchived(m4.id, true);
    a.setEmbedding(m2.id, vector(22));
    const atT2 = snapshot(reader);
    expect(atT2).not.toEqual(atT1);

    at(T3);
    a.save({ ...a.get(m2.id)!, content: 'roll back with make rollback-all' });
    a.add(createMemory({ content: 'a new note' }, T3), null);
    // m1's embedding changes after its T2 edit (which kept it): rolling both back takes the old embedding from this change.
    a.setEmbedding(m1.id, vector(11));
    // A writer whose clock is far behind changes m2 after the T3 change of it: its stamp says T1 + 10,
    // but it cannot be shown before a change of the row it came after.
    const late = connect('pgtt_writers', fixedClock(T1 + 10));
    late.save({ ...late.get(m2.id)!, importance: 0.99 });

    for (const t of [T1, T1 + 50, T2 - 1]) expect(snapshot(past('pgtt_writers', t)), `as of ${t}`).toEqual(atT1);
    expect(snapshot(past('pgtt_writers', T2 + 50))).toEqual(atT2);
    // At T1 + 15 the late writer's own stamp has passed, but the T3 change it followed has not: it is rolled back too.
    expect(snapshot(past('pgtt_writers', T1 + 15))).toEqual(atT1);
    // After every stamp: the store as it is now, nothing rolled back.
    const now = past('pgtt_writers', T3 + 10);
    expect(now.history).toMatchObject({ live: true, rolled_back: 0 });
    expect(snapshot(now)).toEqual(snapshot(reader));

    // What changed between T1 and T2, from the same feed rows.
    const diff = reader.changesBetween(reader.asOf(T1 + 50).position, reader.asOf(T2 + 50).position);
    const byId = new Map(diff.memories.map((t) => [t.key, t]));
    expect(byId.get(m3.id)).toMatchObject({ to: null, from: { content: 'lunch is on Fridays' } });
    expect(byId.get(m1.id)).toMatchObject({ from: { content: m1.content }, to: { content: 'the deploy checklist moved to the runbook' } });
    expect(byId.get(m2.id)!.authors.length).toBeGreaterThanOrEqual(3);
    expect(diff.edges.map((e) => [e.key.split('\u0000').join(' '), e.from === null, e.to === null]).sort()).toEqual(
      [
        [`${m1.id} ${m2.id} related`, false, true],
        [`${m2.id} ${m4.id} supports`, true, false],
      ].sort(),
    );
  });

  it('keeps a past store still while others commit, refuses every write, and refuses an instant before the history', (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    const writer = connect('pgtt_writers', fixedClock(T3 + 100));
    const then = past('pgtt_writers', T2 + 50);
    const before = snapshot(then);
    writer.add(createMemory({ content: 'committed while the past store is open' }, T3 + 100), null);
    expect(snapshot(then)).toEqual(before);
    const m = allMemories(then)[0]!;
    for (const write of [() => then.add(createMemory({ content: 'x' }, T3), null), () => then.save({ ...m, content: 'y' }), () => then.setArchived(m.id, true), () => then.setMeta('k', 'v')]) {
      expect(errorOf(write)).toMatchObject({ code: 'bad_input', details: { reason: 'read_only_past' } });
    }
    // The refusals left its snapshot usable.
    expect(snapshot(then)).toEqual(before);
    const refused = errorOf(() => past('pgtt_writers', T0 - 5));
    expect(refused).toBeInstanceOf(MnemoError);
    expect(refused).toMatchObject({ code: 'bad_input', details: { reason: 'before_history', earliest: T0 } });
  });

  it('starts the history of a store whose feed predates the images at the writable open that upgrades it', (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    const first = connect('pgtt_upgrade', fixedClock(T1));
    const m = createMemory({ content: 'written before the images' }, T1);
    first.add(m, null);
    first.save({ ...first.get(m.id)!, content: 'edited before the images' });
    first.close();
    // As a feed from before the images left it: its rows carry none, no instant says where they start, and no level is recorded.
    pg.admin.query(`UPDATE pgtt_upgrade.mnemo_pg_feed SET embedding_kept = NULL, old_content = NULL, old_data = NULL`);
    pg.admin.query(`DELETE FROM pgtt_upgrade.mnemo_pg_store WHERE key IN ('feed_images_from', 'feed_ddl_level')`);
    expect(errorOf(() => past('pgtt_upgrade', T2))?.details).toMatchObject({ reason: 'no_history' });
    // A read-only open does not upgrade it; the next writable one does, at its clock.
    PgStore.open(storeUrl('pgtt_upgrade'), { readonly: true, clock: fixedClock(T2) }).close();
    expect(errorOf(() => past('pgtt_upgrade', T2))?.details).toMatchObject({ reason: 'no_history' });
    const clock = steppedClock(T2);
    const upgraded = connect('pgtt_upgrade', clock);
    clock.set(T3);
    upgraded.save({ ...upgraded.get(m.id)!, content: 'edited after the images' });
    expect(errorOf(() => past('pgtt_upgrade', T1 + 50))?.details).toMatchObject({ reason: 'before_history', earliest: T2 });
    // The edit after the upgrade rolls back to the row the legacy rows left.
    expect(past('pgtt_upgrade', T2 + 50).get(m.id)?.content).toBe('edited before the images');
    expect(past('pgtt_upgrade', T3).get(m.id)?.content).toBe('edited after the images');
  });

  it("never lets an agent's role read another role's old content: not from the feed, not from a past store", (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    const clock = steppedClock(T0);
    const operator = connect('pgtt_agents', clock);
    clock.set(T1);
    const secret = createMemory({ content: 'writer@1 secret: the staging password rotates on Mondays', owner: 'writer@1' }, T1);
    const mine = createMemory({ content: 'coder@2 note v1', owner: 'coder@2' }, T1);
    operator.add(secret, null);
    operator.add(mine, null);
    clock.set(T2);
    // writer@1's memory moves to coder@2, with new content; coder@2's own memory changes too.
    operator.save({ ...operator.get(secret.id)!, owner: 'coder@2', content: 'now coder@2s: nothing secret here' });
    operator.save({ ...operator.get(mine.id)!, content: 'coder@2 note v2' });

    const granted = grantAgent(storeUrl('pgtt_agents'), 'coder@2');
    const agent = SyncPg.connect(parsePgStoreUrl(granted.url).connection);
    try {
      // Its role's rows and shared ones (owner ''), as for memories: never writer@1's.
      const feed = agent.query<{ owner: string }>(`SELECT owner FROM pgtt_agents.mnemo_pg_feed`);
      expect(feed.length).toBeGreaterThan(0);
      expect(feed.every((r) => r.owner === '' || r.owner.startsWith('coder@'))).toBe(true);
      // The before-images are time travel's, an operator's: they hold whole rows, every reader's ring
      // included, so no column of them is the agent's to read, not even its own memory's.
      for (const sql of [`SELECT old_content FROM pgtt_agents.mnemo_pg_feed`, `SELECT f::text FROM pgtt_agents.mnemo_pg_feed f`]) {
        expect(errorOf(() => agent.query(sql))?.details, sql).toMatchObject({ sqlstate: '42501' });
      }
    } finally {
      agent.close();
    }
    // The operator sees the move: the memory was writer@1's at T1.
    expect(past('pgtt_agents', T1 + 50).get(secret.id)).toMatchObject({ owner: 'writer@1', content: secret.content });
    // coder@2's role may not read the store's past at all: refused before anything is read.
    expect(errorOf(() => past('pgtt_agents', T1 + 50, granted.url))).toMatchObject({ code: 'permission', message: expect.stringMatching(/only an operator reads/) });
  });
});
