/**
 * The PostgreSQL adapter's SQL over `memories` and `memory_edges`: whole rows in and out, in the
 * shapes codec.ts reads and writes (MemoryRow), so a memory decodes the same from either backend.
 * bigint columns come back from `pg` as text and are turned into numbers here.
 */
import type { EdgeType } from '../../model/enums.js';
import type { Edge } from '../../model/memory.js';
import type { MemoryRow } from '../port/codec.js';
import type { MemoryImage } from '../sqlite/memory-images.js';
import type { IncomingEdge } from '../port/port.js';
import { intOf, numbered } from './pg-sql.js';
import { PgHeldRows, type DirtyRows, type HeldMemory } from './pg-held-rows.js';
import type { PgReadAhead } from './pg-read-ahead.js';
import type { PgStoreConnection } from './pg-store-connection.js';

const ROW_COLS = 'rowid, id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, data';
/** edgeArrays' four columns, named: no statement of the adapter selects `*` (see eventColumns, pg-access-events.ts). */
const EDGE_ARRAY_COLS = 'e.edge_dst, e.edge_type, e.edge_weight, e.edge_created_at, e.edge_rowid';

/** The PostgreSQL types of the columns update() writes, for the arrays a flush writes many rows from. */
const UPDATE_TYPES = {
  type: 'text',
  content: 'text',
  importance: 'float8',
  salience: 'float8',
  strength: 'int8',
  created_at: 'float8',
  last_accessed: 'float8',
  access_count: 'int8',
  archived: 'int8',
  owner: 'text',
  status: 'text',
  data: 'text',
} as const;
const WRITE_COLS = ['id', 'type', 'content', 'importance', 'salience', 'strength', 'created_at', 'last_accessed', 'access_count', 'archived', 'owner', 'status', 'embedding', 'data'] as const;

export type EncodedRow = Omit<MemoryRow, 'rowid' | 'embedding'>;

function memoryRow(r: Record<string, unknown>): MemoryRow {
  return {
    ...(r as unknown as MemoryRow),
    rowid: intOf(r['rowid'], 'memories.rowid'),
    strength: intOf(r['strength'], 'memories.strength'),
    access_count: intOf(r['access_count'], 'memories.access_count'),
    archived: intOf(r['archived'], 'memories.archived'),
  };
}

function edgeOf(r: Record<string, unknown>): Edge {
  return { target_id: r['dst'] as string, type: r['type'] as EdgeType, weight: r['weight'] as number, created_at: r['created_at'] as number };
}

export class PgMemoryRows {
  /** The rows this connection locked in the running transaction, kept in step with its writes (pg-held-rows.ts). */
  readonly held = new PgHeldRows();

  constructor(
    private readonly conn: PgStoreConnection,
    /** A catch-up's rows read ahead (pg-read-ahead.ts), which the edge reads answer from. */
    private readonly ahead: PgReadAhead | null = null,
  ) {
    conn.beforeEachStatement(() => this.flushHeld());
  }

  /**
   * The writes of held rows not in the table yet, deferred as one UPDATE of every changed row and
   * one DELETE and one INSERT of every changed edge list: they go ahead of the statement being sent.
   */
  private flushHeld(): void {
    const dirty = this.held.takeDirty();
    if (dirty) writeDirty(this.conn, this.t, dirty);
  }

  /** Lets a held row go, the held rows' writes flushed first. */
  private letGo(id: string): void {
    this.flushHeld();
    this.held.drop(id);
  }

  /**
   * `memories` is the name rows are read by (a view on an agent's role, pg-agent-rings-ddl.ts; the
   * past on a store as of an instant), `memoriesTable` the table written and locked.
   */
  private get t() {
    return { memories: this.conn.table('memories'), memoriesTable: this.conn.baseTable('memories'), edges: this.conn.table('memory_edges') };
  }

  private q(sql: string, params: readonly unknown[] = []): Record<string, unknown>[] {
    return this.conn.db().query(sql, params);
  }

