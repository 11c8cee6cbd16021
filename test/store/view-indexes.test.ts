/**
 * The views' two indexes on nooa's memories table (view-indexes.ts): the memory list's first page
 * and the Graph view's overview read them instead of sorting the whole table; a nooa-only file is
 * left alone until Mnemo writes to it; an open never waits on them or fails for them; and the
 * answers are the same with or without them.
 */
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { connectionOf } from '../../core/store/sqlite/connection.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { VIEW_INDEX_NAMES } from '../../core/store/sqlite/view-indexes.js';
import { fixtureCopy } from '../../support/fixture.js';

const NOW = 1_780_000_000;
const open = (path: string, opts: { busyTimeoutMs?: number } = {}) => MemoryStore.open(path, { clock: fixedClock(NOW), ...opts });

function viewIndexes(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'idx_mnemo_mem_%' ORDER BY name").pluck().all() as string[];
  } finally {
    db.close();
  }
}

function dropViewIndexes(path: string): void {
  const db = new Database(path);
  for (const name of VIEW_INDEX_NAMES) db.exec(`DROP INDEX IF EXISTS ${name}`);
  db.close();
}

/** The query plans of the ordered SELECTs `read` runs on the store's connection. */
function plansOf(store: MemoryStore, read: () => unknown): string[] {
  const db = connectionOf(store);
  const seen: { sql: string; args: unknown[] }[] = [];
  const prepare = db.prepare.bind(db);
  const spy = vi.spyOn(db, 'prepare').mockImplementation(((sql: string) => {
    const st = prepare(sql);
    const all = st.all.bind(st);
    st.all = ((...args: unknown[]) => {
      seen.push({ sql, args });
      return all(...args);
    }) as typeof st.all;
    return st;
  }) as typeof db.prepare);
  try {
    read();
  } finally {
    spy.mockRestore();
  }
  return seen
    .filter((s) => /ORDER BY/.test(s.sql))
    .map((s) => (db.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.args) as { detail: string }[]).map((r) => r.detail).join(' | '));
}

/** A store of Mnemo's (the fixture after Mnemo's first write). */
function mnemoStore(): string {
  const path = fixtureCopy();
  const store = open(path);
  store.setMeta('test', 'mnemo tables');
  store.close();
  return path;
}

describe('the views’ indexes', () => {
  it('are not added to a nooa-only file by opening it, and come with Mnemo’s tables at its first write', () => {
    const path = fixtureCopy();
    const store = open(path);
    expect(viewIndexes(path)).toEqual([]);
    store.setMeta('test', 'a write of ours');
    expect(viewIndexes(path)).toEqual([...VIEW_INDEX_NAMES].sort());
    store.close();
  });

  it('serve the list’s first page and the graph’s overview without sorting the table', () => {
    const store = open(mnemoStore());
    // Each query picks the page's rowids in a subquery, then reads and re-sorts those few rows: one
    // sort, of the page. Without the index the subquery sorts every live row first (a second sort).
    const sorts = (plan: string) => plan.split('TEMP B-TREE FOR ORDER BY').length - 1;
    const [list] = plansOf(store, () => store.queries.listMemories({ archived: 'live', sort: 'created_at', dir: 'desc', offset: 0, limit: 200 }));
    expect(list).toContain('COVERING INDEX idx_mnemo_mem_created');
    expect(sorts(list!)).toBe(1);
    const [overview] = plansOf(store, () => store.queries.graphView({ limit: 50 }));
    expect(overview).toContain('COVERING INDEX idx_mnemo_mem_importance');
    expect(sorts(overview!)).toBe(1);
    store.close();
  });

  it('leave the plans of nooa’s own reads as they were (its unordered reads keep their row order)', () => {
    const path = mnemoStore();
    const db = new Database(path, { readonly: true });
    const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | ');
    // nooa's all_memories() and count(): no ORDER BY, so the index the planner picks is the order.
    expect(plan('SELECT * FROM memories WHERE archived = 0')).toBe('SEARCH memories USING INDEX idx_mem_archived (archived=?)');
    expect(plan('SELECT COUNT(*) AS n FROM memories WHERE archived = 0')).toContain('idx_mem_archived');
    db.close();
  });

  it('give the same pages and overview as the table scan they replace', () => {
    const path = mnemoStore();
    const read = () => {
      const store = open(path);
      try {
        return {
          newest: store.queries.listMemories({ archived: 'live', sort: 'created_at', dir: 'desc', offset: 0, limit: 40 }).rows.map((r) => r.id),
          later: store.queries.listMemories({ archived: 'live', sort: 'created_at', dir: 'desc', offset: 40, limit: 40 }).rows.map((r) => r.id),
          oldest: store.queries.listMemories({ archived: 'live', sort: 'created_at', dir: 'asc', offset: 0, limit: 40 }).rows.map((r) => r.id),
          archived: store.queries.listMemories({ archived: 'archived', sort: 'created_at', dir: 'desc', offset: 0, limit: 40 }).rows.map((r) => r.id),
          overview: store.queries.graphView({ limit: 60 }).nodes.map((n) => n.id),
        };
      } finally {
        store.close();
      }
    };
    const withIndexes = read();
    // Equal times and equal importances are common in the fixture: the tie-break (rowid) is what is checked.
    const db = new Database(path);
    const ties = db.prepare('SELECT count(*) - count(DISTINCT importance) FROM memories WHERE archived = 0').pluck().get() as number;
    db.close();
    expect(ties).toBeGreaterThan(10);
    expect(withIndexes.newest).toHaveLength(40);
    expect(withIndexes.overview).toHaveLength(60);
    // The same reads on a read-only open of the file without the indexes (a read-only open never creates them).
    dropViewIndexes(path);
    const store = MemoryStore.open(path, { clock: fixedClock(NOW), readonly: true });
    const plain = {
      newest: store.queries.listMemories({ archived: 'live', sort: 'created_at', dir: 'desc', offset: 0, limit: 40 }).rows.map((r) => r.id),
      later: store.queries.listMemories({ archived: 'live', sort: 'created_at', dir: 'desc', offset: 40, limit: 40 }).rows.map((r) => r.id),
      oldest: store.queries.listMemories({ archived: 'live', sort: 'created_at', dir: 'asc', offset: 0, limit: 40 }).rows.map((r) => r.id),
      archived: store.queries.listMemories({ archived: 'archived', sort: 'created_at', dir: 'desc', offset: 0, limit: 40 }).rows.map((r) => r.id),
      overview: store.queries.graphView({ limit: 60 }).nodes.map((n) => n.id),
    };
    store.close();
    expect(viewIndexes(path)).toEqual([]);
    expect(plain).toEqual(withIndexes);
  });

  it('are made again by a writable open that finds them missing, and an open never waits on them', () => {
    const path = mnemoStore();
    dropViewIndexes(path);
    // Another connection holds the write lock: the open goes on without them.
    const other = new Database(path);
    other.prepare('BEGIN IMMEDIATE').run();
    const store = open(path, { busyTimeoutMs: 20 });
    expect(viewIndexes(path)).toEqual([]);
    expect(store.queries.listMemories({ archived: 'live', sort: 'created_at', dir: 'desc', limit: 5 }).rows).toHaveLength(5);
    store.close();
    other.prepare('COMMIT').run();
    other.close();
    open(path).close();
    expect(viewIndexes(path)).toEqual([...VIEW_INDEX_NAMES].sort());
  });
});
