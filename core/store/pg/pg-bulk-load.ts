/**
 * Filling a PostgreSQL store in bulk (`mnemo demo`; bulk-load.ts is SQLite's): rows go straight in,
 * neither journalled nor announced row by row, and `finish()` tells the listeners (the derived
 * indexes) with one reset that everything may have changed. While it loads, commits do not wait
 * for the disk (synchronous_commit off: a crash loses at most the last batches of a load that
 * would be run again anyway). A row is one statement through the bridge, so this is correct but not
 * yet fast. The load's rows stay in the change feed (pg-feed-ddl.ts): the loading connection
 * leaves them out, and other connections hear them as any write (one reset past their catch-up limit).
 */
import type { BulkLoad } from '../sqlite/bulk-load.js';
import { MEMORY_COLUMNS } from '../port/codec.js';
import type { PgStoreConnection } from './pg-store-connection.js';

const EVENT_COLUMNS = 'memory_id, ts, channel, reader_owner, session_ref, trace_ref, query, score, rank, source, components, strength_after, reinforce, backfilled';

/** Switches the connection to bulk loading until `finish()`; `ensureMnemo` and `reset` come from the store. */
export function beginPgBulkLoad(conn: PgStoreConnection, store: { ensureMnemo(): void; emit(e: { kind: 'reset' }): void }): BulkLoad {
  store.ensureMnemo();
  const db = conn.db();
  const t = (name: string) => conn.table(name);
  db.query('SET synchronous_commit = off');
  return {
    insertMemory: (row) => {
      db.query(
        `INSERT INTO ${t('memories')}(${MEMORY_COLUMNS.join(', ')}) VALUES (${MEMORY_COLUMNS.map((_c, i) => `$${i + 1}`).join(', ')})`,
        MEMORY_COLUMNS.map((c) => row[c]),
      );
    },
    insertEdge: (src, dst, type, weight, createdAt) => {
      db.query(`INSERT INTO ${t('memory_edges')}(src, dst, type, weight, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (src, dst, type) DO NOTHING`, [src, dst, type, weight, createdAt]);
    },
    insertEvent: (memoryId, rec, strengthAfter) => {
      const c = rec.components;
      db.query(`INSERT INTO ${t('mnemo_access_events')}(${EVENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 1, 0)`, [
        memoryId,
        rec.ts,
        rec.channel,
        rec.reader_owner,
        rec.session_ref,
        null,
        rec.query,
        rec.score,
        rec.rank,
        c?.source ?? null,
        c ? JSON.stringify(c) : null,
        strengthAfter,
      ]);
    },
    archive: (id) => void db.query(`UPDATE ${t('memories')} SET archived = 1 WHERE id = $1`, [id]),
    finish: () => {
      db.query('SET synchronous_commit = on');
      store.emit({ kind: 'reset' });
    },
  };
}
