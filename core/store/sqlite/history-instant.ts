/**
 * What an instant means to the change feed: the feed position the store stood at then, and how far
 * back its history reaches. History starts when the feed was installed (migration 007) and reaches
 * back to what retention kept; an instant before that is refused with a typed error that names the
 * earliest instant that can be shown.
 *
 * An instant resolves to the position just before the first change stamped after it. Each row
 * carries its writer's clock (Mnemo's injected clock, a foreign writer's wall clock); when clocks
 * agree that is exactly "every change up to T", and when they do not, the state shown is still one
 * the store really passed through (a prefix of the feed), never a mix of changes from either side
 * of T: a change stamped ahead of its successors holds them back until T reaches its stamp.
 */
import { badInput, type MnemoError } from '../../errors.js';
import type { DB } from './sqlite.js';
import { hasMigration } from './migrations.js';
import { FEED_META } from '../queries/feed-retention.js';

/** The `mnemo_meta` key migration 007 sets: when the feed was installed, where history starts. */
export const FEED_INSTALLED_AT = 'feed_installed_at';
import type { StoreAsOf } from '../../model/history.js';

/** What an instant resolves to (the API's StoreAsOf). */
export type HistoryInstant = StoreAsOf;

function meta(db: DB, key: string): string | undefined {
  return db.prepare('SELECT value FROM mnemo_meta WHERE key = ?').pluck().get(key) as string | undefined;
}

/** The refusal of a store that keeps no history yet (either backend). */
export function noHistory(path: string): MnemoError {
  return badInput(
    `${path} has no change history yet: Mnemo starts recording it the first time it opens the store writable, and can show it as it was at any instant from then on`,
    { reason: 'no_history' },
  );
}

/** The refusal of an instant before the history starts (or before what retention kept), naming the earliest one (either backend). */
export function beforeHistory(path: string, at: number, earliest: number): MnemoError {
  return badInput(`${path} has history from ${new Date(earliest * 1000).toISOString()} (epoch ${earliest}) on; ${at} is earlier. Ask for an instant at or after ${earliest}`, {
    field: 'at',
    reason: 'before_history',
    at,
    earliest,
  });
}

/** Throws unless the file has a change feed: without one there is no history to travel. */
export function requireFeed(db: DB, path: string): { epoch: string; seq: number } {
  const epoch = hasMigration(db, '007-change-feed') ? meta(db, 'feed_epoch') : undefined;
  if (!epoch) throw noHistory(path);
  const seq = (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'mnemo_feed'").pluck().get() as number | undefined) ?? 0;
  return { epoch, seq };
}

/**
 * The earliest instant the history reaches: the feed's installation, or the newest change
 * retention removed (feed-retention.ts `feed_history_from`), whichever is later.
 */
export function earliestInstant(db: DB, fallback: number): number {
  const installed = Number(meta(db, FEED_INSTALLED_AT) ?? NaN);
  const first = db.prepare('SELECT at FROM mnemo_feed ORDER BY seq LIMIT 1').pluck().get() as number | undefined;
  // A writer whose clock is behind the one that installed the feed (an injected clock, `--now`) stamps
  // changes before the installation: history then starts at the first of them. A feed installed
  // before its installation time was recorded starts at its first change.
  const start = Number.isFinite(installed) ? Math.min(installed, first ?? installed) : (first ?? fallback);
  const historyFrom = Number(meta(db, FEED_META.historyFrom) ?? NaN);
  return Number.isFinite(historyFrom) ? Math.max(start, historyFrom) : start;
}

/** Resolves `at` to a feed position (see the file comment); `now` is the caller's clock, for an empty feed. */
export function resolveInstant(db: DB, path: string, at: number, now: number): HistoryInstant {
  const head = requireFeed(db, path);
  const earliest = earliestInstant(db, now);
  // The first change stamped after the instant, by the index on `at`: a scan of the changes after it, what rolling back costs anyway.
  const firstAfter = db.prepare('SELECT min(seq) FROM mnemo_feed WHERE at > ?').pluck().get(at) as number | null;
  const seq = firstAfter === null ? head.seq : firstAfter - 1;
  if (at < earliest) throw beforeHistory(path, at, earliest);
  const rolledBack = db.prepare('SELECT count(*) FROM mnemo_feed WHERE seq > ?').pluck().get(seq) as number;
  // Retention keeps accesses for less time than other changes: before that horizon the access fields show a later state.
  const accessesFrom = Number(meta(db, FEED_META.accessesFrom) ?? NaN);
  const accessFieldsExact = !(Number.isFinite(accessesFrom) && at < accessesFrom);
  return { at, position: { epoch: head.epoch, seq }, earliest, live: rolledBack === 0, rolled_back: rolledBack, access_fields_exact: accessFieldsExact };
}
