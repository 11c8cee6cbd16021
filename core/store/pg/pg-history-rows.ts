/**
 * Time travel on a PostgreSQL store, its core: which rows of the change feed (pg-feed-ddl.ts) an
 * instant rolls back, and the rows of `memories` and `memory_edges` as they stood before them.
 *
 * Commits do not come in sequence order on PostgreSQL, so no sequence number names a past state.
 * What an instant T means here:
 * - a transaction is after T when one of its rows is stamped after T (`at`: the writer's clock when
 *   its transaction began, or the server's when it did not set one); it is rolled back whole;
 * - per row the feed's order is the commit order (a second writer of a row waits for the first's
 *   row lock, so its feed row gets a later number), so a row's later changes are rolled back with
 *   an earlier one: a transaction that changed a row after a rolled-back one did is rolled back
 *   too, whole, whatever its stamp (a writer whose clock is behind the others' cannot slip a change
 *   in after one that is undone).
 * The state shown is the committed state without those transactions: each row is a version it
 *   really had, and no transaction is shown in part. Two transactions that touched no common row
 *   are taken or left independently, by their stamps, so the combination shown may be one no
 *   single reader saw at once (it is one a serial order of the transactions passes through).
 *
 * The cost is the feed rows from the oldest one rolled back on (read by the primary key), not the
 * store's size, as on SQLite.
 */
import { edgeRowBefore, memoryRowBefore, type FeedRow } from '../shared/feed-images.js';
import type { EdgeImage, MemoryImage } from '../port/history-changes.js';
import { edgeKey } from '../sqlite/history-views.js';
import type { PgStoreConnection } from './pg-store-connection.js';
import type { SyncPg } from './sync-pg.js';

/** The ops of PostgreSQL's feed: SQLite's, and `owner` (a memory moved to another owner; it carries nothing). */
export type PgFeedOp = 'insert' | 'update' | 'access' | 'delete' | 'owner';

/** One feed row as time travel reads it: the before-image under the names SQLite's feed rows use. */
export interface PgHistoryRow extends Omit<FeedRow, 'op' | 'embedding_kept' | 'writer'> {
  op: PgFeedOp;
  xid: string;
  /** Null on a row written before the feed kept before-images. */
  embedding_kept: boolean | null;
  writer_token: string | null;
  /** The row's rowid before the change (null on an insert). */
  rowid: number | null;
}

const MEMORY_IMAGE = ['type', 'content', 'importance', 'salience', 'strength', 'created_at', 'last_accessed', 'access_count', 'archived', 'owner', 'status', 'data'];
const INTEGER_IMAGE = ['strength', 'access_count', 'archived'];
const ROW_SELECT = `seq::text AS seq, xid::text AS xid, at, tbl, op, memory_id, dst, edge_type, embedding_kept, change_id::text AS change_id, writer_token,
  ${MEMORY_IMAGE.map((c) => `old_${c} AS ${c}`).join(', ')}, old_embedding AS embedding, old_weight AS weight, old_rowid::text AS rowid`;

function historyRow(r: Record<string, unknown>): PgHistoryRow {
  const row = { ...r, seq: Number(r['seq']), change_id: r['change_id'] === null ? null : Number(r['change_id']), rowid: r['rowid'] === null ? null : Number(r['rowid']), access_at: null } as Record<string, unknown>;
  for (const c of INTEGER_IMAGE) if (row[c] !== null) row[c] = Number(row[c]);
  if (row['embedding'] !== null) row['embedding'] = Buffer.from(row['embedding'] as Uint8Array);
  return row as unknown as PgHistoryRow;
}

/** The key a feed row changes: a memory id, or an edge's (src, dst, type). */
export function rowKey(r: Pick<PgHistoryRow, 'tbl' | 'memory_id' | 'dst' | 'edge_type'>): string {
  return r.tbl === 'memory' ? r.memory_id : edgeKey(r.memory_id, r.dst!, r.edge_type ?? '');
}

const xidList = (xids: Iterable<string>) => `{${[...xids].join(',')}}`;

/** What the closure reads of a feed row: no image. */
export type PgFeedKeyRow = Pick<PgHistoryRow, 'seq' | 'xid' | 'at' | 'tbl' | 'op' | 'memory_id' | 'dst' | 'edge_type' | 'embedding_kept'>;

const KEY_SELECT = 'seq::text AS seq, xid::text AS xid, at, tbl, op, memory_id, dst, edge_type, embedding_kept';

/**
 * The transactions instant `at` rolls back (see the file comment) and their feed rows, without the
 * images (the closure reads every row from the oldest rolled back on, most of which it keeps).
 * Read inside the snapshot the current rows are read in.
 */
