/**
 * Filling a store in bulk (`mnemo demo`): rows go straight through prepared statements, the
 * access-event indexes are dropped and rebuilt once at the end (one sort instead of a B-tree insert
 * per event), and the connection trades durability for speed while it loads (no fsync per batch; a
 * fresh file also skips the write-ahead log, so each page is written once). `finish()` puts every
 * setting and index back. Nothing here is journalled or announced to listeners row by row: the
 * caller wraps batches in `store.transaction`, and `finish()` tells the listeners (the derived
 * indexes) that everything may have changed, with one reset. Loading a new store starts its change
 * feed's history at the end of the load, without the load's own rows.
 */
import { connectionOf } from './connection.js';
import { MEMORY_COLUMNS } from '../port/codec.js';
import type { JournalledStore } from '../shared/journal.js';
import { startFeedHistory } from './feed-retention.js';
import type { BulkLoad } from '../port/store-rows.js';
import type { StoreReader } from '../port/port.js';
import { noMemories } from '../shared/scoped-reads.js';

const INSERT_MEMORY_SQL = `INSERT INTO memories(${MEMORY_COLUMNS.join(', ')}) VALUES (${MEMORY_COLUMNS.map((c) => `@${c}`).join(', ')})`;
const INSERT_EDGE_SQL = 'INSERT OR IGNORE INTO memory_edges(src, dst, type, weight, created_at) VALUES (?, ?, ?, ?, ?)';
const INSERT_EVENT_SQL = `INSERT INTO mnemo_access_events(memory_id, ts, channel, reader_owner, session_ref, trace_ref, query, score, rank, source, components, strength_after, reinforce, backfilled)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, 0)`;
const EVENT_INDEXES_SQL = "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'mnemo_access_events' AND sql IS NOT NULL";
/** 256 MiB of page cache (a negative cache_size is in KiB). */
const BULK_CACHE_SIZE = -262144;

/** Creates mnemo's tables if needed and switches the connection to bulk loading until `finish()`. */
export function beginBulkLoad(store: JournalledStore & Pick<StoreReader, 'sql'>): BulkLoad {
  const db = connectionOf(store);
  store.ensureMnemo();
  const insertMemory = db.prepare(INSERT_MEMORY_SQL);
  const insertEdge = db.prepare(INSERT_EDGE_SQL);
  const insertEvent = db.prepare(INSERT_EVENT_SQL);
  const archive = db.prepare('UPDATE memories SET archived = 1 WHERE id = ?');
  const eventIndexes = db.prepare(EVENT_INDEXES_SQL).all() as { name: string; sql: string }[];
  for (const ix of eventIndexes) db.exec(`DROP INDEX ${ix.name}`);
  const previousSync = db.pragma('synchronous', { simple: true }) as number;
  db.pragma('synchronous = OFF');
  // A fresh file needs no rollback protection while it is being filled: writing pages once
  // (no WAL copy, then checkpoint copy) roughly halves the I/O. WAL is restored at the end.
  const fresh = noMemories(store, { includeArchived: true }) && store.path !== ':memory:';
  if (fresh) {
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('journal_mode = OFF');
  }
  const previousCache = db.pragma('cache_size', { simple: true }) as number;
  db.pragma(`cache_size = ${BULK_CACHE_SIZE}`);
  return {
    insertMemory: (row) => void insertMemory.run(row),
    insertEdge: (src, dst, type, weight, createdAt) => void insertEdge.run(src, dst, type, weight, createdAt),
    insertEvent: (memoryId, rec, strengthAfter) => {
      const c = rec.components;
      insertEvent.run(memoryId, rec.ts, rec.channel, rec.reader_owner, rec.session_ref, null, rec.query, rec.score, rec.rank, c?.source ?? null, c ? JSON.stringify(c) : null, strengthAfter);
    },
    archive: (id) => void archive.run(id),
    finish: () => {
      for (const ix of eventIndexes) db.exec(ix.sql);
      db.pragma(`synchronous = ${previousSync}`);
      db.pragma(`cache_size = ${previousCache}`);
      if (fresh) db.pragma('journal_mode = WAL');
      // A new store's history starts once it is loaded (feed-retention.ts says why).
      if (fresh) startFeedHistory(store, store.clock.now());
      store.emit({ kind: 'reset' });
    },
  };
}
