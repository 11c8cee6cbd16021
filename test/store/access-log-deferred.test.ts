/**
 * A recall's accesses never wait for another connection's write lock (core/store/sqlite/sqlite-access-log.ts):
 * while someone else holds it (a reflection applying in batches), they are kept and written once it
 * is free, before any read of the event table, or at close.
 *
 * What could go wrong: the recall's thread sleeping in SQLite's busy handler (or failing `busy`
 * after it), kept accesses lost, written twice, or written behind a read of the log that should
 * have seen them.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { accessRecord, createMemory } from '../../core/model/memory.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';
import { courtesyKey, keptAccesses, noteKeptAccesses, wantWriteLock, writerWaiting } from '../../core/store/port/write-courtesy.js';
import { Pacer } from '../../core/store/shared/change-run.js';
import { pacingOf } from '../../core/model/run-pacing.js';

const NOW = 1_780_000_000;
const open: { close(): void }[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

/** A store with one memory, and a second connection to it; `busyTimeoutMs` is the store's busy wait (default 5 s). */
function setup(busyTimeoutMs?: number) {
  const db = join(tempDir(), 'store.sqlite');
  const store = MemoryStore.open(db, { create: true, clock: fixedClock(NOW), ...(busyTimeoutMs !== undefined ? { busyTimeoutMs } : {}) });
  open.push(store);
  const m = createMemory({ content: 'the payments deploy failed on a missing secret', owner: 'Planner@a1' }, NOW - 3600);
  store.add(m, null);
  // Another connection, as another process's writer would be.
  const other = new Database(db);
  open.push({ close: () => other.open && other.close() });
  const write = () => ({ id: m.id, record: accessRecord(NOW, 'recalled', { reader_owner: 'Planner@a1', query: 'payments deploy' }) });
  const accessCount = () => (other.prepare('SELECT access_count FROM memories WHERE id = ?').pluck().get(m.id) as number) ?? 0;
  const events = () => other.prepare("SELECT count(*) FROM mnemo_access_events WHERE memory_id = ?").pluck().get(m.id) as number;
  return { db, store, other, m, write, accessCount, events };
}

const until = async (done: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
};

