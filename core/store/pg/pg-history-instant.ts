/**
 * What an instant means to a PostgreSQL store's change feed (pg-history-rows.ts says which rows it
 * rolls back). History starts when the feed began keeping before-images (`feed_images_from`: the
 * store's creation, or the writable open that brought an older feed up to date) and reaches back
 * to what retention kept (`feed_history_from`); an instant before that is refused with SQLite's
 * typed error (history-instant.ts), which names the earliest instant that can be shown.
 *
 * A position of the past on PostgreSQL is the instant itself (`seq` = the epoch seconds asked
 * for): transactions commit out of sequence order, so no sequence number names the state, and
 * changesBetween works from the two instants.
 */
import { beforeHistory, noHistory } from '../sqlite/history-instant.js';
import type { StoreAsOf } from '../../model/history.js';
import { PG_FEED_FACTS, type PgFeed } from './pg-feed.js';
import { transactionsAfterInstant, type PgFeedKeyRow } from './pg-history-rows.js';

export interface PgInstant {
  instant: StoreAsOf;
  /** The feed rows the instant rolls back, in sequence order, without their images. */
  rows: PgFeedKeyRow[];
}

/** The earliest instant the store's history reaches; throws when it keeps none. */
export function pgEarliestInstant(feed: PgFeed, path: string): { epoch: string; earliest: number } {
  const epoch = feed.epoch();
  const imagesFrom = epoch === null ? null : feed.fact(PG_FEED_FACTS.imagesFrom);
  if (epoch === null || imagesFrom === null) throw noHistory(path);
  const historyFrom = Number(feed.fact(PG_FEED_FACTS.historyFrom) ?? NaN);
  // A writer whose clock is behind the one that installed the images (an injected clock, `--now`)
  // stamps changes before the installation: history then starts at the first of them, as on SQLite.
  const [first] = feed.rows<{ at: number }>(`SELECT at FROM ${feed.table} WHERE embedding_kept IS NOT NULL ORDER BY seq LIMIT 1`);
  const start = Math.min(Number(imagesFrom), first?.at ?? Infinity);
  return { epoch, earliest: Number.isFinite(historyFrom) ? Math.max(start, historyFrom) : start };
}

/**
 * Resolves `at` (see the file comment) to the instant and the feed rows it rolls back (their keys;
 * a past store reads the images it needs). Run inside the snapshot the rows will be read in.
 */
export function resolvePgInstant(feed: PgFeed, path: string, at: number): PgInstant {
  const { epoch, earliest } = pgEarliestInstant(feed, path);
  if (at < earliest) throw beforeHistory(path, at, earliest);
  const { rows } = transactionsAfterInstant(feed.conn.db(), feed.table, at);
  // A row written before the images (a writer's clock far ahead of the upgrade) cannot be rolled back.
  const blind = rows.find((r) => r.embedding_kept === null && r.op !== 'insert');
  if (blind) throw beforeHistory(path, at, Math.max(earliest, blind.at));
  const accessesFrom = Number(feed.fact(PG_FEED_FACTS.accessesFrom) ?? NaN);
  return {
    instant: {
      at,
      position: { epoch, seq: at },
      earliest,
      live: rows.length === 0,
      rolled_back: rows.length,
      access_fields_exact: !(Number.isFinite(accessesFrom) && at < accessesFrom),
    },
    rows,
  };
}
