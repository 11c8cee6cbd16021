/**
 * The store as it stood at a feed position, on a connection of its own: every read written against
 * `memories` and `memory_edges` (list, graph, show, recall) runs unchanged on the old state.
 *
 * The rows changed after the position are rolled back from their current row, newest change first
 * (feed-images.ts), and written to TEMP tables; TEMP views named `memories` and `memory_edges`
 * show the current rows nobody changed since, plus those rolled-back rows. The current rows are
 * hidden by rowid, which every index holds: a count or a filter that an index answers on its own
 * (archived, owner, type) still does, instead of reading 100k rows for their ids. SQLite resolves an
 * unqualified name in `temp` before `main`, so the views shadow nooa's tables on this connection
 * only. The cost is the changes after the position, not the store's size.
 *
 * The caller holds one read transaction for the connection's life, so the current rows the views
 * show and the feed rows rolled back are one snapshot, whatever others commit meanwhile.
 *
 * `rowid` is nooa's iteration order. A row that kept its identity since the position keeps its
 * rowid; one deleted or replaced since (its old rowid is gone) is placed after every current row,
 * in the order its first later change came in: the order of nooa's re-inserts for a memory's edges.
 */
import type { DB } from './sqlite.js';
import { accessColumnsBefore, edgeRowBefore, memoryRowBefore, undoAccessInData, type FeedRow } from '../shared/feed-images.js';
import type { EdgeImage, MemoryImage } from '../port/history-changes.js';

const MEMORY_COLS = ['id', 'type', 'content', 'importance', 'salience', 'strength', 'created_at', 'last_accessed', 'access_count', 'archived', 'owner', 'status', 'embedding', 'data'] as const;
const EDGE_COLS = ['src', 'dst', 'type', 'weight', 'created_at'] as const;

export interface RolledBack<T> {
  /** The row at the position (null: it did not exist then). */
  then: T | null;
  /** Its rowid then, where known (null: placed after the current rows). */
  rowid: number | null;
  /** Its rowid now (null: it does not exist now). */
  currentRowid: number | null;
  /** The feed rows rolled back, newest first. */
  rows: FeedRow[];
}

export const edgeKey = (src: string, dst: string, type: string): string => `${src}\u0000${dst}\u0000${type}`;

/** The feed rows after `seq`, newest first, by memory id and by edge key. */
export function feedRowsAfter(db: DB, seq: number): { memories: Map<string, FeedRow[]>; edges: Map<string, FeedRow[]> } {
  const memories = new Map<string, FeedRow[]>();
  const edges = new Map<string, FeedRow[]>();
  for (const row of db.prepare('SELECT * FROM main.mnemo_feed WHERE seq > ? ORDER BY seq DESC').iterate(seq) as IterableIterator<FeedRow>) {
    const map = row.tbl === 'memory' ? memories : edges;
    const key = row.tbl === 'memory' ? row.memory_id : edgeKey(row.memory_id, row.dst!, row.edge_type!);
    let list = map.get(key);
    if (!list) map.set(key, (list = []));
    list.push(row);
  }
  return { memories, edges };
}

/** Changes that give a key a new rowid: after one of these its rowid at the position is gone. */
const REKEYS = new Set(['insert', 'replace', 'delete']);

/** Each touched memory at the position, rolled back from its current row (stopping at `untilSeq`: rows at or before it stay). */
export function rollBackMemories(db: DB, touched: Map<string, FeedRow[]>, untilSeq = 0): Map<string, RolledBack<MemoryImage>> {
  const current = currentRows<MemoryImage & { rowid: number }>(db, `SELECT rowid, ${MEMORY_COLS.join(', ')} FROM main.memories WHERE id IN (SELECT value FROM json_each(?))`, [...touched.keys()], (r) => r.id);
  const out = new Map<string, RolledBack<MemoryImage>>();
  for (const [id, all] of touched) {
    const rows = all.filter((r) => r.seq > untilSeq);
    const now = current.get(id) ?? null;
    const state = walkBack(now ? withoutRowid(now) : null, rows);
    out.set(id, { then: state, rowid: now && !rows.some((r) => REKEYS.has(r.op)) ? now.rowid : null, currentRowid: now?.rowid ?? null, rows });
  }
  return out;
}

/**
 * The memory before `rows` (newest first) changed it. A run of accesses is undone on the parsed
 * `data` and formatted once at its end (feed-images.ts undoAccessInData); a full before-image
 * replaces the data anyway, so the run needs no formatting before one. The rebuilt `data` is
 * formatted by JSON.stringify: the same value as the text nooa wrote (an integral float reads back
 * as the same number), at a tenth of the cost of reproducing Python's formatting, which was most
 * of the time a walk back took.
 */
function walkBack(current: MemoryImage | null, rows: readonly FeedRow[]): MemoryImage | null {
  let state = current;
  let parsed: Record<string, unknown> | null = null;
  for (const row of rows) {
    if (row.op === 'access' && state) {
      parsed ??= JSON.parse(state.data) as Record<string, unknown>;
      undoAccessInData(parsed, row);
      state = accessColumnsBefore(state, row);
      continue;
    }
    parsed = null;
    state = memoryRowBefore(state, row) as MemoryImage | null;
  }
  return parsed && state ? { ...state, data: JSON.stringify(parsed) } : state;
}