export function transactionsAfterInstant(db: SyncPg, feedTable: string, at: number): { xids: Set<string>; from: number; rows: PgFeedKeyRow[] } {
  const late = db.query<{ xid: string }>(`SELECT DISTINCT xid::text AS xid FROM ${feedTable} WHERE at > $1`, [at]);
  const xids = new Set(late.map((r) => r.xid));
  if (xids.size === 0) return { xids, from: 0, rows: [] };
  const firstOf = (set: Set<string>) => Number(db.query<{ s: string }>(`SELECT min(seq)::text AS s FROM ${feedTable} WHERE xid = ANY($1::text::xid8[])`, [xidList(set)])[0]!.s);
  let from = firstOf(xids);
  for (;;) {
    const rows = db.query<PgFeedKeyRow & { seq: string }>(`SELECT ${KEY_SELECT} FROM ${feedTable} WHERE seq >= $1 ORDER BY seq`, [from]).map((r) => ({ ...r, seq: Number(r.seq) }));
    const before = xids.size;
    closeOverLaterChanges(rows, xids);
    // A transaction the closure added may have rows before the ones read: read from its first on.
    const first = xids.size > before ? firstOf(xids) : from;
    if (first >= from) return { xids, from, rows: rows.filter((r) => xids.has(r.xid)) };
    from = first;
  }
}

/**
 * Of one memory's rolled-back rows (newest first), those whose images its walk back needs: from the
 * oldest on, up to the first insert, delete or update (each carries the whole old row but, for an
 * update that kept it, the embedding; or none); the newer ones' images would be overwritten. The
 * embedding such an update kept is the one the oldest newer change of the embedding carries
 * (`embeddingFrom`), or the current one. A memory changed a thousand times since is read as its
 * oldest changes, not a thousand images.
 */
export function neededForWalk<R extends PgFeedKeyRow>(rows: readonly R[]): { walk: R[]; embeddingFrom: R | null } {
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i]!;
    if (r.op !== 'insert' && r.op !== 'delete' && r.op !== 'update') continue;
    const newer = rows.slice(0, i);
    const embeddingFrom = r.op === 'update' && r.embedding_kept !== true ? (newer.findLast((n) => n.embedding_kept === true) ?? null) : null;
    return { walk: rows.slice(i), embeddingFrom };
  }
  return { walk: [...rows], embeddingFrom: null };
}

/** The feed rows with these sequence numbers, with their images, by number. */
export function rowsBySeq(db: SyncPg, feedTable: string, seqs: readonly number[]): Map<number, PgHistoryRow> {
  const out = new Map<number, PgHistoryRow>();
  for (let i = 0; i < seqs.length; i += 5000) {
    for (const r of db.query(`SELECT ${ROW_SELECT} FROM ${feedTable} WHERE seq = ANY($1::bigint[])`, [seqs.slice(i, i + 5000)]).map(historyRow)) out.set(r.seq, r);
  }
  return out;
}

/** The feed rows instant `at` rolls back, with their images, in sequence order. */
export function rowsAfterInstant(db: SyncPg, feedTable: string, at: number): PgHistoryRow[] {
  const { xids, from } = transactionsAfterInstant(db, feedTable, at);
  if (xids.size === 0) return [];
  return db.query(`SELECT ${ROW_SELECT} FROM ${feedTable} WHERE seq >= $1 AND xid = ANY($2::text::xid8[]) ORDER BY seq`, [from, xidList(xids)]).map(historyRow);
}

/** Adds to `xids` every transaction that changed a row after a transaction in it did, until none is left. */
function closeOverLaterChanges(rows: readonly PgFeedKeyRow[], xids: Set<string>): void {
  const byKey = new Map<string, PgFeedKeyRow[]>();
  for (const r of rows) {
    const key = `${r.tbl}\u0001${rowKey(r)}`;
    let list = byKey.get(key);
    if (!list) byKey.set(key, (list = []));
    list.push(r);
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const list of byKey.values()) {
      const first = list.findIndex((r) => xids.has(r.xid));
      if (first < 0) continue;
      for (const r of list.slice(first + 1)) {
        if (xids.has(r.xid)) continue;
        xids.add(r.xid);
        grew = true;
      }
    }
  }
}

