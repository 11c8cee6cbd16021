/**
 * A connection turned into the store as it stood at an instant (PgStore.openAsOf): it holds one
 * REPEATABLE READ, READ ONLY transaction for its life, over views that show the rows of then
 * (pg-history-views.ts), so every read works on it unchanged and never changes, whatever others
 * commit meanwhile; every write is refused.
 */
import { MnemoError } from '../../errors.js';
import type { StoreAsOf } from '../../model/history.js';
import { noHistory } from '../sqlite/history-instant.js';
import { PgFeed } from './pg-feed.js';
import { resolvePgInstant } from './pg-history-instant.js';
import { createHistoryViews, fillHistoryViews } from './pg-history-views.js';
import type { PgStoreConnection } from './pg-store-connection.js';

/** Sets the connection up to show instant `at`; refuses an instant before the history starts (pg-history-instant.ts). */
export function enterPgPast(conn: PgStoreConnection, at: number): StoreAsOf {
  const feed = new PgFeed(conn);
  if (!feed.installed()) throw noHistory(conn.shown);
  createHistoryViews(conn);
  conn.db().query('SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY');
  conn.db().query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  const { instant, rows } = resolvePgInstant(feed, conn.shown, at);
  fillHistoryViews(conn, feed.table, rows);
  return instant;
}

/** The refusal of a write to a store shown as of an instant. */
export function pastIsReadOnly(path: string, at: number): MnemoError {
  return new MnemoError('bad_input', `${path} is shown as it stood at ${new Date(at * 1000).toISOString()}: the past is read-only; open the store as it is now to change it`, {
    reason: 'read_only_past',
  });
}
