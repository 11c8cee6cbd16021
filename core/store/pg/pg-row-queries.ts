/**
 * The PostgreSQL adapter's whole-table reads of memory and edge rows: the raw rows a reflection
 * plan fingerprints (fingerprint-rows.ts on SQLite) and the rows the derived indexes are built from
 * (derived-sources.ts), in the same orders, with the same shapes: bigint columns as numbers, blobs
 * as Buffers (they cross from the bridge's worker as plain Uint8Arrays).
 *
 * SQLite streams a whole table from one statement; here a table is read a page at a time by key
 * (rowid, or source and rowid for edges), so a large store never sits in memory twice. Inside
 * readConsistent (one REPEATABLE READ snapshot) the pages agree with each other as one statement
 * would.
 *
 * The title, tags and entities of the index sources are read from `data` here rather than by SQL:
 * SQLite's json_extract reads a row its JSON functions accept, and PostgreSQL's jsonb would fail the
 * whole statement on one unreadable row. A row JSON.parse cannot read (SQLite's JSON5 extensions
 * such as NaN included) reads as unreadable, with no title or tags.
 */
import { documentOf, fieldOf } from '../shared/json-fields.js';
import { intOf } from './pg-sql.js';
import type { PgHeldRows } from './pg-held-rows.js';
import type { PgReadAhead } from './pg-read-ahead.js';
import type { PgStoreConnection } from './pg-store-connection.js';
import type { BodyRow, EmbeddingRow, RawEdgeRow, RawMemoryRow, SourceRow, VectorRow } from '../port/source-rows.js';

const PAGE = 1000;
const MEMORY_COLS = 'rowid, id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, embedding, data';
const EDGE_COLS = 'rowid, src, dst, type, weight, created_at';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function bufferOf(v: unknown): Buffer | null {
  if (v === null || v === undefined) return null;
  const u = v as Uint8Array;
  return Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength);
}

function rawMemory(r: Record<string, unknown>): RawMemoryRow {
  return {
    ...(r as unknown as RawMemoryRow),
    rowid: intOf(r['rowid'], 'memories.rowid'),
    strength: intOf(r['strength'], 'memories.strength'),
    access_count: intOf(r['access_count'], 'memories.access_count'),
    archived: intOf(r['archived'], 'memories.archived'),
    embedding: bufferOf(r['embedding']),
  };
}

function rawEdge(r: Record<string, unknown>): RawEdgeRow {
  return { ...(r as unknown as RawEdgeRow), rowid: intOf(r['rowid'], 'memory_edges.rowid') };
}

export class PgRowQueries {
  /** `pageRows`: rows per statement when a whole table is read (smaller in tests, to cross pages). */
  constructor(
    private readonly conn: PgStoreConnection,
    private readonly pageRows = PAGE,
    /** A catch-up's rows read ahead (pg-read-ahead.ts), which the index reads answer from. */
    private readonly ahead: PgReadAhead | null = null,
    /** The rows the running transaction locked or inserted, held with its writes (pg-held-rows.ts). */
    private readonly locked: Pick<PgHeldRows, 'get'> | null = null,
  ) {}

  private q(sql: string, params: readonly unknown[] = []): Record<string, unknown>[] {
    return this.conn.read().query(sql, params);
  }

  private get memories(): string {
    return this.conn.table('memories');
  }

  private get edges(): string {
    return this.conn.table('memory_edges');
  }

  /** Rows of `memories` matching `where`, in rowid order, a page per statement. */
  private *memoryPages<T>(cols: string, where: string, map: (r: Record<string, unknown>) => T): Generator<T> {
    let after = Number.MIN_SAFE_INTEGER;
    for (;;) {
      const rows = this.q(`SELECT ${cols} FROM ${this.memories} WHERE ${where} AND rowid > $1 ORDER BY rowid LIMIT $2`, [after, this.pageRows]);
      for (const r of rows) yield map(r);
      if (rows.length < this.pageRows) return;
      after = intOf(rows[rows.length - 1]!['rowid'], 'memories.rowid');
    }
  }

  /** Edges in (src, rowid) order, a page per statement. */
  private *edgePages(pageSize: number): Generator<Record<string, unknown>[]> {
    let after: [string, number] = ['', Number.MIN_SAFE_INTEGER];
    for (;;) {
      const rows = this.q(`SELECT ${EDGE_COLS} FROM ${this.edges} WHERE (src, rowid) > ($1, $2) ORDER BY src, rowid LIMIT $3`, [after[0], after[1], pageSize]);
      yield rows;
      if (rows.length < pageSize) return;
      const last = rows[rows.length - 1]!;
      after = [last['src'] as string, intOf(last['rowid'], 'memory_edges.rowid')];
    }
  }

