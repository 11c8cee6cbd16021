/**
 * The SQLite adapter's SQL over `memories` and `memory_edges`: whole rows in and out, in the
 * shapes codec.ts reads and writes (MemoryRow), as pg/pg-memory-rows.ts does for PostgreSQL, so
 * MemoryStore and the modules it hands work to (scoped-reads.ts, memory-writes.ts) speak
 * no SQL about memories themselves. Statements with a fixed text come from the store's cache; a
 * text that varies (a chunk of ids, a scope) is prepared each time, except for one id: an index
 * patching a change in reads one memory's row and edges at a time, thousands of times while
 * another process's reflection is followed, and preparing each was a tenth of that work.
 */
import type { EdgeType } from '../../model/enums.js';
import type { Edge } from '../../model/memory.js';
import type { MemoryRow } from '../port/codec.js';
import type { MemoryIdLookups } from '../shared/memory-ids.js';
import type { IncomingEdge } from '../port/port.js';
import type { DB, StatementCache } from './sqlite.js';

const SELECT_COLS =
  'rowid, id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, data';

/** Up to this many ids, `rows` and `edgesFrom` keep their statements prepared (one text per count: a recall reads its five or ten results' rows and edges). */
const KEPT_ROWS_STATEMENTS = 50;

/** A memory's row as codec.ts's encodeRow writes it (no rowid, the embedding apart). */
type EncodedRow = Omit<MemoryRow, 'rowid' | 'embedding'>;

export class SqliteMemoryRows implements MemoryIdLookups {
  constructor(
    private readonly db: DB,
    private readonly st: StatementCache,
  ) {}

  row(id: string): MemoryRow | null {
    return (this.st.get(`SELECT ${SELECT_COLS} FROM memories WHERE id = ?`).get(id) as MemoryRow | undefined) ?? null;
  }

  /** The rows of these ids (at most 500, one statement; missing ids are absent). */
  rows(ids: readonly string[]): MemoryRow[] {
    if (ids.length === 1) {
      const one = this.row(ids[0]!);
      return one ? [one] : [];
    }
    const marks = ids.map(() => '?').join(',');
    const sql = `SELECT ${SELECT_COLS} FROM memories WHERE id IN (${marks})`;
    // A recall reads its k results' rows (k is small): those few texts are kept prepared, the rest vary too much to keep.
    return (ids.length <= KEPT_ROWS_STATEMENTS ? this.st.get(sql) : this.db.prepare(sql)).all(...ids) as MemoryRow[];
  }

  /** Rows matching `where` (a condition with `?` placeholders, `params` its values) after rowid `after`, in rowid order. */
  page(where: string, params: readonly unknown[], after: number, batch: number): MemoryRow[] {
    return this.db.prepare(`SELECT ${SELECT_COLS} FROM memories WHERE ${where} AND rowid > ? ORDER BY rowid LIMIT ?`).all(...params, after, batch) as MemoryRow[];
  }

  exists(id: string): boolean {
    return this.st.get('SELECT 1 FROM memories WHERE id = ?').get(id) !== undefined;
  }

  /** A prefix matches by `LIKE prefix%`, its wildcards escaped (memory-ids.ts). */
  idsWithPrefix(prefix: string): string[] {
    const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
    return (this.st.get("SELECT id FROM memories WHERE id LIKE ? ESCAPE '\\' LIMIT 2").all(`${escaped}%`) as { id: string }[]).map((r) => r.id);
  }

  /** Outgoing edges in rowid order (the order nooa's unordered SELECT returns, which breaks fanout ties). */
  neighbors(id: string): Edge[] {
    const rows = this.st.get('SELECT dst, type, weight, created_at FROM memory_edges WHERE src = ? ORDER BY rowid').all(id) as {
      dst: string;
      type: EdgeType;
      weight: number;
      created_at: number;
    }[];
    return rows.map((r) => ({ target_id: r.dst, type: r.type, weight: r.weight, created_at: r.created_at }));
  }

