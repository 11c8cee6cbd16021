/**
 * A connection turned into the store as it stood at an instant (MemoryStore.openAsOf): a read-only
 * connection of its own that keeps one read transaction for its life, over TEMP views that show
 * the rows of then (history-views.ts), so every read works on it unchanged and never changes,
 * whatever others write meanwhile. The SQLite side of pg/pg-history-open.ts.
 */
import { feedPosition } from './feed-reads.js';
import { resolveInstant, type HistoryInstant } from './history-instant.js';
import { installHistoryViews } from './history-views.js';
import type { DB } from './sqlite.js';

/** Sets the connection up to show instant `at`; refuses an instant before the history starts (history-instant.ts). */
export function enterSqlitePast(db: DB, path: string, at: number, now: number): HistoryInstant {
  // A read-only open that found no other connection is writable but query_only (readonly-open.ts),
  // which refuses TEMP objects too. This connection writes only TEMP objects, and the store on
  // it is read-only (every write method refuses), so nothing reaches the file.
  if (db.pragma('query_only', { simple: true })) db.pragma('query_only = OFF');
  // Deferred: the first read below takes the snapshot every later read on this connection sees.
  db.exec('BEGIN');
  const instant = resolveInstant(db, path, at, now);
  installHistoryViews(db, instant.position.seq);
  return instant;
}

/**
 * A store opened as of an instant reads inside one read transaction, so its views and the rows
 * they roll back are one snapshot. Held between requests, that transaction would pin the WAL: no
 * checkpoint can pass it, and the WAL grows with every commit another process makes. So the API
 * session releases it after its requests (releasePastSnapshot) and the next request takes it again
 * (resumePastSnapshot), which holds only while the feed has not moved since the views were built
 * (then the current rows are the ones they were built on); otherwise the caller opens anew.
 */
export function releasePastSnapshot(db: DB): void {
  if (db.inTransaction) db.exec('COMMIT');
}

/**
 * Takes the read snapshot again; false when the store changed since openAsOf (open the instant
 * anew). `head` is the feed's head when the views were installed; `store` finds the connection.
 */
export function resumePastSnapshot(db: DB, store: object, head: number | null): boolean {
  if (!db.inTransaction) db.exec('BEGIN');
  if ((feedPosition(store)?.seq ?? null) === head) return true;
  db.exec('COMMIT');
  return false;
}
