/**
 * Reads of the journal's tables beside the store's journal itself (StoreReader.journal), written
 * once for both backends (port/store-sql.ts).
 */
import type { StoreReader } from '../port/port.js';
import { query } from '../shared/store-query.js';

/** Up to `limit` ids of memories a change wrote, in the order the journal recorded them, so a list of changes can name them by title. */
export function memoriesTouched(store: Pick<StoreReader, 'sql'>, changeId: number, limit: number): string[] {
  return store.sql
    .all(query(`SELECT substr(key, 3) AS id FROM ${store.sql.table('mnemo_journal_rows')} WHERE change_id = ? AND substr(key, 1, 2) = 'm:' ORDER BY rowid LIMIT ?`, [changeId, limit]))
    .map((r) => r['id'] as string);
}
