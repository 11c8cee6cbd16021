/**
 * Rows read ahead for a catch-up. When another connection's changes are told to the derived
 * indexes, each index reads the changed memory's row and its edges, one statement each: about six
 * round trips per memory per catch-up, where SQLite's reads cost microseconds. Reading the rows of
 * all the changed memories, and every edge that starts or ends at one of them, in two statements
 * first lets those reads answer from memory. Outside a catch-up nothing is held, so no read ever
 * sees a row older than the store; inside one, the listeners only read.
 */
import { pgJsonField } from './pg-json-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';

const MEMORY_COLS = 'rowid, id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, embedding, data';

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
    // The title as the list's text search reads it (pg-text-rows.ts), under a name no column has.
    const memories = db.query(`SELECT ${MEMORY_COLS}, ${pgJsonField('data', 'title')} AS text_search_title FROM ${this.conn.table('memories')} WHERE id = ANY($1::text[])`, [ids]);
    const edges = db.query(
      `SELECT rowid, src, dst, type, weight, created_at FROM ${this.conn.table('memory_edges')} WHERE src = ANY($1::text[]) OR dst = ANY($1::text[]) ORDER BY rowid`,
      [ids],
    );
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