  /** A read: on a replica when the store has one ready, outside a transaction (PgStoreConnection.read). */
  private r(sql: string, params: readonly unknown[] = []): Record<string, unknown>[] {
    return this.conn.read().query(sql, params);
  }

  row(id: string): MemoryRow | null {
    const [r] = this.r(`SELECT ${ROW_COLS} FROM ${this.t.memories} WHERE id = $1`, [id]);
    return r ? memoryRow(r) : null;
  }

  /**
   * The memory's row and outgoing edges, locked until the transaction ends (see lock below), and
   * held for the rest of it (pg-held-rows.ts): one statement, or none when already held.
   */
  lockedMemory(id: string): { row: MemoryRow; edges: Edge[] } | null {
    const held = this.held.get(id);
    if (held) return held;
    this.lockAndHold([id]);
    return this.held.get(id) ?? this.lockedWithoutHolding(id);
  }

  /**
   * Locks and holds the rows of `ids` that are not held yet, with their embeddings and outgoing
   * edges, in one statement (in id order, so two connections locking overlapping sets take the
   * locks in the same order). Outside a transaction it does nothing: a lock would end at once.
   */
  lockAndHold(ids: readonly string[]): void {
    if (!this.held.open) return;
    const wanted = [...new Set(ids)].filter((id) => !this.held.has(id));
    if (wanted.length === 0) return;
    let rows: Record<string, unknown>[];
    if (this.conn.readsThrough('memories')) {
      // A view's rows cannot be locked: the table's are, then read through the view by a statement
      // of their own (sent with the lock), which under READ COMMITTED sees what the writers the
      // lock waited for committed.
      this.conn.later(`SELECT 1 FROM ${this.t.memoriesTable} WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`, [wanted]);
      rows = this.q(`${this.wholeRows('m.id = ANY($1::text[])')} ORDER BY m.id`, [wanted]);
    } else {
      rows = this.q(`${this.wholeRows('m.id = ANY($1::text[])')} ORDER BY m.id FOR UPDATE OF m`, [wanted]);
    }
    for (const r of rows) this.held.put(r['id'] as string, heldOf(r));
  }

  /** The SELECT of whole memories (ROW_COLS, the embedding, the outgoing edges as arrays: heldOf reads it) matching `where` over `m`. */
  private wholeRows(where: string): string {
    return `SELECT m.${ROW_COLS.split(', ').join(', m.')}, m.embedding, ${EDGE_ARRAY_COLS}
       FROM ${this.t.memories} m LEFT JOIN LATERAL (${edgeArrays(this.t.edges, 'm.id')}) e ON TRUE
       WHERE ${where}`;
  }

  /** Outside a transaction (nothing is held): the row with its lock, which ends with the statement. */
  private lockedWithoutHolding(id: string): { row: MemoryRow; edges: Edge[] } | null {
    const [r] = this.q(`SELECT ${ROW_COLS} FROM ${this.t.memories} WHERE id = $1${this.conn.readsThrough('memories') ? '' : ' FOR UPDATE'}`, [id]);
    return r ? { row: memoryRow(r), edges: this.neighbors(id) } : null;
  }

  rows(ids: readonly string[]): MemoryRow[] {
    return this.r(`SELECT ${ROW_COLS} FROM ${this.t.memories} WHERE id = ANY($1::text[])`, [ids]).map(memoryRow);
  }

  /** Rows in rowid order after `after`, matching `where` (SQL over the row's columns, `?` placeholders). */
  page(where: string, params: readonly unknown[], after: number, limit: number): MemoryRow[] {
    return this.r(`SELECT ${ROW_COLS} FROM ${this.t.memories} WHERE ${numbered(where, 3)} AND rowid > $1 ORDER BY rowid LIMIT $2`, [after, limit, ...params]).map(memoryRow);
  }

  exists(id: string): boolean {
    if (this.held.has(id)) return true;
    return this.r(`SELECT 1 FROM ${this.t.memories} WHERE id = $1`, [id]).length > 0;
  }