  edgesFrom(ids: readonly string[]): Map<string, Edge[]> {
    const out = new Map<string, Edge[]>();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const sql = `SELECT src, dst, type, weight, created_at FROM memory_edges WHERE src IN (${chunk.map(() => '?').join(',')}) ORDER BY rowid`;
      const rows = (chunk.length <= KEPT_ROWS_STATEMENTS ? this.st.get(sql) : this.db.prepare(sql)).all(...chunk) as { src: string; dst: string; type: EdgeType; weight: number; created_at: number }[];
      for (const r of rows) {
        let list = out.get(r.src);
        if (!list) out.set(r.src, (list = []));
        list.push({ target_id: r.dst, type: r.type, weight: r.weight, created_at: r.created_at });
      }
    }
    return out;
  }

  /** Incoming edges (who points at this memory). */
  incoming(id: string): IncomingEdge[] {
    return this.st.get('SELECT src, type, weight, created_at FROM memory_edges WHERE dst = ? ORDER BY rowid').all(id) as {
      src: string;
      type: EdgeType;
      weight: number;
      created_at: number;
    }[];
  }

  /** INSERT OR REPLACE, as nooa's `add`: the row with its embedding. */
  replace(r: EncodedRow, embedding: Buffer | null): void {
    this.st
      .get(
        `INSERT OR REPLACE INTO memories(id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, embedding, data)
         VALUES (@id, @type, @content, @importance, @salience, @strength, @created_at, @last_accessed, @access_count, @archived, @owner, @status, @embedding, @data)`,
      )
      .run({ ...r, embedding });
  }

  /** UPDATE that keeps the embedding (nooa's `save`); false when no row has the id. */
  update(r: EncodedRow): boolean {
    const info = this.st
      .get(
        `UPDATE memories SET type=@type, content=@content, importance=@importance, salience=@salience, strength=@strength,
           created_at=@created_at, last_accessed=@last_accessed, access_count=@access_count, archived=@archived,
           owner=@owner, status=@status, data=@data WHERE id=@id`,
      )
      .run(r);
    return info.changes !== 0;
  }

  /** The columns an access moves: strength, recency, the counter and the JSON that carries the ring. */
  updateUsage(r: EncodedRow): void {
    this.st
      .get('UPDATE memories SET strength=@strength, last_accessed=@last_accessed, access_count=@access_count, data=@data WHERE id=@id')
      .run({ id: r.id, strength: r.strength, last_accessed: r.last_accessed, access_count: r.access_count, data: r.data });
  }

  setEmbedding(id: string, embedding: Buffer | null): void {
    this.st.get('UPDATE memories SET embedding = ? WHERE id = ?').run(embedding, id);
  }

  /** Flips only the `archived` column; false when it already had that value (or there is no such memory). */
  setArchived(id: string, archived: boolean): boolean {
    return this.st.get('UPDATE memories SET archived = ? WHERE id = ? AND archived != ?').run(archived ? 1 : 0, id, archived ? 1 : 0).changes > 0;
  }

  /** Removes the row and every edge into or out of it; false when there was none. */
  remove(id: string): boolean {
    this.st.get('DELETE FROM memory_edges WHERE src = ? OR dst = ?').run(id, id);
    return this.st.get('DELETE FROM memories WHERE id = ?').run(id).changes > 0;
  }

  /** Nothing to do: SQLite's IMMEDIATE transaction already holds the whole store against other writers. */
  lock(_id: string): void {}

  /** nooa's save() deletes and re-inserts a memory's edges in list order; rowid order follows it. */
  replaceEdges(src: string, edges: readonly Edge[]): void {
    this.st.get('DELETE FROM memory_edges WHERE src = ?').run(src);
    const ins = this.st.get('INSERT OR REPLACE INTO memory_edges(src, dst, type, weight, created_at) VALUES (?, ?, ?, ?, ?)');
    for (const e of edges) ins.run(src, e.target_id, e.type, e.weight, e.created_at);
  }
}
