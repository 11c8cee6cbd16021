/**
 * The change feed's retention (core/store/sqlite/feed-retention.ts): rows older than the policy go, access
 * rows sooner than the rest, a bounded number per transaction, and what was removed is recorded so
 * readers reset and time travel knows where the history starts.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../core/clock.js';
import { accessRecord, createMemory, type Memory } from '../../core/model/memory.js';
import { feedStatus, pruneFeed, pruneFeedStep } from '../../core/store/sqlite/feed-retention.js';
import { FEED_META, feedRetention, setFeedRetention } from '../../core/store/queries/feed-retention.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';
import { generateDemo } from '../../core/demo/generate.js';
import { runCli } from '../helpers/cli.js';
import { allMemories } from '../../core/store/queries/memory-lookups.js';

const DAY = 86_400;
const T0 = 1_780_000_000;

let clock: Clock & { t: number };
let path: string;
let store: MemoryStore;
let db: Database.Database;

beforeEach(() => {
  path = join(tempDir(), 'retention.sqlite');
  clock = { t: T0, now: () => clock.t };
  store = MemoryStore.open(path, { create: true, clock });
  db = new Database(path);
});

afterEach(() => {
  db.close();
  store.close();
});

const ops = () => db.prepare('SELECT op, at FROM mnemo_feed ORDER BY seq').raw().all() as [string, number][];

/** Day 0: 3 adds; day 1: an access each; day 50: an edit and an access; day 95: one more access. */
function history(): Memory[] {
  const ms = [0, 1, 2].map((i) => createMemory({ content: `memory ${i}` }, T0));
  for (const m of ms) store.add(m, null);
  clock.t = T0 + DAY;
  store.logAccesses(ms.map((m) => ({ id: m.id, record: accessRecord(clock.t, 'recalled') })));
  clock.t = T0 + 50 * DAY;
  store.save({ ...store.get(ms[0]!.id)!, content: 'memory 0, edited' });
  store.logAccesses([{ id: ms[1]!.id, record: accessRecord(clock.t, 'recalled') }]);
  clock.t = T0 + 95 * DAY;
  store.logAccesses([{ id: ms[2]!.id, record: accessRecord(clock.t, 'recalled') }]);
  return ms;
}

describe('change feed retention', () => {
  it('defaults to 90 days for every row and 14 for accesses; a garbled setting falls back to the default', () => {
    expect(feedRetention(store)).toEqual({ days: 90, access_days: 14 });
    store.setMeta(FEED_META.days, 'forever');
    store.setMeta(FEED_META.access_days, '0');
    expect(feedRetention(store)).toEqual({ days: 90, access_days: 14 });
    expect(setFeedRetention(store, { days: 10, access_days: 30 })).toEqual({ days: 10, access_days: 10 });
  });

  it('removes rows past the horizon from the oldest on, and access rows past their shorter one, and records it', async () => {
    history();
    const before = ops();
    const report = await pruneFeed(store, clock.now(), { pauseMs: 0 });
    // Day 0 adds and day 1 accesses are older than 90 days; the day-50 access is older than 14 days; the day-50 edit stays.
    expect(ops()).toEqual([
      ['update', T0 + 50 * DAY],
      ['access', T0 + 95 * DAY],
    ]);
    expect(report).toEqual({ removed: before.length - 2, access_removed: 4, done: true });
    const status = feedStatus(store);
    expect(status.pruned_through).toBe(before.length - 1); // the day-50 access, seq 6 of 7 (the edit is 5)
    expect(status.history_from).toBe(T0 + DAY);
    expect(status.accesses_from).toBe(T0 + 50 * DAY);
    expect(status.rows_by_op).toEqual({ update: 1, access: 1 });
    expect(status.bytes).toBeGreaterThan(0);
    // Nothing more to do: a second prune removes nothing and says so.
    expect(await pruneFeed(store, clock.now(), { pauseMs: 0 })).toEqual({ removed: 0, access_removed: 0, done: true });
  });

  it('removes at most the step size per transaction, picking up where the last step stopped', () => {
    history();
    const total = ops().length;
    const steps = [];
    for (;;) {
      const step = pruneFeedStep(store, clock.now(), 2);
      steps.push(step.removed);
      if (step.done) break;
    }
    expect(Math.max(...steps)).toBeLessThanOrEqual(2);
    expect(steps.reduce((a, b) => a + b, 0)).toBe(total - 2);
  });

  it('keeps a row younger than the horizon and everything after it, even when a later row carries an older time', () => {
    const ms = history();
    // A foreign writer with a clock running behind: its row is numbered after ours but dated day 0.
    db.prepare("UPDATE memories SET content = 'edited next door' WHERE id = ?").run(ms[1]!.id);
    db.prepare('UPDATE mnemo_feed SET at = ? WHERE seq = (SELECT max(seq) FROM mnemo_feed)').run(T0);
    pruneFeedStep(store, clock.now());
    expect(ops().map(([op]) => op)).toEqual(['update', 'access', 'update']);
  });

  it('mnemo feed sets the policy, prunes and reports, with plain messages for a bad value', async () => {
    history();
    store.close();
    const now = String(T0 + 95 * DAY);
    const res = await runCli(['feed', path, '--days', '60', '--access-days', '30', '--prune', '--now', now, '--json']);
    expect(res.code).toBe(0);
    expect(res.json()).toMatchObject({ installed: true, retention: { days: 60, access_days: 30 }, pruned: { removed: 7, access_removed: 4, done: true } });
    const text = await runCli(['feed', path, '--now', now]);
    expect(text.stdout).toContain('change feed: 2 rows (access 1, update 1)');
    expect(text.stdout).toContain('kept: every change for 60 days, accesses for 30 days');
    const bad = await runCli(['feed', path, '--days', '0']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('days is at least 1 day');
    store = MemoryStore.open(path, { clock });
  });

  it("starts a new demo store's history once it is built, without the load's own rows", () => {
    store.close();
    const demo = MemoryStore.open(join(tempDir(), 'demo.sqlite'), { create: true, clock });
    generateDemo(demo, { size: 300, seed: 3, now: T0 });
    const status = feedStatus(demo);
    expect(status).toMatchObject({ installed: true, rows: 0, history_from: T0, accesses_from: T0 });
    expect(status.pruned_through).toBeGreaterThan(300);
    // What happens after the load is history as usual.
    demo.save({ ...allMemories(demo)[0]!, content: 'edited after the demo was built' });
    expect(feedStatus(demo).rows_by_op).toEqual({ update: 1 });
    demo.close();
    store = MemoryStore.open(path, { clock });
  });
});
