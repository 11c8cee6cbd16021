/**
 * The change feed of a PostgreSQL store (core/store/pg/pg-feed*.ts, pg-external-changes.ts), with
 * several connections to one store on a real server (MNEMO_TEST_PG_URL, or a throwaway cluster).
 *
 * What could go wrong: a transaction that began first and commits last is never heard (read by
 * row number, its rows sit behind a position that already passed later-numbered rows); a
 * connection hears its own writes twice; a reader whose position retention pruned past misses
 * changes instead of rebuilding; an access is logged as an edit (or the reverse), so retention
 * keeps the wrong rows; the feed's rows name no change; our own writes move dataVersion.
 */
import { describe, expect, it } from 'vitest';
import { fixedClock, type Clock } from '../../core/clock.js';
import { accessRecord, createMemory } from '../../core/model/memory.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import type { ChangeEvent } from '../../core/store/port/port.js';
import { pgStores } from '../helpers/pg-stores.js';
import { setFeedRetention } from '../../core/store/queries/feed-retention.js';

const NOW = 1_780_000_000;
const DAY = 86_400;
const fast = { batchMs: 1000, maxBatchItems: 1, pauseMs: 0 };


describe('the change feed of a PostgreSQL store', () => {
  const SCHEMAS = ['pgfeed_order', 'pgfeed_prune', 'pgfeed_ops', 'pgfeed_versions', 'pgfeed_edges', 'pgfeed_edge_only'];
  const pg = pgStores(SCHEMAS);

  /** A connection to the store in `schema` (made on first use), closed after the test. */
  const connect = (schema: string, clock: Clock = fixedClock(NOW)): PgStore => pg.connect(schema, clock);

  function listen(store: PgStore): ChangeEvent[] {
    const events: ChangeEvent[] = [];
    store.onChange((e) => events.push(e));
    return events;
  }

  it('hears a transaction that began first and committed after a later one was read', (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    const reader = connect('pgfeed_order');
    const first = connect('pgfeed_order');
    const second = connect('pgfeed_order');
    const events = listen(reader);
    const early = createMemory({ content: 'written first, committed last' }, NOW);
    const late = createMemory({ content: 'written second, committed first' }, NOW);
    const heard: ChangeEvent[] = [];
    first.transaction(() => {
      first.add(early, null); // its feed row takes the lower sequence number, and the lower transaction id
      second.add(late, null); // commits at once, on its own connection
      // The reader catches up between the two commits: a position "after the last row read" would now pass the first's row.
      reader.catchUp();
      heard.push(...events.splice(0));
    });
    reader.catchUp();
    heard.push(...events.splice(0));
    expect(heard).toEqual(expect.arrayContaining([{ kind: 'upsert', id: early.id }, { kind: 'upsert', id: late.id }]));
    expect(heard).toHaveLength(2); // each transaction's rows heard once
    // The feed's rows really are out of commit order: the first transaction's row has the lower number.
    const rows = pg.admin.query<{ memory_id: string; seq: string }>('SELECT memory_id, seq::text AS seq FROM pgfeed_order.mnemo_pg_feed ORDER BY seq');
    expect(rows.map((r) => r.memory_id)).toEqual([early.id, late.id]);
  });

  it("leaves out the connection's own rows: its listeners heard them as they were written", (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    const reader = connect('pgfeed_order');
    const other = connect('pgfeed_order');
    const events = listen(reader);
    const ours = createMemory({ content: 'ours' }, NOW);
    const theirs = createMemory({ content: 'theirs' }, NOW);
    reader.add(ours, null);
    other.add(theirs, null);
    reader.save({ ...ours, content: 'ours, edited' });
    expect(events).toEqual([
      { kind: 'upsert', id: ours.id },
      { kind: 'upsert', id: ours.id },
    ]);
    events.length = 0;
    reader.catchUp();
    expect(events).toEqual([{ kind: 'upsert', id: theirs.id }]);
    // Read straight from the feed, every connection's rows are there.
    const all = reader.changedSince({ epoch: reader.feedPosition()!.epoch, seq: 1 }, 100)!;
    expect(all.upserts).toEqual(expect.arrayContaining([ours.id, theirs.id]));
  });

  it('resets a reader whose position is from before retention pruned the feed', async (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    const writer = connect('pgfeed_prune', fixedClock(NOW - 40 * DAY));
    const reader = connect('pgfeed_prune');
    const events = listen(reader);
    const before = reader.feedPosition()!;
    const old = createMemory({ content: 'written forty days ago' }, NOW - 40 * DAY);
    writer.add(old, null);
    setFeedRetention(writer, { days: 30 });
    const report = await writer.runs.pruneFeed(NOW, fast);
    expect(report).toMatchObject({ removed: 1, access_removed: 0, done: true });
    expect(writer.queries.feedStatus()).toMatchObject({ installed: true, rows: 0, pruned_through: 1, history_from: NOW - 40 * DAY });
    expect(reader.changedSince(before, 100)).toBeNull();
    reader.catchUp();
    expect(events).toEqual([{ kind: 'reset' }]);
    // From the position the reset left, the next change is told as itself again.
    events.length = 0;
    const next = createMemory({ content: 'written now' }, NOW);
    writer.add(next, null);
    reader.catchUp();
    expect(events).toEqual([{ kind: 'upsert', id: next.id }]);
  });

  it('logs an access apart from an edit, names the change, and retention drops accesses first', async (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    const writer = connect('pgfeed_ops', fixedClock(NOW - 20 * DAY));
    const m = createMemory({ content: 'used' }, NOW - 20 * DAY);
    const { changeId } = writer.change('add one', 'test', () => writer.add(m, null));
    writer.logAccesses([{ id: m.id, record: accessRecord(NOW - 20 * DAY, 'recalled', { query: 'q' }) }]);
    writer.save({ ...writer.get(m.id)!, title: 'renamed' });
    const rows = pg.admin.query<{ op: string; change_id: string | null }>('SELECT op, change_id::text AS change_id FROM pgfeed_ops.mnemo_pg_feed ORDER BY seq');
    expect(rows).toEqual([
      { op: 'insert', change_id: String(changeId) },
      { op: 'access', change_id: null },
      { op: 'update', change_id: null },
    ]);
    // Accesses older than 14 days go; the rest is kept for 90.
    expect(await writer.runs.pruneFeed(NOW, fast)).toMatchObject({ removed: 1, access_removed: 1, done: true });
    expect(writer.queries.feedStatus().rows_by_op).toEqual({ insert: 1, update: 1 });
  });

  it("moves dataVersion for another connection's commit only, and totalChanges for ours", (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    const store = connect('pgfeed_versions');
    const other = connect('pgfeed_versions');
    const version = store.dataVersion();
    const ours = store.totalChanges();
    store.add(createMemory({ content: 'ours' }, NOW), null);
    expect(store.dataVersion()).toBe(version);
    expect(store.totalChanges()).toBeGreaterThan(ours);
    expect(store.refreshIfChanged()).toBe(false);
    other.add(createMemory({ content: 'theirs' }, NOW), null);
    expect(store.dataVersion()).toBeGreaterThan(version);
    expect(store.refreshIfChanged()).toBe(true);
    expect(store.refreshIfChanged()).toBe(false); // noted once
  });
  // Edge inserts and deletes are logged once per statement from its transition table (pg-feed-ddl.ts): one feed row per edge all the same.
  it("logs each edge of a many-row insert and delete with its source's owner and, for a delete, the old row", (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    const store = connect('pgfeed_edges');
    const a = createMemory({ content: 'the source', owner: 'a@fleet' }, NOW);
    const [b, c, d] = ['b', 'c', 'd'].map((x) => createMemory({ content: `target ${x}`, owner: 'b@fleet' }, NOW));
    for (const m of [b!, c!, d!]) store.add(m, null);
    a.edges = [b!, c!, d!].map((m, i) => ({ target_id: m.id, type: 'related' as const, weight: 0.25 * (i + 1), created_at: NOW + i }));
    store.add(a, null);
    const feed = (op: string) =>
      pg.admin.query<Record<string, unknown>>(
        `SELECT memory_id, dst, edge_type, owner, old_weight, old_created_at, old_rowid::text AS old_rowid, embedding_kept FROM pgfeed_edges.mnemo_pg_feed WHERE tbl = 'edge' AND op = $1 ORDER BY seq`,
        [op],
      );
    const edges = pg.admin.query<{ dst: string; weight: number; created_at: number; rowid: string }>(
      `SELECT dst, weight, created_at, rowid::text AS rowid FROM pgfeed_edges.memory_edges WHERE src = $1 ORDER BY rowid`,
      [a.id],
    );
    expect(edges.map((e) => e.dst)).toEqual([b!.id, c!.id, d!.id]);
    // Inserted in rowid order, each with the source's owner (not the target's) and no image.
    expect(feed('insert')).toEqual(edges.map((e) => ({ memory_id: a.id, dst: e.dst, edge_type: 'related', owner: 'a@fleet', old_weight: null, old_created_at: null, old_rowid: null, embedding_kept: false })));
    // A foreign writer's raw many-row delete is logged too, each row with its old weight, time and rowid.
    pg.admin.query(`DELETE FROM pgfeed_edges.memory_edges WHERE src = $1 AND dst <> $2`, [a.id, c!.id]);
    const gone = edges.filter((e) => e.dst !== c!.id);
    expect(feed('delete')).toEqual(gone.map((e) => ({ memory_id: a.id, dst: e.dst, edge_type: 'related', owner: 'a@fleet', old_weight: e.weight, old_created_at: e.created_at, old_rowid: e.rowid, embedding_kept: false })));
  });

  it('tells a memory whose only change was an edge at it as `edges`, and one whose row changed as an upsert', (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    const reader = connect('pgfeed_edge_only');
    const other = connect('pgfeed_edge_only');
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((x) => createMemory({ content: `memory ${x}` }, NOW));
    a!.edges = [{ target_id: b!.id, type: 'related', weight: 0.5, created_at: NOW }];
    for (const m of [b!, c!, d!, e!, a!]) other.add(m, null);
    reader.catchUp();
    const events = listen(reader);
    other.transaction(() => {
      other.delete(a!.id); // b loses the edge from a; its row is unchanged
      other.addEdge(c!.id, d!.id, 'supports', 0.5); // d's row is unchanged (c's is rewritten here)
      other.save({ ...e!, content: 'memory e, edited' });
    });
    reader.catchUp();
    const kinds = Object.fromEntries(events.map((ev) => ('id' in ev ? [ev.id, ev.kind] : ['', ev.kind])));
    expect(kinds).toEqual({ [a!.id]: 'delete', [b!.id]: 'edges', [c!.id]: 'upsert', [d!.id]: 'edges', [e!.id]: 'upsert' });
  });
  it('tells a memory whose only change was an access as `usage`, and one accessed and edited as an upsert', (ctx) => {
    if (pg.unavailable) return ctx.skip(pg.unavailable);
    const reader = connect('pgfeed_usage_only');
    const other = connect('pgfeed_usage_only');
    const [a, b, c] = ['a', 'b', 'c'].map((x) => createMemory({ content: `memory ${x}` }, NOW));
    for (const m of [a!, b!, c!]) other.add(m, null);
    reader.catchUp();
    const events = listen(reader);
    other.logAccesses([a!, b!].map((m) => ({ id: m.id, record: accessRecord(NOW + 1, 'recalled') })));
    other.save({ ...other.get(b!.id)!, content: 'memory b, edited' });
    other.addEdge(c!.id, a!.id, 'supports', 0.5); // a: an access and an edge, so more than its usage
    other.logAccesses([{ id: c!.id, record: accessRecord(NOW + 2, 'recalled') }]);
    reader.catchUp();
    const kinds = Object.fromEntries(events.map((ev) => ('id' in ev ? [ev.id, ev.kind] : ['', ev.kind])));
    expect(kinds).toEqual({ [a!.id]: 'upsert', [b!.id]: 'upsert', [c!.id]: 'upsert' });
    events.length = 0;
    other.logAccesses([a!, b!].map((m) => ({ id: m.id, record: accessRecord(NOW + 3, 'recalled') })));
    reader.catchUp();
    expect(events).toEqual(expect.arrayContaining([{ kind: 'usage', id: a!.id }, { kind: 'usage', id: b!.id }]));
    expect(events).toHaveLength(2);
  });
});
