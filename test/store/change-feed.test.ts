/**
 * The change feed's triggers (core/store/sqlite/feed-ddl.ts) and the before-images rebuilt from them
 * (core/store/shared/feed-images.ts). Writes go through a second, plain connection with the SQL a nooa agent
 * runs, so what is checked is what the triggers record for any writer, not what MemoryStore does.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { accessRecord, createMemory, logAccess, type Memory } from '../../core/model/memory.js';
import { decodeRow, encodeRow, MEMORY_COLUMNS, vectorToBlob, type MemoryRow } from '../../core/store/port/codec.js';
import { edgeRowBefore, memoryRowBefore, type FeedRow } from '../../core/store/shared/feed-images.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';
import { nooaTables, tablesAt } from '../../support/feed-walk.js';
import type { EdgeRow } from '../../core/store/port/history-changes.js';

const NOW = 1_780_000_000.123456;
const ROW_SQL = `SELECT ${MEMORY_COLUMNS.join(', ')} FROM memories WHERE id = ?`;

let path: string;
let store: MemoryStore;
let db: Database.Database;

beforeEach(() => {
  path = join(tempDir(), 'feed.sqlite');
  store = MemoryStore.open(path, { clock: fixedClock(NOW), create: true });
  db = new Database(path);
});

afterEach(() => {
  db.close();
  store.close();
});

const feedAfter = (seq: number): FeedRow[] => db.prepare('SELECT * FROM mnemo_feed WHERE seq > ? ORDER BY seq').all(seq) as FeedRow[];
const lastSeq = (): number => (db.prepare('SELECT coalesce(max(seq), 0) FROM mnemo_feed').pluck().get() as number);
const rowOf = (id: string): MemoryRow | null => (db.prepare(ROW_SQL).get(id) as MemoryRow | undefined) ?? null;
const edgeOf = (src: string, dst: string, type: string): EdgeRow | null =>
  (db.prepare('SELECT src, dst, type, weight, created_at FROM memory_edges WHERE src = ? AND dst = ? AND type = ?').get(src, dst, type) as EdgeRow | undefined) ?? null;

function vector(seed: number): Float32Array {
  return Float32Array.from({ length: 256 }, (_, i) => Math.sin(seed * 1000 + i));
}

/** A memory with awkward doubles, written through the store (so the row is formatted as nooa formats it). */
function seed(content: string, extra: Partial<Memory> = {}): Memory {
  const m = createMemory({ content, importance: 0.1 + 0.2, salience: 1 / 3, created_at: NOW - Math.PI }, NOW);
  Object.assign(m, extra);
  store.add(m, vector(content.length));
  return store.get(m.id)!;
}

/** The SQL nooa's `save` runs for a memory whose fields changed (edges aside). */
function foreignSave(m: Memory): void {
  db.prepare(
    `UPDATE memories SET type=@type, content=@content, importance=@importance, salience=@salience, strength=@strength,
       created_at=@created_at, last_accessed=@last_accessed, access_count=@access_count, archived=@archived,
       owner=@owner, status=@status, data=@data WHERE id=@id`,
  ).run(encodeRow(m));
}

function foreignAccess(id: string, channels: Parameters<typeof accessRecord>[1][], ts = NOW + 10): void {
  const m = decodeRow(rowOf(id)!, []).memory;
  channels.forEach((c, i) => logAccess(m, accessRecord(ts + i / 7, c, { query: `q${i}`, score: 0.1 * (i + 1), rank: i + 1 })));
  foreignSave(m);
}

function expectSameRow(actual: MemoryRow | null, expected: MemoryRow | null): void {
  if (expected === null) return expect(actual).toBeNull();
  expect(actual).not.toBeNull();
  for (const c of MEMORY_COLUMNS) {
    const [a, e] = [actual![c], expected[c]];
    if (typeof e === 'number') expect(Object.is(a, e), `${c}: ${String(a)} is not bit-exact ${e}`).toBe(true);
    else expect(a, c).toEqual(e);
  }
}

