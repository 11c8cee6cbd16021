/**
 * Mnemo's own writes stamp their change-feed rows (core/store/sqlite/feed-stamp.ts): the store's clock,
 * `mnemo` or `mnemo:cred:<id>` as the writer, and the journalled change they belong to. A write by
 * a plain connection keeps `writer IS NULL`.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../core/clock.js';
import { accessRecord, createMemory } from '../../core/model/memory.js';
import { runAttributed } from '../../core/store/port/attribution.js';
import { ChangeRun, undoInBatches } from '../../core/store/shared/change-run.js';
import type { FeedRow } from '../../core/store/shared/feed-images.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { fixtureCopy, tempDir } from '../../support/fixture.js';
import { allMemories } from '../../core/store/queries/memory-lookups.js';

const NOW = 1_780_000_000.5;

/** A clock the test moves by hand, so every stamp is a known value. */
function manualClock(): Clock & { t: number } {
  const c = { t: NOW, now: () => c.t };
  return c;
}

let clock: ReturnType<typeof manualClock>;
let store: MemoryStore;
let db: Database.Database;

beforeEach(() => {
  const path = join(tempDir(), 'stamp.sqlite');
  clock = manualClock();
  store = MemoryStore.open(path, { clock, create: true });
  db = new Database(path);
});

afterEach(() => {
  db.close();
  store.close();
});

const feed = (): FeedRow[] => db.prepare('SELECT * FROM mnemo_feed ORDER BY seq').all() as FeedRow[];
const stamps = (rows = feed()) => rows.map((r) => [r.op, r.at, r.writer, r.change_id]);

describe("stamping Mnemo's writes in the change feed", () => {
  it('stamps a plain write with the store clock and writer "mnemo", and leaves a foreign write unstamped', () => {
    const m = createMemory({ content: 'ours' }, NOW);
    store.add(m, null);
    clock.t += 1;
    store.logAccesses([{ id: m.id, record: accessRecord(clock.t, 'recalled') }]);
    db.prepare("UPDATE memories SET content = 'theirs' WHERE id = ?").run(m.id);
    const rows = feed();
    expect(stamps(rows.slice(0, 2))).toEqual([
      ['insert', NOW, 'mnemo', null],
      ['access', NOW + 1, 'mnemo', null],
    ]);
    expect(rows[2]!.writer).toBeNull();
    expect(rows[2]!.at).not.toBe(NOW + 1);
  });

  it('names the journalled change and the credential a write was made with', () => {
    const m = createMemory({ content: 'to be edited' }, NOW);
    store.add(m, null);
    clock.t += 5;
    const { changeId } = runAttributed('cred-7', () => store.change('edit', 'update', () => store.save({ ...m, content: 'edited' })));
    expect(changeId).not.toBeNull();
    expect(stamps(feed().slice(1))).toEqual([['update', NOW + 5, 'mnemo:cred:cred-7', changeId]]);
  });

  it('names the undone change on the rows its undo and redo write', () => {
    const m = createMemory({ content: 'undo me' }, NOW);
    const { changeId } = store.change('add', 'remember', () => store.add(m, null));
    store.journal.undo(changeId!);
    store.journal.redo(changeId!);
    expect(feed().map((r) => [r.op, r.change_id])).toEqual([
      ['insert', changeId],
      ['delete', changeId],
      ['insert', changeId],
    ]);
  });

  it('stamps every batch of a long change and of its paced undo with the change id', async () => {
    const ms = Array.from({ length: 6 }, (_, i) => createMemory({ content: `batch ${i}` }, NOW));
    const run = new ChangeRun(store, 'long', 'test');
    for (let i = 0; i < ms.length; i += 2) {
      clock.t += 1;
      run.batch(() => ms.slice(i, i + 2).forEach((m) => store.add(m, null)));
    }
    const id = run.finish(() => ({}))!;
    const before = feed().length;
    await undoInBatches(store, id, { maxBatchItems: 1, pauseMs: 0 });
    const rows = feed();
    expect(rows.slice(0, before).map((r) => [r.at, r.change_id])).toEqual(ms.map((_, i) => [NOW + 1 + Math.floor(i / 2), id]));
    expect(rows.slice(before).map((r) => [r.op, r.writer, r.change_id])).toEqual(ms.map(() => ['delete', 'mnemo', id]));
  });

  it('leaves nothing of a transaction that rolled back', () => {
    expect(() =>
      store.transaction(() => {
        store.add(createMemory({ content: 'gone' }, NOW), null);
        throw new Error('changed my mind');
      }),
    ).toThrow('changed my mind');
    store.add(createMemory({ content: 'kept' }, NOW), null);
    expect(stamps()).toEqual([['insert', NOW, 'mnemo', null]]);
  });
});

describe('a nooa store gains its feed on the first write', () => {
  it('opening and reading installs nothing; the first write installs the feed and stamps its own rows', () => {
    const path = fixtureCopy();
    const objects = (d: Database.Database) => d.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'mnemo%'").pluck().all();
    const nooa = new Database(path);
    expect(objects(nooa)).toEqual([]);
    const s = MemoryStore.open(path, { clock });
    allMemories(s);
    s.feedPosition();
    expect(objects(nooa)).toEqual([]);
    const first = allMemories(s)[0]!;
    s.save({ ...first, content: `${first.content} (edited)` });
    const rows = nooa.prepare('SELECT op, memory_id, at, writer FROM mnemo_feed').all();
    expect(rows).toEqual([{ op: 'update', memory_id: first.id, at: NOW, writer: 'mnemo' }]);
    nooa.close();
    s.close();
  });
});
