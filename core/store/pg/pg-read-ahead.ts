/**
 * Rows read ahead for a catch-up. When another connection's changes are told to the derived
 * indexes, each index reads the changed memory's row and its edges, one statement each: about six
 * round trips per memory per catch-up, where SQLite's reads cost microseconds. Reading the rows of
 * all the changed memories, and every edge that starts or ends at one of them, in one statement
 * first lets those reads answer from memory. Outside a catch-up nothing is held, so no read ever
 * sees a row older than the store; inside one, the listeners only read.
 */
import { pgJsonField } from './pg-json-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';

const MEMORY_COLS = 'rowid, id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, embedding, data';
/** What a held memory row carries: its columns and the title. */
const MEMORY_FIELDS = [...MEMORY_COLS.split(', '), 'text_search_title'];

type Row = Record<string, unknown>;

interface Held {
  asked: Set<string>;
  memories: Map<string, Row>;
  /** Edges by source and by destination, each list in rowid order (nooa's order). */
  from: Map<string, Row[]>;
  to: Map<string, Row[]>;
}

function push(map: Map<string, Row[]>, key: string, row: Row): void {
  const list = map.get(key);
  if (list) list.push(row);
  else map.set(key, [row]);
}

export class PgReadAhead {
  private held: Held | null = null;

  constructor(private readonly conn: PgStoreConnection) {}

  /** Runs fn with the rows of `ids` and their edges held (nested calls run inside the outer one's). */
  with<T>(ids: readonly string[], fn: () => T): T {
    if (ids.length === 0 || this.held) return fn();
    // On a replica when the store has one ready (pg-replicas.ts): a catch-up's reads.
    const db = this.conn.read();
    // The rows and the edges in one statement, so one round trip (a catch-up waits on each): the
    // two lists as one, told apart by `ahead_kind`, each row's columns typed as its table's. The
    // title is the one the list's text search reads (pg-text-rows.ts), under a name no column has.
    const rows = db.query(
      `SELECT 0 AS ahead_kind, ${MEMORY_COLS}, ${pgJsonField('data', 'title')} AS text_search_title,
              NULL::text AS edge_src, NULL::text AS edge_dst, NULL::double precision AS edge_weight
         FROM ${this.conn.table('memories')} WHERE id = ANY($1::text[])
       UNION ALL
       SELECT 1, rowid, NULL::text, type, NULL::text, NULL::double precision, NULL::double precision, NULL::bigint,
              created_at, NULL::double precision, NULL::bigint, NULL::bigint, NULL::text, NULL::text, NULL::bytea, NULL::text,
              NULL::text, src, dst, weight
         FROM ${this.conn.table('memory_edges')} WHERE src = ANY($1::text[]) OR dst = ANY($1::text[])
       ORDER BY ahead_kind, rowid`,
      [ids],
    );
    const memories: Row[] = [];
    const edges: Row[] = [];
    for (const r of rows) {
      if (r['ahead_kind'] === 0) {
        const m: Row = {};
        for (const col of MEMORY_FIELDS) m[col] = r[col];
        memories.push(m);
      } else {
        edges.push({ rowid: r['rowid'], src: r['edge_src'], dst: r['edge_dst'], type: r['type'], weight: r['edge_weight'], created_at: r['created_at'] });
      }
    }
    const held: Held = { asked: new Set(ids), memories: new Map(memories.map((r) => [r['id'] as string, r])), from: new Map(), to: new Map() };
    for (const e of edges) {
      push(held.from, e['src'] as string, e);
      push(held.to, e['dst'] as string, e);
    }
    this.held = held;
    try {
      return fn();
    } finally {
      this.held = null;
    }
  }

  /** The memory's row (undefined: asked for, and absent now), or null when it was not read ahead. */
  memory(id: string): Row | undefined | null {
    if (!this.held?.asked.has(id)) return null;
    return this.held.memories.get(id);
  }

  /** Edges out of `src` in rowid order, or null when they were not read ahead. */
  edgesFrom(src: string): Row[] | null {
    if (!this.held?.asked.has(src)) return null;
    return this.held.from.get(src) ?? [];
  }

  /** Edges into `dst` in rowid order, or null when they were not read ahead. */
  edgesTo(dst: string): Row[] | null {
    if (!this.held?.asked.has(dst)) return null;
    return this.held.to.get(dst) ?? [];
  }
}
