/**
 * A PostgreSQL store as it stood at an instant, on a connection of its own (PgStore.openAsOf):
 * every read the adapter writes against `memories` and `memory_edges` runs unchanged on the old
 * state, because the connection names them `pg_temp.memories` and `pg_temp.memory_edges`
 * (PgStoreConnection.shadow): session views of the current rows nobody changed since, plus the
 * rows as they stood then (pg-history-rows.ts), kept in session tables. An agent's role reads the
 * views under its own row-level security, and the feed rows it rolls back are only its owner's.
 *
 * The session objects are made before the read transaction (a READ ONLY transaction may not
 * create them, but may fill session tables); the caller then holds one REPEATABLE READ, READ ONLY
 * transaction for the connection's life, so the current rows the views show and the feed rows
 * rolled back are one snapshot, whatever others commit meanwhile.
 *
 * `rowid` is nooa's iteration order. The feed's images keep the old rowid, so a row deleted or
 * re-keyed since the instant is shown at its own place, where SQLite's views place it after every
 * current row (history-views.ts); only a row whose image this role may not see falls back to that.
 */
import type { MemoryImage } from '../port/history-changes.js';
import { byKeyNewestFirst, currentEdgeRows, currentMemoryRows, edgeBefore, memoryBefore, neededForWalk, rowidBefore, rowsBySeq, withoutRowid, type PgFeedKeyRow } from './pg-history-rows.js';
import type { PgStoreConnection } from './pg-store-connection.js';

import { EDGE_COLS, MEMORY_COLS } from './pg-history-rows.js';
const SHADOWED = ['memories', 'memory_edges'] as const;
const BATCH = 200;

/** The session tables and the views that shadow nooa's two tables (empty until `fillHistoryViews`). */
export function createHistoryViews(conn: PgStoreConnection): void {
  const db = conn.db();
  const base = (name: string) => conn.baseTable(name);
  db.query(`CREATE TEMP TABLE mnemo_then_memories (LIKE ${base('memories')})`);
  db.query(`CREATE TEMP TABLE mnemo_then_memories_hidden (id text COLLATE "C" PRIMARY KEY)`);
  db.query(`CREATE TEMP TABLE mnemo_then_edges (LIKE ${base('memory_edges')})`);
  db.query(`CREATE TEMP TABLE mnemo_then_edges_hidden (src text COLLATE "C", dst text COLLATE "C", type text COLLATE "C", PRIMARY KEY (src, dst, type))`);
  db.query(`CREATE TEMP VIEW memories AS
    SELECT m.* FROM ${base('memories')} m WHERE NOT EXISTS (SELECT 1 FROM pg_temp.mnemo_then_memories_hidden h WHERE h.id = m.id)
    UNION ALL SELECT t.* FROM pg_temp.mnemo_then_memories t`);
  db.query(`CREATE TEMP VIEW memory_edges AS
    SELECT e.* FROM ${base('memory_edges')} e WHERE NOT EXISTS (SELECT 1 FROM pg_temp.mnemo_then_edges_hidden h WHERE h.src = e.src AND h.dst = e.dst AND h.type = e.type)
    UNION ALL SELECT t.* FROM pg_temp.mnemo_then_edges t`);
  for (const name of SHADOWED) conn.shadow(name);
}

/**
 * Fills the session tables with the rows as they stood before `rolledBack` (pg-history-rows.ts),
 * reading the images the walks need (neededForWalk; every edge change's, which are small); inside
 * the held snapshot.
 */
export function fillHistoryViews(conn: PgStoreConnection, feedTable: string, rolledBack: readonly PgFeedKeyRow[]): void {
  const db = conn.db();
  const keys = byKeyNewestFirst(rolledBack);
  const needed = new Map([...keys.memories].map(([id, rows]) => [id, neededForWalk(rows)]));
  const seqs = [...needed.values()].flatMap((n) => [...n.walk, ...(n.embeddingFrom ? [n.embeddingFrom] : [])]);
  const images = rowsBySeq(db, feedTable, [...seqs, ...[...keys.edges.values()].flat()].map((r) => r.seq));
  const withImages = (rows: readonly PgFeedKeyRow[]) => rows.map((r) => images.get(r.seq)!);
  const edges = new Map([...keys.edges].map(([key, rows]) => [key, withImages(rows)]));
  const memoryBase = maxRowid(conn, 'memories') + 1;
  const edgeBase = maxRowid(conn, 'memory_edges') + 1;

  const currentMemories = currentMemoryRows(conn, [...needed.keys()]);
  const memoryRows: unknown[][] = [];
  for (const [id, { walk, embeddingFrom }] of needed) {
    const rows = withImages(walk);
    const now = currentMemories.get(id) ?? null;
    // Where the walk's newest row kept no embedding, the row after it has the one a newer change carries.
    const after = embeddingFrom ? ({ ...(now ? withoutRowid(now) : { id }), embedding: images.get(embeddingFrom.seq)!.embedding } as MemoryImage) : now && withoutRowid(now);
    const then = memoryBefore(after, rows);
    if (!then) continue;
    const rowid = rowidBefore(now?.rowid ?? null, rows) ?? memoryBase + rows.at(-1)!.seq;
    memoryRows.push([rowid, ...MEMORY_COLS.map((c) => then[c])]);
  }
  insertRows(conn, 'pg_temp.mnemo_then_memories', ['rowid', ...MEMORY_COLS], memoryRows);
  if (needed.size) db.query('INSERT INTO pg_temp.mnemo_then_memories_hidden(id) SELECT unnest($1::text[])', [[...needed.keys()]]);

  const currentEdges = currentEdgeRows(conn, [...edges.values()].map((rows) => rows[0]!.memory_id));
  const edgeRows: unknown[][] = [];
  const hidden: [string[], string[], string[]] = [[], [], []];
  for (const [key, rows] of edges) {
    const [src, dst, type] = key.split('\u0000') as [string, string, string];
    hidden[0].push(src);
    hidden[1].push(dst);
    hidden[2].push(type);
    const now = currentEdges.get(key) ?? null;
    const then = edgeBefore(now && withoutRowid(now), rows);
    if (!then) continue;
    const rowid = rowidBefore(now?.rowid ?? null, rows) ?? edgeBase + rows.at(-1)!.seq;
    edgeRows.push([rowid, ...EDGE_COLS.map((c) => then[c])]);
  }
  insertRows(conn, 'pg_temp.mnemo_then_edges', ['rowid', ...EDGE_COLS], edgeRows);
  if (edges.size) db.query('INSERT INTO pg_temp.mnemo_then_edges_hidden(src, dst, type) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])', hidden);
}

function maxRowid(conn: PgStoreConnection, table: string): number {
  return Number(conn.db().query<{ m: string | null }>(`SELECT max(rowid)::text AS m FROM ${conn.baseTable(table)}`)[0]!.m ?? 0);
}

/** Multi-row INSERTs of `BATCH` rows each: one round trip per batch, not per row. */
function insertRows(conn: PgStoreConnection, table: string, cols: readonly string[], rows: readonly unknown[][]): void {
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    const values = batch.map((_r, j) => `(${cols.map((_c, k) => `$${j * cols.length + k + 1}`).join(', ')})`).join(', ');
    conn.db().query(`INSERT INTO ${table}(${cols.join(', ')}) VALUES ${values}`, batch.flat());
  }
}
