/**
 * How long the change feed keeps its rows: the policy, kept in `mnemo_meta`, read and recorded
 * once above the port for both backends (sqlite/feed-retention.ts says what the two horizons mean;
 * each adapter prunes by them). The keys of what pruning has removed live here too, beside the
 * policy's, so that every reader names them alike.
 */
import type { StoreReader, StoreWriter } from '../port/port.js';
import type { FeedRetention } from '../port/store-rows.js';

export const FEED_RETENTION_DEFAULTS = { days: 90, access_days: 14 } as const;

/** The `mnemo_meta` keys of the policy and of what pruning has removed. */
export const FEED_META = {
  days: 'feed_retention_days',
  access_days: 'feed_access_retention_days',
  prunedThrough: 'feed_pruned_through',
  historyFrom: 'feed_history_from',
  accessesFrom: 'feed_accesses_from',
  accessCursor: 'feed_access_pruned_seq',
} as const;

/** A day count from mnemo_meta; a value another program garbled falls back to the default (never to "keep nothing"). */
function daysOf(raw: string | null, fallback: number): number {
  const n = Number(raw);
  return raw !== null && Number.isInteger(n) && n >= 1 ? n : fallback;
}

/** The policy (a read-only store will do). */
export function feedRetention(store: Pick<StoreReader, 'getMeta'>): FeedRetention {
  const days = daysOf(store.getMeta(FEED_META.days), FEED_RETENTION_DEFAULTS.days);
  const accessDays = daysOf(store.getMeta(FEED_META.access_days), FEED_RETENTION_DEFAULTS.access_days);
  return { days, access_days: Math.min(accessDays, days) };
}

/** Records the policy (whole days, checked at the doors that take them), and gives it back as it now reads. */
export function setFeedRetention(store: Pick<StoreWriter, 'transaction' | 'setMeta' | 'getMeta'>, policy: Partial<FeedRetention>): FeedRetention {
  store.transaction(() => {
    if (policy.days !== undefined) store.setMeta(FEED_META.days, String(policy.days));
    if (policy.access_days !== undefined) store.setMeta(FEED_META.access_days, String(policy.access_days));
  });
  return feedRetention(store);
}