describe('memory triggers', () => {
  it('records an insert with no before-image', () => {
    const from = lastSeq();
    const m = seed('a new memory');
    const rows = feedAfter(from).filter((r) => r.tbl === 'memory');
    expect(rows.map((r) => [r.op, r.memory_id, r.content, r.embedding_kept])).toEqual([['insert', m.id, null, 0]]);
    expect(memoryRowBefore(rowOf(m.id), rows[0]!)).toBeNull();
  });

  it('records INSERT OR REPLACE over an existing row as the whole old row (doubles bit-exact, embedding kept), then the insert', () => {
    const m = seed('replace me');
    const before = rowOf(m.id)!;
    const from = lastSeq();
    db.prepare(`INSERT OR REPLACE INTO memories(${MEMORY_COLUMNS.join(', ')}) VALUES (${MEMORY_COLUMNS.map((c) => `@${c}`).join(', ')})`).run({
      ...encodeRow({ ...m, content: 'replaced', importance: 7.000000000000001 }),
      embedding: vectorToBlob(vector(99)),
    });
    const rows = feedAfter(from);
    expect(rows.map((r) => r.op)).toEqual(['replace', 'insert']);
    expect(rows[0]!.embedding_kept).toBe(1);
    expectSameRow(memoryRowBefore(rowOf(m.id), rows[0]!), before);
  });

  it('records an update as the whole old row, with the embedding only when it changed', () => {
    const m = seed('edit me');
    const before = rowOf(m.id)!;
    const from = lastSeq();
    foreignSave({ ...m, content: 'edited', importance: 1e-7, created_at: NOW + 0.1 });
    const afterEdit = rowOf(m.id)!;
    db.prepare('UPDATE memories SET embedding = ? WHERE id = ?').run(vectorToBlob(vector(5)), m.id);
    const [edit, reembed] = feedAfter(from);
    expect([edit!.op, edit!.embedding_kept, edit!.embedding]).toEqual(['update', 0, null]);
    expectSameRow(memoryRowBefore(afterEdit, edit!), before);
    expect([reembed!.op, reembed!.embedding_kept]).toEqual(['update', 1]);
    expectSameRow(memoryRowBefore(rowOf(m.id), reembed!), afterEdit);
  });

  it('records an id change as a delete of the old id and an insert of the new one', () => {
    const m = seed('renamed');
    const before = rowOf(m.id)!;
    const from = lastSeq();
    db.prepare('UPDATE memories SET id = ? WHERE id = ?').run('f'.repeat(32), m.id);
    const rows = feedAfter(from);
    expect(rows.map((r) => [r.op, r.memory_id])).toEqual([
      ['delete', m.id],
      ['insert', 'f'.repeat(32)],
    ]);
    expectSameRow(memoryRowBefore(null, rows[0]!), before);
  });

  it('records a delete with the whole row and its embedding', () => {
    const m = seed('delete me');
    const before = rowOf(m.id)!;
    const from = lastSeq();
    db.prepare('DELETE FROM memories WHERE id = ?').run(m.id);
    const rows = feedAfter(from);
    expect(rows.map((r) => r.op)).toEqual(['delete']);
    expectSameRow(memoryRowBefore(null, rows[0]!), before);
  });

  it('records nothing for an update that changes nothing', () => {
    const m = seed('unchanged');
    const from = lastSeq();
    db.prepare('UPDATE memories SET content = content, data = data, importance = importance WHERE id = ?').run(m.id);
    foreignSave(m);
    expect(feedAfter(from)).toEqual([]);
  });
});