  /** At most two ids starting with `prefix` (matched literally). */
  idsWithPrefix(prefix: string): string[] {
    const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
    return this.r(`SELECT id FROM ${this.t.memories} WHERE id LIKE $1 ESCAPE '\\' ORDER BY id LIMIT 2`, [`${escaped}%`]).map((r) => r['id'] as string);
  }

  /** The memory's place in insertion order (the journal's restore asks whether the row is still there). */
  rowidOf(id: string): number | null {
    const [r] = this.r(`SELECT rowid FROM ${this.t.memories} WHERE id = $1`, [id]);
    return r ? intOf(r['rowid'], 'memories.rowid') : null;
  }

  /**
   * SQLite's INSERT OR REPLACE, as nooa's `add` uses it: a memory with the same id is removed and
   * the new row inserted, so it takes a new rowid (the end of insertion order), as in SQLite.
   */
  replace(r: EncodedRow, embedding: Uint8Array | null): void {
    const values = { ...r, embedding };
    // A new rowid: what is held of the memory is let go.
    this.letGo(r.id);
    this.conn.later(`DELETE FROM ${this.t.memoriesTable} WHERE id = $1`, [r.id]);
    // The edges stay with the id (nooa's INSERT OR REPLACE leaves them): returned with the new
    // rowid, so that inside a transaction the new row is held whole (it is ours until the commit)
    // and the edge comparison and journal image that follow read nothing.
    const [got] = this.q(
      `WITH ins AS (INSERT INTO ${this.t.memoriesTable}(${WRITE_COLS.join(', ')}) VALUES (${WRITE_COLS.map((_c, i) => `$${i + 1}`).join(', ')}) RETURNING rowid)
       SELECT ins.rowid, ${EDGE_ARRAY_COLS} FROM ins LEFT JOIN LATERAL (${edgeArrays(this.t.edges, '$1')}) e ON TRUE`,
      WRITE_COLS.map((c) => values[c]),
    );
    if (!this.held.open) return;
    const row = { rowid: intOf(got!['rowid'], 'memories.rowid'), ...r, status: r.status ?? null };
    this.held.put(r.id, { row, embedding: embedding && new Uint8Array(embedding), edges: edgesOf(got!), edgeRowids: (got!['edge_rowid'] as number[] | null) ?? [] });
  }

  /**
   * The journal's image of a memory (memory-images.ts): the rowid, every column but the embedding
   * in nooa's order, the embedding as base64 and the outgoing edges in rowid order; null when gone.
   */
  image(id: string): MemoryImage | null {
    // Not held: the row, its embedding and its edges in one statement.
    const held = this.held.get(id) ?? this.wholeRow(id);
    if (!held) return null;
    const r = held.row;
    const blob = held.embedding;
    const row: MemoryImage['row'] = {
      id: r.id,
      type: r.type,
      content: r.content,
      importance: r.importance,
      salience: r.salience,
      strength: r.strength,
      created_at: r.created_at,
      last_accessed: r.last_accessed,
      access_count: r.access_count,
      archived: r.archived,
      owner: r.owner,
      status: r.status,
      data: r.data,
    };
    const edges = held.edges.map((e) => ({ dst: e.target_id, type: e.type as string, weight: e.weight, created_at: e.created_at }));
    return { rowid: r.rowid!, row, embedding: blob ? Buffer.from(blob).toString('base64') : null, edges };
  }

  /** The memory's row, embedding and outgoing edges as they stand, in one statement (no lock: nothing is held). */
  private wholeRow(id: string): HeldMemory | null {
    const [r] = this.q(this.wholeRows('m.id = $1'), [id]);
    return r ? heldOf(r) : null;
  }