describe("a recall's accesses beside another connection's write lock", () => {
  it("are kept while a long change of this process wants the store's lock, though the lock is free, and written once it has committed", async () => {
    const { db, store, write, accessCount, events } = setup();
    const before = accessCount();
    // Another store's long change is none of this one's business.
    const elsewhere = wantWriteLock(courtesyKey(`${db}.other`));
    store.logAccesses([write()], { deferIfBusy: true });
    expect(events()).toBe(1);
    elsewhere();
    const release = wantWriteLock(courtesyKey(db));
    store.logAccesses([write()], { deferIfBusy: true });
    store.logAccesses([write()], { deferIfBusy: true });
    await new Promise((r) => setTimeout(r, 60));
    expect(events()).toBe(1);
    release();
    await until(() => events() === 3);
    expect(events()).toBe(3);
    expect(accessCount()).toBe(before + 3);
  });

  it("a long change's step wants the store's lock from its start until it has committed or failed", async () => {
    const { store } = setup();
    const key = courtesyKey(store.path);
    const pacer = new Pacer(store, pacingOf({ pauseMs: 1 }));
    expect(await pacer.take(() => writerWaiting(key))).toBe(true);
    expect(writerWaiting(key)).toBe(false);
    await expect(pacer.take(() => { throw new Error('a step that fails'); })).rejects.toThrow('a step that fails');
    expect(writerWaiting(key)).toBe(false);
    pacer.end();
  });

  it('are counted on the board while kept, and taken off it once written, by a later turn or at close', async () => {
    const { db, store, write, events } = setup();
    const base = keptAccesses();
    const release = wantWriteLock(courtesyKey(db));
    store.logAccesses([write(), write()], { deferIfBusy: true });
    expect(keptAccesses()).toBe(base + 2);
    release();
    await until(() => keptAccesses() === base);
    expect(keptAccesses()).toBe(base);
    expect(events()).toBe(2);
    const again = wantWriteLock(courtesyKey(db));
    store.logAccesses([write()], { deferIfBusy: true });
    expect(keptAccesses()).toBe(base + 1);
    store.close();
    again();
    expect(keptAccesses()).toBe(base);
    expect(events()).toBe(3);
  });

  it("a long change's pause lasts while a pile of accesses is kept for it, within its bound; a take-back's does not", async () => {
    const { store } = setup();
    const pacer = new Pacer(store, pacingOf({ pauseMs: 1 }));
    // A few kept, as while agents recall beside another writer: not a pile, the pause is its length.
    noteKeptAccesses(10);
    let started = performance.now();
    await pacer.between();
    expect(performance.now() - started).toBeLessThan(400);
    noteKeptAccesses(-10);
    noteKeptAccesses(100);
    let ended = false;
    const pause = pacer.between().then(() => (ended = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(ended).toBe(false);
    noteKeptAccesses(-100);
    await pause;
    // A pile never written: the pause still ends, at its bound (500 ms past its length).
    noteKeptAccesses(100);
    started = performance.now();
    await pacer.between();
    expect(performance.now() - started).toBeGreaterThanOrEqual(490);
    pacer.end();
    const takeBack = new Pacer(store, pacingOf({ pauseMs: 1 }), false);
    started = performance.now();
    await takeBack.between();
    expect(performance.now() - started).toBeLessThan(400);
    takeBack.end();
    noteKeptAccesses(-100);
  });

  it('are kept while the lock is taken (no wait, no busy error) and written once it is free, exactly once', async () => {
    const { store, other, write, accessCount, events } = setup();
    const before = accessCount();
    other.exec('BEGIN IMMEDIATE');
    expect(() => store.logAccesses([write()], { deferIfBusy: true })).not.toThrow();
    expect(() => store.logAccesses([write()], { deferIfBusy: true })).not.toThrow();
    expect(accessCount()).toBe(before);
    other.exec('COMMIT');
    await until(() => events() === 2);
    expect(events()).toBe(2);
    expect(accessCount()).toBe(before + 2);
    await new Promise((r) => setTimeout(r, 150));
    expect(events()).toBe(2);
  });

  it('are written before a read of the event table, which sees them', () => {
    const { store, other, m, write } = setup();
    other.exec('BEGIN IMMEDIATE');
    store.logAccesses([write()], { deferIfBusy: true });
    other.exec('COMMIT');
    // No retry has run yet (this test never yields): the read itself writes them first.
    expect(store.accessEvents({ memoryId: m.id }).total).toBe(1);
  });

  it('are written when the store closes', () => {
    const { store, other, write, events } = setup();
    other.exec('BEGIN IMMEDIATE');
    store.logAccesses([write()], { deferIfBusy: true });
    other.exec('COMMIT');
    store.close();
    expect(events()).toBe(1);
  });

  it('without deferIfBusy, still wait for the lock as any write does', () => {
    const { store, other, m } = setup(50);
    other.exec('BEGIN IMMEDIATE');
    expect(() => store.logAccesses([{ id: m.id, record: accessRecord(NOW, 'recalled') }])).toThrow(/locked|busy/i);
    other.exec('COMMIT');
  });

  it('kept past their limit, wait for the lock from a timer, and a lock still taken then neither throws nor loses them', async () => {
    // A short busy wait: the overdue write (5 s after the first kept access) gives up at once.
    const { store, other, m, events } = setup(20);
    other.exec('BEGIN IMMEDIATE');
    store.logAccesses([{ id: m.id, record: accessRecord(NOW, 'recalled') }], { deferIfBusy: true });
    // Past the 5 s limit, the timer's write waits for the lock, fails busy, and keeps them (an
    // error thrown there would reach the test run as an uncaught error).
    await new Promise((r) => setTimeout(r, 5_500));
    other.exec('COMMIT');
    await until(() => events() === 1);
    expect(events()).toBe(1);
  }, 20_000);
  it('kept by the thousand, are written a bounded batch per transaction, and the thread runs other work between batches', async () => {
    const { store, other, m, events } = setup();
    other.exec('BEGIN IMMEDIATE');
    for (let i = 0; i < 10; i++) store.logAccesses(Array.from({ length: 100 }, () => ({ id: m.id, record: accessRecord(NOW, 'recalled') })), { deferIfBusy: true });
    expect(events()).toBe(0);
    // What the other connection sees after each commit, and what a callback queued after the first one sees.
    const seen = new Set<number>();
    let between: number | null = null;
    store.onChange(() => {
      seen.add(events());
      if (between === null) setImmediate(() => (between = events()));
    });
    other.exec('COMMIT');
    await until(() => events() === 1000);
    expect(events()).toBe(1000);
    expect(Math.max(...seen)).toBe(1000);
    expect(seen.size).toBeGreaterThanOrEqual(5); // several transactions, not one of a thousand
    expect(between).not.toBeNull();
    expect(between!).toBeLessThan(1000);
  }, 20_000);
});
