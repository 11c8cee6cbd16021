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
 * `rowid` is nooa's iteration order, as on SQLite (history-views.ts): a row that kept its identity
 * since the instant keeps its rowid; one deleted or re-keyed since (its rowid is gone) is placed
 * after every current row, in the order of its first change after the instant.
 */
import type { EdgeImage, MemoryImage } from '../history-changes.js';
import { byKeyNewestFirst, edgeBefore, memoryBefore, type PgHistoryRow } from './pg-history-rows.js';
import type { PgStoreConnection } from './pg-store-connection.js';

const MEMORY_COLS = ['id', 'type', 'content', 'importance', 'salience', 'strength', 'created_at', 'last_accessed', 'access_count', 'archived', 'owner', 'status', 'embedding', 'data'] as const;
const EDGE_COLS = ['src', 'dst', 'type', 'weight', 'created_at'] as const;
const SHADOWED = ['memories', 'memory_edges'] as const;
/** Changes after which a row's rowid at the instant is gone. */
const REKEYS = new Set(['insert', 'delete']);
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

/** Fills the session tables with the rows `rolledBack` (pg-history-rows.ts) undoes; inside the held snapshot. */
export function fillHistoryViews(conn: PgStoreConnection, rolledBack: readonly PgHistoryRow[]): void {
  const db = conn.db();
  const { memories, edges } = byKeyNewestFirst(rolledBack);
  const memoryBase = maxRowid(conn, 'memories') + 1;
  const edgeBase = maxRowid(conn, 'memory_edges') + 1;

  const currentMemories = new Map<string, MemoryImage & { rowid: number }>();
  for (const r of db.query(`SELECT rowid::text AS rowid, ${MEMORY_COLS.join(', ')} FROM ${conn.baseTable('memories')} WHERE id = ANY($1::text[])`, [[...memories.keys()]])) {
    currentMemories.set(r['id'] as string, memoryImageOf(r));
  }
  const memoryRows: unknown[][] = [];
  for (const [id, rows] of memories) {
    const now = currentMemories.get(id) ?? null;
    const then = memoryBefore(now && withoutRowid(now), rows);
    if (!then) continue;
    const rowid = now && !rows.some((r) => REKEYS.has(r.op)) ? now.rowid : memoryBase + rows.at(-1)!.seq;
    memoryRows.push([rowid, ...MEMORY_COLS.map((c) => then[c])]);
  }
  insertRows(conn, 'pg_temp.mnemo_then_memories', ['rowid', ...MEMORY_COLS], memoryRows);
  if (memories.size) db.query('INSERT INTO pg_temp.mnemo_then_memories_hidden(id) SELECT unnest($1::text[])', [[...memories.keys()]]);

  const srcs = [...new Set([...edges.values()].map((rows) => rows[0]!.memory_id))];
  const currentEdges = new Map<string, EdgeImage & { rowid: number }>();
  for (const r of db.query(`SELECT rowid::text AS rowid, ${EDGE_COLS.join(', ')} FROM ${conn.baseTable('memory_edges')} WHERE src = ANY($1::text[])`, [srcs])) {
    const e = { ...(r as unknown as EdgeImage), rowid: Number(r['rowid']) };
    currentEdges.set(`${e.src}\u0000${e.dst}\u0000${e.type}`, e);
  }
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
    const rowid = now && !rows.some((r) => REKEYS.has(r.op)) ? now.rowid : edgeBase + rows.at(-1)!.seq;
    edgeRows.push([rowid, ...EDGE_COLS.map((c) => then[c])]);
  }
  insertRows(conn, 'pg_temp.mnemo_then_edges', ['rowid', ...EDGE_COLS], edgeRows);
  if (edges.size) db.query('INSERT INTO pg_temp.mnemo_then_edges_hidden(src, dst, type) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])', hidden);
}

function maxRowid(conn: PgStoreConnection, table: string): number {
  return Number(conn.db().query<{ m: string | null }>(`SELECT max(rowid)::text AS m FROM ${conn.baseTable(table)}`)[0]!.m ?? 0);
}

function memoryImageOf(r: Record<string, unknown>): MemoryImage & { rowid: number } {
  const embedding = r['embedding'] as Uint8Array | null;
  return {
    ...(r as unknown as MemoryImage),
    rowid: Number(r['rowid']),
    strength: Number(r['strength']),
    access_count: Number(r['access_count']),
    archived: Number(r['archived']),
    embedding: embedding === null ? null : Buffer.from(embedding),
  };
}

function withoutRowid<T extends { rowid: number }>(r: T): Omit<T, 'rowid'> {
  const { rowid: _rowid, ...rest } = r;
  return rest;
}

/** Multi-row INSERTs of `BATCH` rows each: one round trip per batch, not per row. */
function insertRows(conn: PgStoreConnection, table: string, cols: readonly string[], rows: readonly unknown[][]): void {
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
    const values = batch.map((_r, j) => `(${cols.map((_c, k) => `$${j * cols.length + k + 1}`).join(', ')})`).join(', ');
    conn.db().query(`INSERT INTO ${table}(${cols.join(', ')}) VALUES ${values}`, batch.flat());
  }
}