  /** Inserts a memory at `rowid` (its old place in insertion order), or at the end when another row holds it. */
  insertAt(rowid: number, r: EncodedRow, embedding: Uint8Array | null): void {
    this.letGo(r.id);
    const taken = this.q(`SELECT 1 FROM ${this.t.memoriesTable} WHERE rowid = $1`, [rowid]).length > 0;
    const values = { ...r, embedding };
    const cols = [...(taken ? [] : ['rowid']), ...WRITE_COLS];
    const params = [...(taken ? [] : [rowid]), ...WRITE_COLS.map((c) => values[c])];
    this.q(`INSERT INTO ${this.t.memoriesTable}(${cols.join(', ')}) VALUES (${cols.map((_c, i) => `$${i + 1}`).join(', ')})`, params);
  }

  /** Rewrites every column but the embedding; false when no memory has the id. */
  update(r: EncodedRow): boolean {
    const cols = WRITE_COLS.filter((c) => c !== 'id' && c !== 'embedding');
    const set = cols.map((c, i) => `${c} = $${i + 2}`).join(', ');
    const params = [r.id, ...cols.map((c) => r[c])];
    // A held row is locked and present: the update finds it, and is written with the next flush.
    if (this.held.patchRow(r.id, Object.fromEntries(cols.map((c) => [c, r[c]])))) return true;
    return this.q(`UPDATE ${this.t.memoriesTable} SET ${set} WHERE id = $1 RETURNING 1`, params).length > 0;
  }

  /** The columns an access changes (logAccesses), leaving the rest of the row as it is. */
  updateUsage(r: EncodedRow): void {
    // A held row is written with the held rows' flush: one UPDATE … FROM unnest for all of them.
    if (this.held.patchRow(r.id, { strength: r.strength, last_accessed: r.last_accessed, access_count: r.access_count, data: r.data })) return;
    this.conn.later(`UPDATE ${this.t.memoriesTable} SET strength = $2, last_accessed = $3, access_count = $4, data = $5 WHERE id = $1`, [r.id, r.strength, r.last_accessed, r.access_count, r.data]);
  }

  /**
   * Locks the memory's row until the transaction ends, before a read-modify-write of it (an edge
   * added, an access logged): another connection doing the same waits, rather than one of the two
   * writes being lost (SQLite gets this from one writer at a time).
   */
  lock(id: string): void {
    this.q(`SELECT 1 FROM ${this.t.memoriesTable} WHERE id = $1 FOR UPDATE`, [id]);
  }

  setEmbedding(id: string, embedding: Uint8Array | null): void {
    this.held.patchEmbedding(id, embedding);
    this.q(`UPDATE ${this.t.memoriesTable} SET embedding = $2 WHERE id = $1`, [id, embedding]);
  }

  /** Sets the archived flag; false when it already had that value (or there is no such memory). */
  setArchived(id: string, archived: boolean): boolean {
    const v = archived ? 1 : 0;
    const held = this.held.get(id);
    if (held) {
      if (held.row.archived === v) return false;
      return this.held.patchRow(id, { archived: v });
    }
    return this.q(`UPDATE ${this.t.memoriesTable} SET archived = $2 WHERE id = $1 AND archived != $2 RETURNING 1`, [id, v]).length > 0;
  }

  /** Removes the memory and every edge into or out of it; false when there was none. */
  remove(id: string): boolean {
    // Edges into it go too, out of rows other than its own.
    this.letGo(id);
    this.held.forgetEdgesInto(id);
    this.q(`DELETE FROM ${this.t.edges} WHERE src = $1 OR dst = $1`, [id]);
    return this.q(`DELETE FROM ${this.t.memoriesTable} WHERE id = $1 RETURNING 1`, [id]).length > 0;
  }

  // ---------------------------------------------------------------- edges

  /** Outgoing edges in rowid order (nooa's order, which breaks fanout ties). */
  neighbors(src: string): Edge[] {
    const locked = this.held.get(src);
    if (locked) return locked.edges;
    const held = this.ahead?.edgesFrom(src) ?? null;
    if (held) return held.map(edgeOf);
    return this.r(`SELECT dst, type, weight, created_at FROM ${this.t.edges} WHERE src = $1 ORDER BY rowid`, [src]).map(edgeOf);
  }

