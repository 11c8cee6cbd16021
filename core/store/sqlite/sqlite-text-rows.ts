/**
 * The memories' text for the memory list's full-text search (derived/text-search.ts) on SQLite: the
 * title field of each row's JSON (NULL when absent or unreadable) and its content. The PostgreSQL
 * side is pg/pg-text-rows.ts.
 */
import { connectionOf, statementOf } from './connection.js';
import { jsonField } from '../shared/json-sql.js';
import type { TextRow, TextRows } from '../port/source-rows.js';
import type { RowSource } from '../shared/store-handle.js';

const LOAD_SQL = `SELECT id, ${jsonField('data', '$.title')} AS title, content FROM memories`;
const ROW_SQL = `SELECT id, ${jsonField('data', '$.title')} AS title, content FROM memories WHERE id = ?`;

export function sqliteTextRows(store: RowSource): TextRows {
  return {
    all: () => connectionOf(store).prepare(LOAD_SQL).iterate() as Iterable<TextRow>,
    one: (id) => statementOf(store, ROW_SQL).get(id) as TextRow | undefined,
  };
}
