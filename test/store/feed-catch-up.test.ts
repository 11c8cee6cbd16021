/**
 * Catching up with another writer from the change feed (core/store/sqlite/external-changes.ts): the
 * listeners hear exactly the memories it changed, at a cost that follows what changed and not the
 * store's size (no digest scan of the store; every statement a search by key). A file without a
 * feed still catches up by digests.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { accessRecord, createMemory, logAccess } from '../../core/model/memory.js';
import { decodeRow, encodeRow, MEMORY_COLUMNS, type MemoryRow } from '../../core/store/port/codec.js';
import { CATCH_UP_SQL, changedSince, feedPosition } from '../../core/store/sqlite/feed-reads.js';
import * as signatures from '../../core/store/sqlite/row-signatures.js';
import { MemoryStore, type ChangeEvent } from '../../core/store/sqlite/sqlite-store.js';
import { fixtureCopy, tempDir } from '../../support/fixture.js';

vi.mock('../../core/store/sqlite/row-signatures.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../core/store/sqlite/row-signatures.js')>();
  return { ...actual, scanRowSignatures: vi.fn(actual.scanRowSignatures) };
});

const NOW = 1_780_000_000;
const INSERT = `INSERT INTO memories(${MEMORY_COLUMNS.join(', ')}) VALUES (${MEMORY_COLUMNS.map((c) => `@${c}`).join(', ')})`;

/** A store of `size` memories, written in one transaction by a plain connection (the triggers record them). */
function storeOf(size: number): string {
  const path = join(tempDir(), 'catch-up.sqlite');
  MemoryStore.open(path, { create: true, clock: fixedClock(NOW) }).close();
  const db = new Database(path);
  const ins = db.prepare(INSERT);
  db.transaction(() => {
    for (let i = 0; i < size; i++) ins.run({ ...encodeRow(createMemory({ content: `memory number ${i}` }, NOW)), embedding: null });
  })();
  db.close();
  return path;
}

/**
 * 1,000 changes by another process, nooa's way: 400 adds, 300 edits, 200 accesses, 100 deletes.
 * Returns the ids each kind of listener event must name.
 */
function thousandForeignChanges(path: string): { upserts: Set<string>; usage: Set<string>; deletes: Set<string> } {
  const db = new Database(path);
  const ids = db.prepare('SELECT id FROM memories ORDER BY rowid LIMIT 600').pluck().all() as string[];
  const upserts = new Set<string>();
  const usage = new Set<string>();
  const deletes = new Set<string>();
  const row = db.prepare(`SELECT ${MEMORY_COLUMNS.join(', ')} FROM memories WHERE id = ?`);
  const save = db.prepare('UPDATE memories SET content = @content, strength = @strength, last_accessed = @last_accessed, access_count = @access_count, data = @data WHERE id = @id');
  db.transaction(() => {
    for (let i = 0; i < 400; i++) {
      const m = createMemory({ content: `added next door ${i}` }, NOW);
      db.prepare(INSERT).run({ ...encodeRow(m), embedding: null });
      upserts.add(m.id);
    }
    ids.slice(0, 300).forEach((id, i) => {
      const m = decodeRow(row.get(id) as MemoryRow, []).memory;
      m.content = `edited next door ${i}`;
      save.run(encodeRow(m));
      upserts.add(id);
    });
    ids.slice(300, 500).forEach((id, i) => {
      const m = decodeRow(row.get(id) as MemoryRow, []).memory;
      logAccess(m, accessRecord(NOW + i, 'recalled'));
      save.run(encodeRow(m));
      usage.add(id);
    });
    for (const id of ids.slice(500, 600)) {
      db.prepare('DELETE FROM memories WHERE id = ?').run(id);
      deletes.add(id);
    }
  })();
  expect(db.prepare('SELECT count(*) FROM mnemo_feed WHERE writer IS NULL AND memory_id IN (SELECT value FROM json_each(?))').pluck().get(JSON.stringify([...upserts, ...usage, ...deletes]))).toBeGreaterThanOrEqual(1000);
  db.close();
  return { upserts, usage, deletes };
}

beforeEach(() => {
  vi.mocked(signatures.scanRowSignatures).mockClear();
});

