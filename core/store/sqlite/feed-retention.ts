/**
 * How long the change feed keeps its rows. The feed grows with every change, by every writer, and
 * accesses are most of it (every recall logs up to k of them), so the policy has two horizons:
 *
 * - `feed_retention_days` (default 90): every row older than this goes, from the oldest on. A store
 *   can be seen as it was at any instant after `feed_history_from`.
 * - `feed_access_retention_days` (default 14): `access` rows older than this go. Before
 *   `feed_accesses_from`, a past state has its content, edges and archive state exactly, but its
 *   access fields (ring, counters, strength, last access) as they were at that horizon or later.
 *
 * Pruning walks the feed in sequence order from where it last stopped, a bounded batch per
 * transaction, and stops at the first row younger than the horizon: one step never holds the write
 * lock for long, and a paced run pauses between steps (change-run.ts's Pacer) so agents keep
 * writing. `at` is the writer's clock, so rows are kept from the first young one on even if a later
 * row carries an older time. Every removed row moves `feed_pruned_through` (feed-reads.ts): a reader
 * whose position is older resets instead of missing a change.
 */
import { statementOf } from './connection.js';
import { pacingOf, type RunPacing } from '../../model/run-pacing.js';
import { Pacer } from '../shared/change-run.js';
import { hasFeed } from './feed-reads.js';
import type { JournalledStore } from '../shared/journal.js';
import type { FeedStatus, PruneReport } from '../port/store-rows.js';
import { FEED_META, feedRetention } from '../queries/feed-retention.js';

const DAY = 86_400;

/** Rows one prune step looks at: a few milliseconds of deletes under the write lock. */
export const PRUNE_STEP_ROWS = 2_000;

/** What a status read needs of a store (a read-only one will do). */
type MetaSource = { getMeta(key: string): string | null };

const metaNumber = (store: MetaSource, key: string): number => Number(store.getMeta(key) ?? 0);

/** One bounded step, in its own transaction. */
export function pruneFeedStep(store: JournalledStore, now: number, maxRows = PRUNE_STEP_ROWS): PruneReport {
  if (!hasFeed(store)) return { removed: 0, access_removed: 0, done: true };
  return store.transaction(() => {
    const policy = feedRetention(store);
    const cutoff = now - policy.days * DAY;
    const accessCutoff = now - policy.access_days * DAY;
    const del = statementOf(store, 'DELETE FROM mnemo_feed WHERE seq = ?');
    let prunedThrough = metaNumber(store, FEED_META.prunedThrough);
    let removed = 0;
    let access_removed = 0;
    // The newest `at` removed: every row after that instant is still in the feed.
    let historyFrom = 0;
    let accessesFrom = 0;

    // Every op: the oldest rows, while they are older than the horizon.
    const oldest = statementOf(store, 'SELECT seq, at, op FROM mnemo_feed WHERE seq > ? ORDER BY seq LIMIT ?').raw().all(0, maxRows) as [number, number, string][];
    let historyDone = oldest.length < maxRows;
    for (const [seq, at, op] of oldest) {
      if (at >= cutoff) {
        historyDone = true;
        break;
      }
      del.run(seq);
      removed++;
      if (op === 'access') access_removed++;
      prunedThrough = Math.max(prunedThrough, seq);
      historyFrom = Math.max(historyFrom, at);
    }
    if (historyFrom > metaNumber(store, FEED_META.historyFrom)) store.setMeta(FEED_META.historyFrom, String(historyFrom));

    // Access rows: from where the last step stopped, while older than their shorter horizon.
    let accessDone = true;
    const budget = maxRows - removed;
    if (budget > 0 && policy.access_days < policy.days) {
      const cursor = Math.max(metaNumber(store, FEED_META.accessCursor), prunedThrough);
      const rows = statementOf(store, 'SELECT seq, at, op FROM mnemo_feed WHERE seq > ? ORDER BY seq LIMIT ?').raw().all(cursor, budget) as [number, number, string][];
      accessDone = rows.length < budget;
      let reached = cursor;
      for (const [seq, at, op] of rows) {
        if (at >= accessCutoff) {
          accessDone = true;
          break;
        }
        reached = seq;
        if (op !== 'access') continue;
        del.run(seq);
        removed++;
        access_removed++;
        prunedThrough = Math.max(prunedThrough, seq);
        accessesFrom = Math.max(accessesFrom, at);
      }
      if (reached > cursor) store.setMeta(FEED_META.accessCursor, String(reached));
      if (accessesFrom > metaNumber(store, FEED_META.accessesFrom)) store.setMeta(FEED_META.accessesFrom, String(accessesFrom));
    } else if (budget <= 0) {
      accessDone = false;
    }
    if (prunedThrough > metaNumber(store, FEED_META.prunedThrough)) store.setMeta(FEED_META.prunedThrough, String(prunedThrough));
    return { removed, access_removed, done: historyDone && accessDone };
  });
}