describe('access rows', () => {
  it('keeps an access compact and rebuilds the old row exactly, data text included', () => {
    const m = seed('recalled');
    const before = rowOf(m.id)!;
    const from = lastSeq();
    foreignAccess(m.id, ['recalled']);
    const [row] = feedAfter(from);
    expect(row!.op).toBe('access');
    expect(row!.content).toBeNull();
    expect(JSON.parse(row!.data!)).toMatchObject({ added: 1, dropped: [] });
    expectSameRow(memoryRowBefore(rowOf(m.id), row!), before);
  });

  it('counts injections, which append to the ring without moving access_count', () => {
    const m = seed('injected');
    const before = rowOf(m.id)!;
    const from = lastSeq();
    foreignAccess(m.id, ['injected', 'recalled', 'injected']);
    const [row] = feedAfter(from);
    expect(row!.op).toBe('access');
    expect(JSON.parse(row!.data!).added).toBe(3);
    expectSameRow(memoryRowBefore(rowOf(m.id), row!), before);
  });

  it('rebuilds a full ring whose head fell off, several entries at a time', () => {
    const m = seed('well used');
    foreignAccess(m.id, Array.from({ length: 64 }, (_, i) => (i % 3 === 0 ? 'injected' : 'recalled')), NOW + 1);
    const before = rowOf(m.id)!;
    expect(decodeRow(before, []).memory.access_log).toHaveLength(64);
    const from = lastSeq();
    foreignAccess(m.id, ['searched', 'recalled', 'injected', 'deref', 'reinforced'], NOW + 500);
    const [row] = feedAfter(from);
    expect(row!.op).toBe('access');
    const image = JSON.parse(row!.data!) as { added: number; dropped: { query: string }[] };
    expect(image.added).toBe(5);
    expect(image.dropped.map((d) => d.query)).toEqual(['q0', 'q1', 'q2', 'q3', 'q4']);
    expectSameRow(memoryRowBefore(rowOf(m.id), row!), before);
  });

  it('keeps a full image when the ring moved but no counter did (so the compact form is never wrong)', () => {
    const m = seed('odd ring');
    // A ring of 64 equal entries but the last: its head and the entry after it read the same.
    const same = accessRecord(NOW + 1, 'recalled', { query: 'same' });
    const full = decodeRow(rowOf(m.id)!, []).memory;
    full.access_log = [...Array.from({ length: 63 }, () => ({ ...same })), accessRecord(NOW + 2, 'recalled', { query: 'last' })];
    foreignSave(full);
    const before = rowOf(m.id)!;
    const from = lastSeq();
    // The ring moves by one, but no counter does: comparing the rings' heads alone would take it for no access at all.
    const next = decodeRow(before, []).memory;
    next.access_log = [...next.access_log.slice(1), accessRecord(NOW + 3, 'reflected', { query: 'new' })];
    foreignSave(next);
    const [row] = feedAfter(from);
    expect(row!.op).toBe('update');
    expectSameRow(memoryRowBefore(rowOf(m.id), row!), before);
  });

  it('an archive is an update, not an access', () => {
    const m = seed('archive me');
    const before = rowOf(m.id)!;
    const from = lastSeq();
    db.prepare('UPDATE memories SET archived = 1 WHERE id = ?').run(m.id);
    const [row] = feedAfter(from);
    expect(row!.op).toBe('update');
    expectSameRow(memoryRowBefore(rowOf(m.id), row!), before);
  });
});

describe('malformed data never fails the writer', () => {
  const cases: [string, (id: string) => void][] = [
    ['data that is not JSON', (id) => db.prepare("UPDATE memories SET data = 'not json {' WHERE id = ?").run(id)],
    ['JSON without an access_log', (id) => db.prepare("UPDATE memories SET data = json_remove(data, '$.access_log'), access_count = access_count + 1 WHERE id = ?").run(id)],
    ['a non-integer access_count', (id) => db.prepare('UPDATE memories SET access_count = 1.5 WHERE id = ?').run(id)],
    ['a ring entry that is a string', (id) => db.prepare(`UPDATE memories SET data = json_set(data, '$.access_log', json('["x"]')) WHERE id = ?`).run(id)],
  ];
  for (const [what, corrupt] of cases) {
    it(`${what}: the statement succeeds and a later access keeps a full image`, () => {
      const m = seed(what);
      const original = rowOf(m.id)!;
      let from = lastSeq();
      expect(() => corrupt(m.id)).not.toThrow();
      let rows = feedAfter(from);
      expect(rows.map((r) => r.op)).toEqual(['update']);
      expectSameRow(memoryRowBefore(rowOf(m.id), rows[0]!), original);
      // An access-shaped write on top of the damaged row: counters, strength and the ring column move.
      const damaged = rowOf(m.id)!;
      from = lastSeq();
      expect(() =>
        db.prepare("UPDATE memories SET access_count = access_count + 1, strength = strength + 1, data = CASE WHEN json_valid(data) THEN json_set(data, '$.recalled_count', 1) ELSE data || ' ' END WHERE id = ?").run(m.id),
      ).not.toThrow();
      rows = feedAfter(from);
      expect(rows.map((r) => r.op)).toEqual(['update']);
      expectSameRow(memoryRowBefore(rowOf(m.id), rows[0]!), damaged);
    });
  }
});