describe('catching up from the change feed', () => {
  for (const size of [1_000, 10_000]) {
    it(`tells exactly the 1,000 changes another process made to a store of ${size.toLocaleString('en')} memories, without scanning it`, () => {
      const path = storeOf(size);
      const reader = MemoryStore.open(path, { readonly: true });
      const events: ChangeEvent[] = [];
      reader.onChange((e) => events.push(e));
      const expected = thousandForeignChanges(path);

      expect(reader.refreshIfChanged()).toBe(true);
      expect(events).toEqual([]);
      reader.catchUp();
      expect(events.filter((e) => e.kind === 'reset')).toEqual([]);
      expect(new Set(events.flatMap((e) => (e.kind === 'upsert' ? [e.id] : [])))).toEqual(expected.upserts);
      // The accesses, written nooa's way (the whole row saved), are told as only usage.
      expect(new Set(events.flatMap((e) => (e.kind === 'usage' ? [e.id] : [])))).toEqual(expected.usage);
      expect(new Set(events.flatMap((e) => (e.kind === 'delete' ? [e.id] : [])))).toEqual(expected.deletes);
      expect(events).toHaveLength(1000);
      expect(signatures.scanRowSignatures).not.toHaveBeenCalled();

      // Nothing new: nothing read, nothing told.
      events.length = 0;
      reader.catchUp();
      expect(events).toEqual([]);
      reader.close();
    });
  }

  it('tells the changes up to the limit of rows other than accesses, and accesses up to ten times it; counting no further', () => {
    const path = storeOf(1_000);
    const reader = MemoryStore.open(path, { readonly: true });
    const before = feedPosition(reader)!;
    thousandForeignChanges(path);
    const afterChanges = feedPosition(reader)!;
    const db = new Database(path);
    const notAccesses = db.prepare("SELECT count(*) FROM mnemo_feed WHERE seq > ? AND op IS NOT 'access'").pluck().get(before.seq) as number;
    expect(changedSince(reader, before, notAccesses)?.upserts.length).toBeGreaterThan(0);
    expect(changedSince(reader, before, notAccesses - 1)).toBeNull();

    // 300 accesses by another process (agents recalling): within ten times a limit of 30, not of 29.
    const row = db.prepare(`SELECT ${MEMORY_COLUMNS.join(', ')} FROM memories WHERE id = ?`);
    const save = db.prepare('UPDATE memories SET strength = @strength, last_accessed = @last_accessed, access_count = @access_count, data = @data WHERE id = @id');
    const ids = db.prepare('SELECT id FROM memories ORDER BY rowid LIMIT 300').pluck().all() as string[];
    db.transaction(() => {
      ids.forEach((id, i) => {
        const m = decodeRow(row.get(id) as MemoryRow, []).memory;
        logAccess(m, accessRecord(NOW + 10 + i, 'recalled'));
        save.run(encodeRow(m));
      });
    })();
    const accesses = changedSince(reader, afterChanges, 30);
    expect(accesses?.upserts.length).toBe(300);
    expect(accesses?.usageOnly?.size).toBe(300);
    expect(changedSince(reader, afterChanges, 29)).toBeNull();

    // The count reads no further than its last parameter, whatever the range holds.
    const end = feedPosition(reader)!.seq;
    expect(db.prepare(CATCH_UP_SQL.count).raw().get(before.seq, end, 10)).toEqual([10, 10]);
    expect(db.prepare(CATCH_UP_SQL.count).raw().get(afterChanges.seq, end, 1_000)).toEqual([300, 0]);
    db.close();
    reader.close();
  });

  it('runs only searches by key, whatever the store holds', () => {
    const path = storeOf(2_000);
    const db = new Database(path, { readonly: true });
    for (const sql of Object.values(CATCH_UP_SQL)) {
      const explain = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
      const plan = (explain.all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 1)) as { detail: string }[]).map((r) => r.detail);
      // The only scan allowed is of the statement's own list of change ids (json_each of a parameter), never of a table; a subquery reads its row by key.
      // A count reads its range through a subquery that stops at the limit: scanning that is not scanning the store.
      const ofTheStore = plan.filter((d) => !/^(LIST SUBQUERY|CORRELATED SCALAR SUBQUERY|CO-ROUTINE \(subquery-\d+\)|SCAN \(subquery-\d+\)|SCAN json_each|CREATE BLOOM FILTER)/.test(d));
      expect(ofTheStore.length > 0 && ofTheStore.every((d) => d.startsWith('SEARCH')), `${sql}: ${plan.join('; ')}`).toBe(true);
    }
    db.close();
  });

  it("skips this process's own writes, and still hears another process's that came in between", () => {
    const path = storeOf(10);
    const store = MemoryStore.open(path, { clock: fixedClock(NOW) });
    const other = MemoryStore.open(path, { clock: fixedClock(NOW) });
    const events: ChangeEvent[] = [];
    store.onChange((e) => events.push(e));
    const ours = createMemory({ content: 'ours' }, NOW);
    store.add(ours, null);
    expect(events).toEqual([{ kind: 'upsert', id: ours.id }]); // told as it was written
    const theirs = createMemory({ content: 'theirs' }, NOW);
    other.add(theirs, null);
    events.length = 0;
    store.catchUp();
    expect(events).toEqual([{ kind: 'upsert', id: theirs.id }]); // ours is not told again
    // Their commit is not caught up yet when ours lands: the position cannot move past it.
    const theirs2 = createMemory({ content: 'theirs again' }, NOW);
    other.add(theirs2, null);
    const ours2 = createMemory({ content: 'ours again' }, NOW);
    store.add(ours2, null);
    events.length = 0;
    store.catchUp();
    expect(events).toEqual(expect.arrayContaining([{ kind: 'upsert', id: theirs2.id }]));
    other.close();
    store.close();
  });
});

describe('a file without a feed', () => {
  it('catches up by digests: a reset on the first outside commit, then the memories changed', () => {
    const path = fixtureCopy();
    const reader = MemoryStore.open(path, { readonly: true });
    expect(reader.feedPosition()).toBeNull();
    const events: ChangeEvent[] = [];
    reader.onChange((e) => events.push(e));
    const nooa = new Database(path);
    const ids = nooa.prepare('SELECT id FROM memories ORDER BY rowid LIMIT 2').pluck().all() as string[];
    nooa.prepare("UPDATE memories SET content = 'edited by nooa' WHERE id = ?").run(ids[0]);
    reader.catchUp();
    expect(events).toEqual([{ kind: 'reset' }]);
    events.length = 0;
    nooa.prepare("UPDATE memories SET content = 'edited again' WHERE id = ?").run(ids[1]);
    reader.catchUp();
    expect(events).toEqual([{ kind: 'upsert', id: ids[1] }]);
    expect(signatures.scanRowSignatures).toHaveBeenCalledTimes(2);
    nooa.close();
    reader.close();
  });
});