/**
 * Prunes the whole backlog in paced steps (a pause between them, so other writers get the lock).
 * `step` is one bounded step of the store's own feed (PostgreSQL's is pg/pg-feed-retention.ts).
 */
export async function pruneFeed(
  store: JournalledStore,
  now: number,
  pacing?: RunPacing,
  step: (store: JournalledStore, now: number) => PruneReport = pruneFeedStep,
): Promise<PruneReport> {
  const pacer = new Pacer(store, pacingOf(pacing));
  const total: PruneReport = { removed: 0, access_removed: 0, done: false };
  try {
    for (;;) {
      const done = step(store, now);
      total.removed += done.removed;
      total.access_removed += done.access_removed;
      if (done.done) break;
      await pacer.between();
    }
  } finally {
    pacer.end();
  }
  total.done = true;
  return total;
}

/** Where the feed stands and what it holds (reads every row's op once: for a status, not a hot path). */
export function feedStatus(store: MetaSource): FeedStatus {
  const retention = feedRetention(store);
  if (!hasFeed(store)) {
    return { installed: false, epoch: null, seq: 0, rows: 0, rows_by_op: {}, bytes: 0, oldest_at: null, pruned_through: 0, history_from: null, accesses_from: null, retention };
  }
  const byOp = statementOf(store, 'SELECT op, count(*) AS n FROM mnemo_feed GROUP BY op').all() as { op: string; n: number }[];
  const rows_by_op = Object.fromEntries(byOp.map((r) => [r.op, r.n]));
  const bytes = statementOf(store, "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name IN ('mnemo_feed', 'idx_mnemo_feed_memory', 'idx_mnemo_feed_at') AND aggregate = TRUE").pluck().get() as number;
  const oldest = statementOf(store, 'SELECT at FROM mnemo_feed ORDER BY seq LIMIT 1').pluck().get() as number | undefined;
  const seq = (statementOf(store, "SELECT seq FROM sqlite_sequence WHERE name = 'mnemo_feed'").pluck().get() as number | undefined) ?? 0;
  const optional = (key: string) => (store.getMeta(key) === null ? null : Number(store.getMeta(key)));
  return {
    installed: true,
    epoch: store.getMeta('feed_epoch'),
    seq,
    rows: byOp.reduce((n, r) => n + r.n, 0),
    rows_by_op,
    bytes,
    oldest_at: oldest ?? null,
    pruned_through: metaNumber(store, FEED_META.prunedThrough),
    history_from: optional(FEED_META.historyFrom),
    accesses_from: optional(FEED_META.accessesFrom),
    retention,
  };
}

/**
 * Starts the feed's history now: what a bulk load wrote into a new store (`mnemo demo`) is dropped,
 * and readers and time travel see the history begin at `at`. Those rows would all carry the load's
 * one instant while the memories claim months of past (their `created_at`), and an insert keeps no
 * image, so they would only say "everything appeared at once", at about 220 bytes a memory.
 */
export function startFeedHistory(store: JournalledStore, at: number): void {
  if (!hasFeed(store)) return;
  store.transaction(() => {
    const last = (statementOf(store, 'SELECT max(seq) FROM mnemo_feed').pluck().get() as number | null) ?? 0;
    if (last === 0) return;
    statementOf(store, 'DELETE FROM mnemo_feed').run();
    store.setMeta(FEED_META.prunedThrough, String(Math.max(last, metaNumber(store, FEED_META.prunedThrough))));
    store.setMeta(FEED_META.historyFrom, String(at));
    store.setMeta(FEED_META.accessesFrom, String(at));
  });
}
