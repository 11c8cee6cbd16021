/**
 * Reading the change feed (feed-ddl.ts): where it stands, and which memories changed after a
 * position. A reader that keeps an index in step asks for the changes since the position its index
 * reflects, so catching up costs what changed, never the store's size.
 */
import { connectionOf, statementOf } from './connection.js';
import { ACCESS_PATHS } from './feed-ddl.js';
import { hasMigration } from './migrations.js';
import { touchedByFeedRows, type FeedChanges, type FeedPosition, type FeedRowSummary } from '../port/feed-position.js';

/** What nooa's `data` JSON repeats of the scoring and usage columns: a rescore rewrites them there too. */
const SCORE_PATHS = ['$.importance', '$.salience', ...ACCESS_PATHS].map((p) => `'${p}'`).join(', ');

/**
 * For an `update` row: 1 when it kept the embedding and its before-image matches the memory's
 * current row in every column but the scoring and usage ones (importance, salience, strength,
 * last_accessed, access_count, and their copies in `data`), else 0 (also when the memory is gone
 * or a `data` is not JSON); NULL for other rows. Read by primary key, and only for updates, so a
 * catch-up of accesses pays nothing for it; `data` is parsed only when its text differs.
 */
const KEEPS_ALL_BUT_SCORES = `CASE WHEN f.op = 'update' AND f.dst IS NULL THEN coalesce((SELECT CASE
    WHEN NOT (f.embedding_kept = 0 AND f.type IS m.type AND f.content IS m.content AND f.created_at IS m.created_at
      AND f.archived IS m.archived AND f.owner IS m.owner AND f.status IS m.status) THEN 0
    WHEN f.data IS m.data THEN 1
    WHEN NOT (json_valid(f.data) AND json_valid(m.data)) THEN 0
    ELSE json_remove(f.data, ${SCORE_PATHS}) IS json_remove(m.data, ${SCORE_PATHS}) END
  FROM memories m WHERE m.id = f.memory_id), 0) END`;

/**
 * The statements a catch-up runs, each a search by key (the feed's sequence number, a memory's id),
 * never a scan: named so a test can hold their query plans to that.
 */
export const CATCH_UP_SQL = {
  /**
   * The rows and, of them, the ones that are not accesses, reading no further than its last
   * parameter: after a long change the range holds millions of fat rows, and counting them all
   * took seconds.
   */
  count: "SELECT count(*), coalesce(sum(op IS NOT 'access'), 0) FROM (SELECT op FROM mnemo_feed WHERE seq > ? AND seq <= ? LIMIT ?)",
  rows: `SELECT memory_id, dst, op, ${KEEPS_ALL_BUT_SCORES} FROM mnemo_feed f WHERE seq > ? AND seq <= ? ORDER BY seq`,
  exists: 'SELECT 1 FROM memories WHERE id = ?',
  /** The same, leaving out the rows of changes the reader wrote itself (a run it is writing: json array of change ids). */
  countOthers: "SELECT count(*), coalesce(sum(op IS NOT 'access'), 0) FROM (SELECT op FROM mnemo_feed WHERE seq > ? AND seq <= ? AND (change_id IS NULL OR change_id NOT IN (SELECT value FROM json_each(?))) LIMIT ?)",
  rowsOthers: `SELECT memory_id, dst, op, ${KEEPS_ALL_BUT_SCORES} FROM mnemo_feed f WHERE seq > ? AND seq <= ? AND (change_id IS NULL OR change_id NOT IN (SELECT value FROM json_each(?))) ORDER BY seq`,
} as const;

/** Whether this file has the feed (migration 007; a nooa-only file or an old read-only store does not). */
export function hasFeed(store: object): boolean {
  const db = connectionOf(store);
  return hasMigration(db, '007-change-feed');
}

/** The feed's epoch and last sequence number; null without a feed. */
export function feedPosition(store: object): FeedPosition | null {
  if (!hasFeed(store)) return null;
  const epoch = statementOf(store, "SELECT value FROM mnemo_meta WHERE key = 'feed_epoch'").pluck().get() as string | undefined;
  if (!epoch) return null;
  const seq = statementOf(store, "SELECT seq FROM sqlite_sequence WHERE name = 'mnemo_feed'").pluck().get() as number | undefined;
  return { epoch, seq: seq ?? 0 };
}

/** The highest sequence number retention has removed (0 when nothing was pruned). */
export function feedPrunedThrough(store: object): number {
  const v = statementOf(store, "SELECT value FROM mnemo_meta WHERE key = 'feed_pruned_through'").pluck().get() as string | undefined;
  return v ? Number(v) : 0;
}

/**
 * How many access rows a catch-up takes per row of its limit. An access is told as `usage`, which
 * only the corpus reads, and agents recall the same memories over and over: while a long change
 * hands its indexes over (a minute at 100k on a busy machine), eight agents' accesses came to more
 * than 20,000 rows past the writer's snapshots, and every agent refused them and rebuilt (6 s).
 */
export const ACCESS_ROWS_PER_LIMIT = 10;

/**
 * The memories changed after `pos`: an edge change names both of its ends. Null when `pos` is not
 * from this feed, reaches back past what retention kept, or more than `limit` rows other than
 * accesses changed, or more than ACCESS_ROWS_PER_LIMIT × `limit` rows in all (a rebuild is cheaper
 * then). A memory that no longer exists is a delete; every other one an upsert
 * (it may now be archived: the index re-reads it). `ownChanges`: change ids whose rows the reader
 * wrote itself and has told already, left out.
 */
export function changedSince(store: object, pos: FeedPosition, limit: number, ownChanges: readonly number[] = []): FeedChanges | null {
  const now = feedPosition(store);
  if (!now || now.epoch !== pos.epoch || pos.seq > now.seq) return null;
  if (pos.seq < feedPrunedThrough(store)) return null;
  const range = ownChanges.length ? [pos.seq, now.seq, JSON.stringify(ownChanges)] : [pos.seq, now.seq];
  const accessesAllowed = ACCESS_ROWS_PER_LIMIT * limit;
  const [count, notAccesses] = statementOf(store, ownChanges.length ? CATCH_UP_SQL.countOthers : CATCH_UP_SQL.count)
    .raw()
    .get(...range, accessesAllowed + 1) as [number, number];
  if (notAccesses > limit || count > accessesAllowed) return null;
  const rows = statementOf(store, ownChanges.length ? CATCH_UP_SQL.rowsOthers : CATCH_UP_SQL.rows).raw().all(...range) as FeedRowSummary[];
  const { touched, edgeOnly, usageOnly, scoresOnly } = touchedByFeedRows(rows);
  const upserts: string[] = [];
  const deletes: string[] = [];
  const exists = statementOf(store, CATCH_UP_SQL.exists).pluck();
  for (const id of touched) (exists.get(id) === undefined ? deletes : upserts).push(id);
  return { upserts, deletes, edgeOnly, usageOnly, scoresOnly, position: now };
}