/** The rolled-back rows by key, newest first (memories by id, edges by edgeKey). */
export function byKeyNewestFirst<R extends PgFeedKeyRow>(rows: readonly R[]): { memories: Map<string, R[]>; edges: Map<string, R[]> } {
  const memories = new Map<string, R[]>();
  const edges = new Map<string, R[]>();
  for (const r of [...rows].sort((a, b) => b.seq - a.seq)) {
    const map = r.tbl === 'memory' ? memories : edges;
    const key = rowKey(r);
    let list = map.get(key);
    if (!list) map.set(key, (list = []));
    list.push(r);
  }
  return { memories, edges };
}

/** SQLite's feed row for feed-images.ts: an update, its embedding kept or not. */
const asFeedRow = (r: PgHistoryRow, op: FeedRow['op']): FeedRow => ({ ...r, op, embedding_kept: r.embedding_kept ? 1 : 0, writer: null });

/**
 * The memory before `rows` (newest first) changed it, from `current` (null: absent, or not this
 * role's to see). An `owner` row whose image row (the old owner's, same transaction) is not visible
 * means the memory was not this role's before: it is absent then.
 */
export function memoryBefore(current: MemoryImage | null, rows: readonly PgHistoryRow[]): MemoryImage | null {
  let state = current;
  rows.forEach((row, i) => {
    if (row.op === 'owner') {
      const image = rows[i + 1];
      if (!image || image.xid !== row.xid || image.op !== 'update') state = null;
      return;
    }
    if (row.op === 'access') {
      // The trigger checked the rest was unchanged: the row after it has it.
      state = state && { ...state, strength: row.strength!, last_accessed: row.last_accessed!, access_count: row.access_count!, data: row.data! };
      return;
    }
    state = memoryRowBefore(state, asFeedRow(row, row.op === 'insert' ? 'insert' : 'update')) as MemoryImage | null;
  });
  return state;
}

/**
 * The row's rowid before `rows` (newest first) changed it: its current one, or the one the oldest
 * image kept (null when it did not exist then, or the image is not this role's to see).
 */
export function rowidBefore(current: number | null, rows: readonly PgHistoryRow[]): number | null {
  let rowid = current;
  for (const row of rows) {
    if (row.op === 'insert') rowid = null;
    else if (row.op !== 'owner') rowid = row.rowid;
  }
  return rowid;
}

/** The edge before `rows` (newest first) changed it. */
export function edgeBefore(current: EdgeImage | null, rows: readonly PgHistoryRow[]): EdgeImage | null {
  let state = current;
  for (const row of rows) state = edgeRowBefore(asFeedRow(row, row.op === 'insert' ? 'insert' : 'update'));
  return state;
}

export const MEMORY_COLS = ['id', 'type', 'content', 'importance', 'salience', 'strength', 'created_at', 'last_accessed', 'access_count', 'archived', 'owner', 'status', 'embedding', 'data'] as const;
export const EDGE_COLS = ['src', 'dst', 'type', 'weight', 'created_at'] as const;

/** The current rows (with their rowids) of these memories, from the store's table itself, by id. */
export function currentMemoryRows(conn: PgStoreConnection, ids: readonly string[]): Map<string, MemoryImage & { rowid: number }> {
  const out = new Map<string, MemoryImage & { rowid: number }>();
  if (ids.length === 0) return out;
  for (const r of conn.db().query(`SELECT rowid::text AS rowid, ${MEMORY_COLS.join(', ')} FROM ${conn.baseTable('memories')} WHERE id = ANY($1::text[])`, [ids])) {
    const embedding = r['embedding'] as Uint8Array | null;
    out.set(r['id'] as string, {
      ...(r as unknown as MemoryImage),
      rowid: Number(r['rowid']),
      strength: Number(r['strength']),
      access_count: Number(r['access_count']),
      archived: Number(r['archived']),
      embedding: embedding === null ? null : Buffer.from(embedding),
    });
  }
  return out;
}

/** The current edges (with their rowids) out of these memories, by edgeKey. */
export function currentEdgeRows(conn: PgStoreConnection, srcs: readonly string[]): Map<string, EdgeImage & { rowid: number }> {
  const out = new Map<string, EdgeImage & { rowid: number }>();
  if (srcs.length === 0) return out;
  for (const r of conn.db().query(`SELECT rowid::text AS rowid, ${EDGE_COLS.join(', ')} FROM ${conn.baseTable('memory_edges')} WHERE src = ANY($1::text[])`, [[...new Set(srcs)]])) {
    const e = { ...(r as unknown as EdgeImage), rowid: Number(r['rowid']) };
    out.set(edgeKey(e.src, e.dst, e.type), e);
  }
  return out;
}

export function withoutRowid<T extends { rowid: number }>(r: T): Omit<T, 'rowid'> {
  const { rowid: _rowid, ...rest } = r;
  return rest;
}
