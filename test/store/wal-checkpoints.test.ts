/**
 * The WAL's checkpoints off the serving connections (core/store/sqlite/wal-checkpointer.ts), and a
 * recall's access writes committed without a sync (sqlite-access-log.ts).
 *
 * What could go wrong: a `background` connection whose WAL nobody moves into the file (it would
 * grow to the backstop, and its commit would copy 64 MiB); a connection left at NORMAL after an
 * access write, so the store's own writes lose their sync; a caller's transaction whose sync level
 * an access write changed under it.
 */
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { accessRecord, createMemory } from '../../core/model/memory.js';
import { connectionOf } from '../../core/store/sqlite/connection.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { BACKSTOP_PAGES, startWalCheckpointer } from '../../core/store/sqlite/wal-checkpointer.js';
import { tempDir } from '../../support/fixture.js';

const NOW = 1_780_000_000;
const open: { close(): void }[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

function openStore(walCheckpoints?: 'self' | 'background') {
  const path = join(tempDir(), 'store.sqlite');
  const store = MemoryStore.open(path, { create: true, clock: fixedClock(NOW), ...(walCheckpoints ? { walCheckpoints } : {}) });
  open.push(store);
  return { path, store };
}

/** About 2,000 pages of memories (a few hundred of 20 KB each): past SQLite's default checkpoint, short of the backstop. */
function writeManyPages(store: MemoryStore): void {
  const body = 'the payments deploy failed on a missing secret; '.repeat(420);
  store.transaction(() => {
    for (let i = 0; i < 400; i++) store.add(createMemory({ content: `${i} ${body}`, owner: 'Planner@a1' }, NOW - 3600), null);
  });
}

const until = async (done: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return done();
};

describe("the WAL's checkpoints", () => {
  it('the thread looks often only while the WAL moves: a WAL checkpointed and left alone is looked at once a second', async () => {
    const { path, store } = openStore('self');
    writeManyPages(store); // the WAL keeps these frames after they are checkpointed, until the next writer starts it over
    const looks: boolean[] = [];
    const thread = startWalCheckpointer(path, undefined, () => {}, (moved) => looks.push(moved));
    open.push({ close: () => thread.stop() });
    await new Promise((r) => setTimeout(r, 1_600));
    // Quiet: the first look, the one that finds nothing moved, then one a second (looking every 100 ms for ever: 16).
    expect(looks.length).toBeLessThanOrEqual(4);
    const quiet = looks.length;
    // Writing: a look every 100 ms while the counts move.
    const writing = setInterval(() => store.transaction(() => store.add(createMemory({ content: `more ${Date.now()}`, owner: 'Planner@a1' }, NOW), null)), 40);
    await new Promise((r) => setTimeout(r, 1_600));
    clearInterval(writing);
    expect(looks.length - quiet).toBeGreaterThanOrEqual(6);
  });

  it('a background connection leaves them to its thread: its own are only a backstop, and the file still gets the pages', async () => {
    const { path, store } = openStore('background');
    expect(connectionOf(store).pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_PAGES);
    const before = statSync(path).size;
    writeManyPages(store);
    const walPages = statSync(`${path}-wal`).size / 4096;
    expect(walPages).toBeGreaterThan(1_000); // past where the connection itself would have checkpointed
    expect(walPages).toBeLessThan(BACKSTOP_PAGES);
    // Nothing but the store's thread checkpoints here: the file grows to hold what the WAL had.
    expect(await until(() => statSync(path).size > before + 1_000 * 4096)).toBe(true);
    // And the WAL is all in the file: a passive checkpoint from elsewhere finds nothing left to move.
    const other = new Database(path);
    open.push(other);
    const [r] = other.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    expect(r!.checkpointed).toBe(r!.log);
  });

  it('a connection opened as before checkpoints on its own commits, with no thread', () => {
    const { store } = openStore();
    expect(connectionOf(store).pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('a store closed at once after opening, before its thread has started, neither hangs nor throws', async () => {
    const { path, store } = openStore('background');
    writeManyPages(store);
    store.close();
    // Reopened and closed at once: the thread may not have opened its connection yet.
    const again = MemoryStore.open(path, { clock: fixedClock(NOW), walCheckpoints: 'background' });
    again.close();
    expect(() => MemoryStore.open(path, { clock: fixedClock(NOW) }).close()).not.toThrow();
  });
});

describe("a recall's access writes", () => {
  it('commit with synchronous NORMAL and put the connection back to FULL after', () => {
    const { store } = openStore();
    const m = createMemory({ content: 'the payments deploy failed', owner: 'Planner@a1' }, NOW - 3600);
    store.add(m, null);
    const db = connectionOf(store);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    const set: string[] = [];
    const pragma = vi.spyOn(db, 'pragma');
    pragma.mockImplementation(function (source: string, opts?: unknown) {
      if (source.startsWith('synchronous =')) set.push(`${source} (in a transaction: ${db.inTransaction})`);
      return Database.prototype.pragma.call(db, source, opts as never);
    } as never);
    store.logAccesses([{ id: m.id, record: accessRecord(NOW, 'recalled', { reader_owner: 'Planner@a1', query: 'deploy' }) }], { deferIfBusy: true });
    pragma.mockRestore();
    expect(set).toEqual(['synchronous = NORMAL (in a transaction: false)', 'synchronous = 2 (in a transaction: false)']);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(store.get(m.id)!.recalled_count).toBe(1);
  });

  it("inside a caller's transaction leave its sync level alone", () => {
    const { store } = openStore();
    const m = createMemory({ content: 'the payments deploy failed', owner: 'Planner@a1' }, NOW - 3600);
    store.add(m, null);
    const db = connectionOf(store);
    const set: string[] = [];
    const pragma = vi.spyOn(db, 'pragma');
    pragma.mockImplementation(function (source: string, opts?: unknown) {
      if (source.startsWith('synchronous =')) set.push(source);
      return Database.prototype.pragma.call(db, source, opts as never);
    } as never);
    store.transaction(() => store.logAccesses([{ id: m.id, record: accessRecord(NOW, 'recalled', { reader_owner: 'Planner@a1' }) }]));
    pragma.mockRestore();
    expect(set).toEqual([]);
    expect(store.get(m.id)!.recalled_count).toBe(1);
  });
});
