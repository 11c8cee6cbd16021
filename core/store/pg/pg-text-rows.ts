/**
 * The memories' text for the memory list's full-text search (text-search.ts) on PostgreSQL: the
 * same index as SQLite's, fed with the same rows. The title is read out of the JSON `data` as
 * SQLite's json_extract reads it (a string unquoted, NULL when absent or unreadable); a title that
 * is not a string (a number, an object) is text here and may be spelled differently by the two.
 */
import type { TextRow, TextRows } from '../derived/text-search.js';
import { pgJsonField } from './pg-json-sql.js';
import { intOf } from './pg-sql.js';
import type { PgReadAhead } from './pg-read-ahead.js';
import type { PgStoreConnection } from './pg-store-connection.js';

/** Rows read per round trip when the index is built. */
const PAGE = 5000;

const rowOf = (r: Record<string, unknown>): TextRow => ({ id: r['id'] as string, title: r['title'] as string | null, content: r['content'] as string });

/** `ahead`: a catch-up's rows read ahead (pg-read-ahead.ts), which `one` answers from. */
export function pgTextRows(conn: PgStoreConnection, ahead: PgReadAhead | null = null): TextRows {
  const cols = `id, ${pgJsonField('data', 'title')} AS title, content FROM ${conn.table('memories')}`;
  return {
    *all() {
      // In rowid order, as SQLite's scan reads them, a page at a time.
      for (let after = -1; ; ) {
        const page = conn.db().query(`SELECT rowid, ${cols} WHERE rowid > $1 ORDER BY rowid LIMIT $2`, [after, PAGE]);
        for (const r of page) yield rowOf(r);
        if (page.length < PAGE) return;
        after = intOf(page[page.length - 1]!['rowid'], 'memories.rowid');
      }
    },
    one(id) {
      const held = ahead?.memory(id) ?? null;
      if (held !== null) return held ? { id, title: held['text_search_title'] as string | null, content: held['content'] as string } : undefined;
      const [r] = conn.db().query(`SELECT ${cols} WHERE id = $1`, [id]);
      return r ? rowOf(r) : undefined;
    },
  };
}