  edgesFrom(ids: readonly string[]): Map<string, Edge[]> {
    const out = new Map<string, Edge[]>();
    const held = ids.map((id) => this.ahead?.edgesFrom(id) ?? null);
    if (held.every((h) => h !== null)) {
      ids.forEach((id, i) => {
        if (held[i]!.length > 0) out.set(id, held[i]!.map(edgeOf));
      });
      return out;
    }
    for (const r of this.r(`SELECT src, dst, type, weight, created_at FROM ${this.t.edges} WHERE src = ANY($1::text[]) ORDER BY rowid`, [ids])) {
      const src = r['src'] as string;
      let list = out.get(src);
      if (!list) out.set(src, (list = []));
      list.push(edgeOf(r));
    }
    return out;
  }

  incoming(dst: string): IncomingEdge[] {
    const rows = this.ahead?.edgesTo(dst) ?? this.r(`SELECT src, type, weight, created_at FROM ${this.t.edges} WHERE dst = $1 ORDER BY rowid`, [dst]);
    return rows.map((r) => ({
      src: r['src'] as string,
      type: r['type'] as EdgeType,
      weight: r['weight'] as number,
      created_at: r['created_at'] as number,
    }));
  }

  /**
   * nooa's save() deletes a memory's edges and inserts them again in list order, so rowid order
   * follows the list. A repeated (dst, type) keeps its last entry, where it stands, as SQLite's
   * INSERT OR REPLACE leaves it; then one INSERT … unnest for the lot.
   */
  replaceEdges(src: string, edges: readonly Edge[]): void {
    const keyOf = (e: Edge) => `${e.target_id}\u0000${e.type}`;
    const last = new Map(edges.map((e, i) => [keyOf(e), i]));
    const kept = edges.filter((e, i) => last.get(keyOf(e)) === i);
    if (this.held.patchEdges(src, kept)) return; // written with the next flush
    this.conn.later(`DELETE FROM ${this.t.edges} WHERE src = $1`, [src]);
    if (kept.length === 0) return;
    this.conn.later(
      `INSERT INTO ${this.t.edges}(src, dst, type, weight, created_at)
       SELECT $1, dst, type, weight, created_at FROM unnest($2::text[], $3::text[], $4::float8[], $5::float8[]) WITH ORDINALITY AS e(dst, type, weight, created_at, n) ORDER BY n`,
      [src, kept.map((e) => e.target_id), kept.map((e) => e.type), kept.map((e) => e.weight), kept.map((e) => e.created_at)],
    );
  }

  /**
   * The rowids of a memory's outgoing edges, in rowid order (the journal's JournalTarget.placement):
   * from what a batch holds when it read them with the row (no round trip), else read now.
   */
  edgeRowids(src: string): number[] {
    const held = this.held.get(src)?.edgeRowids;
    if (held) return held;
    return this.q(`SELECT rowid FROM ${this.t.edges} WHERE src = $1 ORDER BY rowid`, [src]).map((r) => intOf(r['rowid'], 'memory_edges.rowid'));
  }

  /**
   * A take-back after a cancel: the edges back at the rowids they had (`rowids`, one per edge), so
   * the table is as it was row for row. A rowid another edge holds now is numbered by the identity,
   * as replaceEdges numbers them. A held row (a batch that read it ahead) takes the plain path.
   */
  replaceEdgesAt(src: string, edges: readonly Edge[], rowids: readonly number[]): void {
    if (rowids.length !== edges.length) {
      this.replaceEdges(src, edges);
      return;
    }
    if (this.held.patchEdges(src, edges)) return; // written with the next flush, numbered anew
    this.conn.later(`DELETE FROM ${this.t.edges} WHERE src = $1`, [src]);
    if (edges.length === 0) return;
    this.conn.later(
      `INSERT INTO ${this.t.edges}(rowid, src, dst, type, weight, created_at)
       SELECT CASE WHEN EXISTS (SELECT 1 FROM ${this.t.edges} AS x WHERE x.rowid = e.at) THEN nextval(pg_get_serial_sequence($7, 'rowid')) ELSE e.at END,
              $1, dst, type, weight, created_at
       FROM unnest($2::text[], $3::text[], $4::float8[], $5::float8[], $6::bigint[]) WITH ORDINALITY AS e(dst, type, weight, created_at, at, n) ORDER BY n`,
      [src, edges.map((e) => e.target_id), edges.map((e) => e.type), edges.map((e) => e.weight), edges.map((e) => e.created_at), rowids, this.t.edges],
    );
  }
}

