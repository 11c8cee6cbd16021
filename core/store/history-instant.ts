/**
 * What an instant means to the change feed: the feed position the store stood at then, and how far
 * back its history reaches. History starts when the feed was installed (migration 007) and reaches
 * back to what retention kept; an instant before that is refused with a typed error that names the
 * earliest instant that can be shown.
 *
 * An instant resolves to the position just after the latest change stamped at or before it (ties:
 * the later change). Each row carries its writer's clock (Mnemo's injected clock, a foreign
 * writer's wall clock); when clocks agree that is exactly "every change up to T", and when they do
 * not, the state shown is still one the store really passed through (a prefix of the feed), never
 * a mix of changes from either side of T.
 */
import { badInput } from '../errors.js';
import type { DB } from './sqlite.js';
import { hasMigration } from './migrations.js';
import type { StoreAsOf } from '../model/history.js';

/** What an instant resolves to (the API's StoreAsOf). */
export type HistoryInstant = StoreAsOf;

function meta(db: DB, key: string): string | undefined {
  return db.prepare('SELECT value FROM mnemo_meta WHERE key = ?').pluck().get(key) as string | undefined;
}

/** Throws unless the file has a change feed: without one there is no history to travel. */
export function requireFeed(db: DB, path: string): { epoch: string; seq: number } {
  const epoch = hasMigration(db, '007-change-feed') ? meta(db, 'feed_epoch') : undefined;
  if (!epoch) {
    throw badInput(
      `${path} has no change history yet: Mnemo starts recording it the first time it opens the store writable, and can show it as it was at any instant from then on`,
      { reason: 'no_history' },
    );
  }
  const seq = (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'mnemo_feed'").pluck().get() as number | undefined) ?? 0;
  return { epoch, seq };
}

/** The earliest instant the history reaches: the feed's installation, or the oldest change retention kept. */
export function earliestInstant(db: DB, fallback: number): number {
  const installed = Number(meta(db, 'feed_installed_at') ?? NaN);
  const first = db.prepare('SELECT at FROM mnemo_feed ORDER BY seq LIMIT 1').pluck().get() as number | undefined;
  const prunedThrough = Number(meta(db, 'feed_pruned_through') ?? 0);
  if (prunedThrough > 0) {
    // The state after the last pruned change is reachable from its instant on; without that instant, from the oldest kept change's.
    const prunedAt = Number(meta(db, 'feed_pruned_at') ?? NaN);
    const from = Number.isFinite(prunedAt) ? prunedAt : (first ?? fallback);
    return Number.isFinite(installed) ? Math.max(installed, from) : from;
  }
  if (Number.isFinite(installed)) return installed;
  // A feed installed before its installation time was recorded: its first change is the earliest instant known.
  return first ?? fallback;
}

/** Resolves `at` to a feed position (see the file comment); `now` is the caller's clock, for an empty feed. */
export function resolveInstant(db: DB, path: string, at: number, now: number): HistoryInstant {
  const head = requireFeed(db, path);
  const earliest = earliestInstant(db, now);
  const prunedThrough = Number(meta(db, 'feed_pruned_through') ?? 0);
  const seq = (db.prepare('SELECT seq FROM mnemo_feed WHERE at <= ? ORDER BY at DESC, seq DESC LIMIT 1').pluck().get(at) as number | undefined) ?? prunedThrough;
  if (at < earliest || seq < prunedThrough) {
    throw badInput(
      `${path} has history from ${new Date(earliest * 1000).toISOString()} (epoch ${earliest}) on; ${at} is earlier. Ask for an instant at or after ${earliest}`,
      { field: 'at', reason: 'before_history', at, earliest },
    );
  }
  const rolledBack = db.prepare('SELECT count(*) FROM mnemo_feed WHERE seq > ?').pluck().get(seq) as number;
  return { at, position: { epoch: head.epoch, seq }, earliest, live: rolledBack === 0, rolled_back: rolledBack };
}