  // ---------------------------------------------------------------- raw rows (fingerprint-rows.ts)

  memoryRows(): Iterable<RawMemoryRow> {
    return this.memoryPages(MEMORY_COLS, 'TRUE', rawMemory);
  }

  async *memoryRowPages(pageSize = 2048): AsyncGenerator<RawMemoryRow[]> {
    let after = Number.MIN_SAFE_INTEGER;
    for (;;) {
      const page = this.q(`SELECT ${MEMORY_COLS} FROM ${this.memories} WHERE rowid > $1 ORDER BY rowid LIMIT $2`, [after, pageSize]).map(rawMemory);
      if (page.length === 0) return;
      yield page;
      if (page.length < pageSize) return;
      after = page[page.length - 1]!.rowid;
      await nextTurn();
    }
  }

  embeddingRows(): Iterable<EmbeddingRow> {
    return this.memoryPages('rowid, id, archived, owner, embedding', 'TRUE', (r) => ({
      id: r['id'] as string,
      archived: intOf(r['archived'], 'memories.archived'),
      owner: r['owner'] as string,
      embedding: bufferOf(r['embedding']),
    }));
  }

  *edgeRows(): Iterable<RawEdgeRow> {
    for (const page of this.edgePages(this.pageRows)) for (const r of page) yield rawEdge(r);
  }

  async *edgeRowPages(pageSize = 2048): AsyncGenerator<RawEdgeRow[]> {
    for (const page of this.edgePages(pageSize)) {
      yield page.map(rawEdge);
      if (page.length < pageSize) return;
      await nextTurn();
    }
  }

  // ---------------------------------------------------------------- index sources (derived-sources.ts)

  private vector(r: Record<string, unknown>): VectorRow {
    return {
      rowid: intOf(r['rowid'], 'memories.rowid'),
      id: r['id'] as string,
      owner: r['owner'] as string,
      archived: intOf(r['archived'], 'memories.archived'),
      embedding: bufferOf(r['embedding']),
    };
  }

  private source(r: Record<string, unknown>): SourceRow {
    return {
      rowid: intOf(r['rowid'], 'memories.rowid'),
      id: r['id'] as string,
      owner: r['owner'] as string,
      content: r['content'] as string,
      archived: intOf(r['archived'], 'memories.archived'),
      data: r['data'] as string,
    };
  }

  liveVectorRows(): Iterable<VectorRow> {
    return this.memoryPages('rowid, id, owner, archived, embedding', 'archived = 0', (r) => this.vector(r));
  }

  vectorRow(id: string): VectorRow | undefined {
    const held = this.ahead?.memory(id) ?? null;
    if (held !== null) return held ? this.vector(held) : undefined;
    // A memory this transaction wrote is held as a read would return it: the vector index, told of
    // an agent's new memory inside the write, reads nothing back (a round trip on a network store).
    const mine = this.locked?.get(id) ?? null;
    if (mine && mine.row.rowid !== undefined) return { rowid: mine.row.rowid, id, owner: mine.row.owner, archived: mine.row.archived, embedding: bufferOf(mine.embedding) };
    const [r] = this.q(`SELECT rowid, id, owner, archived, embedding FROM ${this.memories} WHERE id = $1`, [id]);
    return r ? this.vector(r) : undefined;
  }

  sourceRow(id: string): SourceRow | undefined {
    const held = this.ahead?.memory(id) ?? null;
    if (held !== null) return held ? this.source(held) : undefined;
    const [r] = this.q(`SELECT rowid, id, owner, content, archived, data FROM ${this.memories} WHERE id = $1`, [id]);
    return r ? this.source(r) : undefined;
  }

  liveSourceRows(): Iterable<SourceRow> {
    return this.memoryPages('rowid, id, owner, content, archived, data', 'archived = 0', (r) => this.source(r));
  }

  liveBodies(): BodyRow[] {
    return [
      ...this.memoryPages('rowid, id, owner, content, data', 'archived = 0', (r) => {
        const doc = documentOf(r['data'] as string);
        return { id: r['id'] as string, owner: r['owner'] as string, title: fieldOf(doc, 'title'), content: r['content'] as string, tags: fieldOf(doc, 'tags'), readable: doc ? 1 : 0 };
      }),
    ];
  }
}
