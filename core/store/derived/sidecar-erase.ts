/**
 * What an erase takes out of the index sidecar (index-sidecar.ts purge), and the mark it leaves so
 * that nothing from before it is written back.
 *
 * The other processes on the store keep their indexes and patch the erased memories out of them
 * from the change feed, as any delete; so the sidecar keeps what is theirs too:
 * - every index snapshot is dropped (one written before the erase holds the erased text), and the
 *   position the erase ended at is recorded: a snapshot of an index from before that position is
 *   never published afterwards (a process that had not yet caught up when its write began);
 * - the list's text search keeps its tables and the position it recorded (they are shared, and
 *   another process reads them as it patches); only the erased memories' rows go, and the FTS5
 *   index is merged (`optimize`) so no segment keeps a word of theirs.
 */
import type { DB } from '../sqlite/sqlite.js';
import type { FeedPosition } from '../port/feed-position.js';

const ERASED_THROUGH = 'erased_through';

/** Snapshots of indexes (a text search's recorded position has no generation: it is not one). */
const SNAPSHOTS = 'SELECT count(*) FROM snapshot WHERE generation <> 0';

const hasTextSearch = (db: DB) => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'text_doc'").get() !== undefined;

/** How many index snapshots the file holds, and how many of these memories' rows its text search (all of them without `ids`). */
export function erasableContents(db: DB, ids?: readonly string[]): { snapshots: number; text_rows: number } {
  const snapshots = db.prepare(SNAPSHOTS).pluck().get() as number;
  if (!hasTextSearch(db)) return { snapshots, text_rows: 0 };
  const text_rows = ids
    ? (db.prepare('SELECT count(*) FROM text_doc WHERE id IN (SELECT value FROM json_each(?))').pluck().get(JSON.stringify(ids)) as number)
    : (db.prepare('SELECT count(*) FROM text_doc').pluck().get() as number);
  return { snapshots, text_rows };
}

/**
 * Inside the caller's write transaction: drops every index snapshot's rows and the text search's
 * rows of the erased memories, and records `through`. The caller removes the parts' files after it.
 */
export function dropErased(db: DB, erased: readonly string[], through: FeedPosition | null): void {
  db.exec('DELETE FROM snapshot WHERE generation <> 0; DELETE FROM snapshot_part; DELETE FROM snapshot_generation; DELETE FROM snapshot_writer;');
  if (hasTextSearch(db)) {
    const ids = JSON.stringify(erased);
    db.prepare('DELETE FROM text_fts WHERE rowid IN (SELECT rowid FROM text_doc WHERE id IN (SELECT value FROM json_each(?)))').run(ids);
    db.prepare('DELETE FROM text_doc WHERE id IN (SELECT value FROM json_each(?))').run(ids);
    db.exec("INSERT INTO text_fts(text_fts) VALUES ('optimize')");
  }
  if (through) db.prepare('INSERT OR REPLACE INTO sidecar_meta(key, value) VALUES (?, ?)').run(ERASED_THROUGH, JSON.stringify(through));
}

/** Whether a snapshot at `position` reflects the store from before the last erase (it may hold erased text: never published). */
export function fromBeforeErase(db: DB, position: FeedPosition): boolean {
  const raw = db.prepare('SELECT value FROM sidecar_meta WHERE key = ?').pluck().get(ERASED_THROUGH) as string | undefined;
  if (!raw) return false;
  const through = JSON.parse(raw) as FeedPosition;
  return through.epoch === position.epoch && position.seq < through.seq;
}
