/** The SQLite adapter's statements for a belief ingest run (ingest-run.ts, IngestSql). */
import { statementOf } from './connection.js';
import type { IngestSql } from '../shared/ingest-run.js';
import type { StoreHandle } from '../shared/store-handle.js';

export function sqliteIngestSql(store: StoreHandle): IngestSql {
  return {
    deltaDimensionsBetween: (after, before) =>
      statementOf(store, 'SELECT DISTINCT entity, attribute FROM mnemo_deltas WHERE id > ? AND id < ?').all(after, before) as { entity: string; attribute: string }[],
    // The evidence index follows by trigger.
    deleteDeltas: (first, last) => void statementOf(store, 'DELETE FROM mnemo_deltas WHERE id BETWEEN ? AND ?').run(first, last),
    deleteMeta: (key) => void statementOf(store, 'DELETE FROM mnemo_meta WHERE key = ?').run(key),
  };
}