/** A subquery of `src`'s outgoing edges as arrays in rowid order, their rowids too (one row; null arrays when none), for a LEFT JOIN LATERAL. */
function edgeArrays(edges: string, src: string): string {
  return `SELECT array_agg(dst ORDER BY rowid) AS edge_dst, array_agg(type ORDER BY rowid) AS edge_type, array_agg(weight ORDER BY rowid) AS edge_weight,
                 array_agg(created_at ORDER BY rowid) AS edge_created_at, array_agg(rowid::float8 ORDER BY rowid) AS edge_rowid
          FROM ${edges} WHERE src = ${src}`;
}

/** The edges of edgeArrays' four arrays. */
function edgesOf(r: Record<string, unknown>): Edge[] {
  const dst = (r['edge_dst'] as string[] | null) ?? [];
  const type = r['edge_type'] as string[];
  const weight = r['edge_weight'] as number[];
  const created = r['edge_created_at'] as number[];
  return dst.map((d, i) => ({ target_id: d, type: type[i] as EdgeType, weight: weight[i]!, created_at: created[i]! }));
}

/** A row of wholeRows' statement: the columns, the embedding, the outgoing edges. */
function heldOf(r: Record<string, unknown>): HeldMemory {
  // Only the columns a plain read of the row returns (ROW_COLS), so a held row decodes as a read one.
  const columns = Object.fromEntries(ROW_COLS.split(', ').map((c) => [c, r[c]]));
  return { row: memoryRow(columns), embedding: (r['embedding'] as Uint8Array | null) ?? null, edges: edgesOf(r), edgeRowids: (r['edge_rowid'] as number[] | null) ?? [] };
}

/** Defers the held rows' writes (PgMemoryRows.flushHeld): rowid order of each edge list follows the list, as replaceEdges writes it. */
function writeDirty(conn: PgStoreConnection, t: { memoriesTable: string; edges: string }, dirty: DirtyRows): void {
  const db = conn.db();
  if (dirty.rows.length > 0) {
    const cols = Object.keys(UPDATE_TYPES) as (keyof typeof UPDATE_TYPES)[];
    db.defer(
      `UPDATE ${t.memoriesTable} AS m SET ${cols.map((c) => `${c} = u.${c}`).join(', ')}
       FROM unnest($1::text[], ${cols.map((c, i) => `$${i + 2}::${UPDATE_TYPES[c]}[]`).join(', ')}) AS u(id, ${cols.join(', ')})
       WHERE m.id = u.id`,
      [dirty.rows.map((r) => r.id), ...cols.map((c) => dirty.rows.map((r) => r[c]))],
    );
  }
  if (dirty.edges.length > 0) {
    db.defer(`DELETE FROM ${t.edges} WHERE src = ANY($1::text[])`, [dirty.edges.map((d) => d.src)]);
    const all = dirty.edges.flatMap((d) => d.edges.map((e) => ({ src: d.src, e })));
    if (all.length > 0) {
      db.defer(
        `INSERT INTO ${t.edges}(src, dst, type, weight, created_at)
         SELECT src, dst, type, weight, created_at FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[]) WITH ORDINALITY AS e(src, dst, type, weight, created_at, n) ORDER BY n`,
        [all.map((x) => x.src), all.map((x) => x.e.target_id), all.map((x) => x.e.type), all.map((x) => x.e.weight), all.map((x) => x.e.created_at)],
      );
    }
  }
}
