/**
 * The PostgreSQL adapter's statements for a belief ingest run (ingest-run.ts, IngestSql; SQLite's
 * are sqlite-ingest-sql.ts). A PostgreSQL store keeps no evidence index in the database (the
 * evidence search's copy, pg-evidence-mirror.ts, notices the deletion at its next search), so
 * deleting the deltas is all.
 */
import type { IngestSql } from '../shared/ingest-run.js';
import { deletePgMeta } from './pg-meta.js';
import type { PgStoreConnection } from './pg-store-connection.js';

export function pgIngestSql(conn: PgStoreConnection): IngestSql {
  const q = (sql: string, params: readonly unknown[]) => conn.db().query(sql, params);
  return {
    deltaDimensionsBetween: (after, before) =>
      q(`SELECT DISTINCT entity, attribute FROM ${conn.table('mnemo_deltas')} WHERE id > $1 AND id < $2 ORDER BY entity, attribute`, [after, before]).map((r) => ({
        entity: r['entity'] as string,
        attribute: r['attribute'] as string,
      })),
    deleteDeltas: (first, last) => void q(`DELETE FROM ${conn.table('mnemo_deltas')} WHERE id BETWEEN $1 AND $2`, [first, last]),
    deleteMeta: (key) => deletePgMeta(conn, key),
  };
}