describe('edge triggers', () => {
  it('records insert, replace, update, re-pointing and delete of an edge with exact before-images', () => {
    const a = seed('edge source');
    const b = seed('edge target');
    const c = seed('other target');
    const ins = db.prepare('INSERT OR REPLACE INTO memory_edges(src, dst, type, weight, created_at) VALUES (?, ?, ?, ?, ?)');
    let from = lastSeq();
    ins.run(a.id, b.id, 'supports', 0.1 + 0.7, NOW + 1 / 3);
    const first = edgeOf(a.id, b.id, 'supports')!;
    ins.run(a.id, b.id, 'supports', 0.9, NOW + 2);
    const second = edgeOf(a.id, b.id, 'supports')!;
    db.prepare('UPDATE memory_edges SET weight = ? WHERE src = ? AND dst = ?').run(Math.E, a.id, b.id);
    const third = edgeOf(a.id, b.id, 'supports')!;
    db.prepare('UPDATE memory_edges SET weight = weight WHERE src = ?').run(a.id); // no-op: nothing recorded
    db.prepare('UPDATE memory_edges SET dst = ? WHERE src = ? AND dst = ?').run(c.id, a.id, b.id);
    const fourth = edgeOf(a.id, c.id, 'supports')!;
    db.prepare('DELETE FROM memory_edges WHERE src = ?').run(a.id);
    const rows = feedAfter(from).filter((r) => r.tbl === 'edge');
    expect(rows.map((r) => [r.op, r.memory_id, r.dst])).toEqual([
      ['insert', a.id, b.id],
      ['replace', a.id, b.id],
      ['insert', a.id, b.id],
      ['update', a.id, b.id],
      ['delete', a.id, b.id],
      ['insert', a.id, c.id],
      ['delete', a.id, c.id],
    ]);
    const images = rows.map((r) => edgeRowBefore(r));
    expect(images[0]).toBeNull();
    for (const [image, expected] of [
      [images[1], first],
      [images[3], second],
      [images[4], third],
      [images[6], fourth],
    ] as const) {
      expect(image).toEqual(expected);
      expect(Object.is(image!.weight, expected.weight) && Object.is(image!.created_at, expected.created_at)).toBe(true);
    }
    from = lastSeq();
    expect(feedAfter(from)).toEqual([]);
  });
});

describe('walking the feed backwards', () => {
  it('rebuilds the starting state of both tables from the current one, whatever mix of writes came between', () => {
    const a = seed('alpha');
    const b = seed('beta');
    const c = seed('gamma');
    store.addEdge(a.id, b.id, 'supports', 0.25);
    const start = nooaTables(db);
    const from = lastSeq();

    foreignAccess(a.id, ['recalled', 'injected']);
    store.logAccesses([{ id: b.id, record: accessRecord(NOW + 20, 'searched') }]);
    foreignSave({ ...decodeRow(rowOf(c.id)!, []).memory, content: 'gamma, edited' });
    store.addEdge(b.id, c.id, 'related', 0.5);
    store.addEdge(a.id, b.id, 'supports', 0.75);
    store.setArchived(b.id, true);
    store.add(createMemory({ content: 'delta' }, NOW), vector(4));
    db.prepare('UPDATE memories SET id = ? WHERE id = ?').run('e'.repeat(32), c.id);
    store.delete(a.id);
    foreignAccess(b.id, Array.from({ length: 70 }, () => 'recalled'));

    const state = tablesAt(db, from);
    expect([...state.memories.keys()].sort()).toEqual([...start.memories.keys()].sort());
    for (const [id, row] of start.memories) expectSameRow(state.memories.get(id)!, row);
    expect(state.edges).toEqual(start.edges);
  });
});
