/**
 * The whole-store reads behind a reflection plan: every memory row (all columns, embedding
 * included) in rowid order and every edge row in (src, rowid) order, either in one pass (inside a
 * transaction) or a page at a time with the event loop running between pages (a 100k store takes
 * seconds to read, and a UI polling the plan's progress in the same process must get answers
 * meanwhile). The fingerprint that reflect builds over these rows depends on their order, so the
 * ORDER BY clauses here are part of its definition.
 */
import { connectionOf } from './connection.js';
import { MEMORY_ROW_COLS, type MemoryRow } from '../port/codec.js';
import type { RowSource } from '../shared/store-handle.js';

export type { RowSource } from '../shared/store-handle.js';

/** A memory row with every column present. */
export type RawMemoryRow = Required<MemoryRow>;

export interface RawEdgeRow {
  rowid: number;
  src: string;
  dst: string;
  type: string;
  weight: number;
  created_at: number;
}

/** The in-scope checks of a plan's first pass need only these. */
export interface EmbeddingRow {
  id: string;
  archived: number;
  owner: string;
  embedding: Buffer | null;
}

const EDGE_COLS = 'rowid, src, dst, type, weight, created_at';

const MEMORY_ROWS_SQL = `SELECT ${MEMORY_ROW_COLS} FROM memories ORDER BY rowid`;
const MEMORY_ROW_PAGE_SQL = `SELECT ${MEMORY_ROW_COLS} FROM memories WHERE rowid > ? ORDER BY rowid LIMIT ?`;
/** Edges by source in rowid order: the order that matters (fanout ties), not the rowid values, which an undo renumbers. */
const EDGE_ROWS_SQL = `SELECT ${EDGE_COLS} FROM memory_edges ORDER BY src, rowid`;
const EDGE_ROW_PAGE_SQL = `SELECT ${EDGE_COLS} FROM memory_edges WHERE (src, rowid) > (?, ?) ORDER BY src, rowid LIMIT ?`;
const EMBEDDING_ROWS_SQL = 'SELECT id, archived, owner, embedding FROM memories ORDER BY rowid';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Every memory row in rowid order, in one statement (consistent only inside a transaction). */
export function memoryRows(source: RowSource): Iterable<RawMemoryRow> {
  return connectionOf(source).prepare(MEMORY_ROWS_SQL).iterate() as Iterable<RawMemoryRow>;
}

/** Every edge row in (src, rowid) order, in one statement. */
export function edgeRows(source: RowSource): Iterable<RawEdgeRow> {
  return connectionOf(source).prepare(EDGE_ROWS_SQL).iterate() as Iterable<RawEdgeRow>;
}

/** Id, archived flag, owner and embedding of every memory in rowid order. */
export function embeddingRows(source: RowSource): Iterable<EmbeddingRow> {
  return connectionOf(source).prepare(EMBEDDING_ROWS_SQL).iterate() as Iterable<EmbeddingRow>;
}

/**
 * The memory rows in rowid order, one statement per page, yielding to the event loop between
 * pages. Pages share no snapshot: a commit between two pages leaves rows that match neither state
 * or the new state, so a caller must check that nothing committed before trusting what it built.
 */
export async function* memoryRowPages(source: RowSource, pageSize = 2048): AsyncGenerator<RawMemoryRow[]> {
  const stmt = connectionOf(source).prepare(MEMORY_ROW_PAGE_SQL);
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const page = stmt.all(after, pageSize) as RawMemoryRow[];
    if (page.length === 0) return;
    yield page;
    if (page.length < pageSize) return;
    after = page[page.length - 1]!.rowid;
    await nextTurn();
  }
}

/** The edge rows in (src, rowid) order, a page at a time, yielding to the event loop between pages. */
export async function* edgeRowPages(source: RowSource, pageSize = 2048): AsyncGenerator<RawEdgeRow[]> {
  const stmt = connectionOf(source).prepare(EDGE_ROW_PAGE_SQL);
  let after: [string, number] = ['', Number.MIN_SAFE_INTEGER];
  for (;;) {
    const page = stmt.all(after[0], after[1], pageSize) as RawEdgeRow[];
    yield page;
    if (page.length < pageSize) return;
    const last = page[page.length - 1]!;
    after = [last.src, last.rowid];
    await nextTurn();
  }
}