/** Each touched edge at the position, rolled back from its current row. */
export function rollBackEdges(db: DB, touched: Map<string, FeedRow[]>, untilSeq = 0): Map<string, RolledBack<EdgeImage>> {
  const srcs = [...new Set([...touched.values()].map((rows) => rows[0]!.memory_id))];
  const current = currentRows<EdgeImage & { rowid: number }>(db, `SELECT rowid, ${EDGE_COLS.join(', ')} FROM main.memory_edges WHERE src IN (SELECT value FROM json_each(?))`, srcs, (r) =>
    edgeKey(r.src, r.dst, r.type),
  );
  const out = new Map<string, RolledBack<EdgeImage>>();
  for (const [key, all] of touched) {
    const rows = all.filter((r) => r.seq > untilSeq);
    const now = current.get(key) ?? null;
    let state: EdgeImage | null = now ? withoutRowid(now) : null;
    for (const row of rows) state = edgeRowBefore(row);
    out.set(key, { then: state, rowid: now && !rows.some((r) => REKEYS.has(r.op)) ? now.rowid : null, currentRowid: now?.rowid ?? null, rows });
  }
  return out;
}

function currentRows<R>(db: DB, sql: string, keys: string[], keyOf: (r: R) => string): Map<string, R> {
  const out = new Map<string, R>();
  for (let i = 0; i < keys.length; i += 5000) {
    for (const r of db.prepare(sql).all(JSON.stringify(keys.slice(i, i + 5000))) as R[]) out.set(keyOf(r), r);
  }
  return out;
}

function withoutRowid<T extends { rowid: number }>(r: T): Omit<T, 'rowid'> {
  const { rowid: _rowid, ...rest } = r;
  return rest;
}

/**
 * Creates the TEMP tables and views for the state at feed position `seq` (see the file comment).
 * Call inside the read transaction the connection keeps.
 */
export function installHistoryViews(db: DB, seq: number): void {
  const { memories, edges } = feedRowsAfter(db, seq);
  const memoryState = rollBackMemories(db, memories);
  const edgeState = rollBackEdges(db, edges);
  // Rows whose rowid is gone go after every current row, in the order of the change that removed it (its first after the position).
  const memoryBase = (db.prepare('SELECT coalesce(max(rowid), 0) FROM main.memories').pluck().get() as number) + 1;
  const edgeBase = (db.prepare('SELECT coalesce(max(rowid), 0) FROM main.memory_edges').pluck().get() as number) + 1;

  db.exec(`
    CREATE TEMP TABLE history_memories_hidden (row INTEGER PRIMARY KEY);
    CREATE TEMP TABLE history_memories (row_order INTEGER NOT NULL, ${memoryColumnsDdl()});
    CREATE TEMP TABLE history_edges_hidden (row INTEGER PRIMARY KEY);
    CREATE TEMP TABLE history_edges (row_order INTEGER NOT NULL, src TEXT NOT NULL, dst TEXT NOT NULL, type TEXT NOT NULL, weight REAL NOT NULL, created_at REAL NOT NULL, PRIMARY KEY (src, dst, type));
  `);
  const hideMemory = db.prepare('INSERT INTO temp.history_memories_hidden(row) VALUES (?)');
  const putMemory = db.prepare(`INSERT INTO temp.history_memories(row_order, ${MEMORY_COLS.join(', ')}) VALUES (@row_order, ${MEMORY_COLS.map((c) => `@${c}`).join(', ')})`);
  for (const r of memoryState.values()) {
    if (r.currentRowid !== null) hideMemory.run(r.currentRowid);
    if (r.then) putMemory.run({ ...r.then, row_order: r.rowid ?? memoryBase + r.rows.at(-1)!.seq });
  }
  const hideEdge = db.prepare('INSERT INTO temp.history_edges_hidden(row) VALUES (?)');
  const putEdge = db.prepare('INSERT INTO temp.history_edges(row_order, src, dst, type, weight, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  for (const r of edgeState.values()) {
    if (r.currentRowid !== null) hideEdge.run(r.currentRowid);
    if (r.then) putEdge.run(r.rowid ?? edgeBase + r.rows.at(-1)!.seq, r.then.src, r.then.dst, r.then.type, r.then.weight, r.then.created_at);
  }
  db.exec(`
    CREATE INDEX temp.history_edges_dst ON history_edges(dst);
    CREATE INDEX temp.history_memories_order ON history_memories(row_order);
    CREATE TEMP VIEW memories AS
      SELECT m.rowid AS rowid, ${MEMORY_COLS.map((c) => `m.${c}`).join(', ')} FROM main.memories AS m
        WHERE m.rowid NOT IN (SELECT row FROM temp.history_memories_hidden)
      UNION ALL
      SELECT row_order, ${MEMORY_COLS.join(', ')} FROM temp.history_memories;
    CREATE TEMP VIEW memory_edges AS
      SELECT e.rowid AS rowid, ${EDGE_COLS.map((c) => `e.${c}`).join(', ')} FROM main.memory_edges AS e
        WHERE e.rowid NOT IN (SELECT row FROM temp.history_edges_hidden)
      UNION ALL
      SELECT row_order, ${EDGE_COLS.join(', ')} FROM temp.history_edges;
  `);
}

function memoryColumnsDdl(): string {
  return `id TEXT PRIMARY KEY, type TEXT NOT NULL, content TEXT NOT NULL, importance REAL NOT NULL, salience REAL NOT NULL, strength INTEGER NOT NULL,
    created_at REAL NOT NULL, last_accessed REAL NOT NULL, access_count INTEGER NOT NULL, archived INTEGER NOT NULL, owner TEXT NOT NULL,
    status TEXT, embedding BLOB, data TEXT NOT NULL`;
}
