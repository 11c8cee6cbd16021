/**
 * Retention of a PostgreSQL store's change feed (pg-feed-ddl.ts): the policy, the pruning and the
 * status report of SQLite's feed-retention.ts, over `mnemo_pg_feed`. The policy is the same
 * `mnemo_meta` keys (it means the same on either backend, and travels with a copy); what pruning
 * removed is kept in the store's own facts (pg-feed.ts), since it is counted in this feed's numbers.
 *
 * A step walks the feed in sequence order, a bounded batch per transaction, and stops at the first
 * row younger than the horizon, as on SQLite. Every removed row's transaction id raises
 * `feed_pruned_xid`: a reader whose position is at or below it resets instead of missing a change.
 */
import { PRUNE_STEP_ROWS } from '../sqlite/feed-retention.js';
import { feedRetention } from '../queries/feed-retention.js';
import type { JournalledStore } from '../shared/journal.js';
import { PG_FEED_FACTS, type PgFeed } from './pg-feed.js';
import type { FeedStatus, PruneReport } from '../port/store-rows.js';

const DAY = 86_400;

type FeedRow = { seq: string; at: number; op: string; xid: string };

const MARKS = ['prunedXid', 'prunedThrough', 'historyFrom', 'accessesFrom', 'accessCursor'] as const;
type Mark = (typeof MARKS)[number];

/** The pruning bookkeeping, read from and written back to the store's facts. */
class Marks {
  private readonly start = {} as Record<Mark, number>;
  readonly now = {} as Record<Mark, number>;

  constructor(private readonly feed: PgFeed) {
    for (const key of MARKS) this.start[key] = this.now[key] = Number(feed.fact(PG_FEED_FACTS[key]) ?? 0);
  }

  removed(row: FeedRow): void {
    this.now.prunedThrough = Math.max(this.now.prunedThrough, Number(row.seq));
    this.now.prunedXid = Math.max(this.now.prunedXid, Number(row.xid));
  }

  /** Each mark that moved forward is written (a mark never moves back). */
  save(): void {
    for (const key of MARKS) if (this.now[key] > this.start[key]) this.feed.setFact(PG_FEED_FACTS[key], String(this.now[key]));
  }
}

/** One bounded step, in its own transaction. */
export function pgPruneFeedStep(store: JournalledStore, feed: PgFeed, now: number, maxRows = PRUNE_STEP_ROWS): PruneReport {
  if (!feed.installed()) return { removed: 0, access_removed: 0, done: true };
  return store.transaction(() => {
    const policy = feedRetention(store);
    const cutoff = now - policy.days * DAY;
    const accessCutoff = now - policy.access_days * DAY;
    const rowsAfter = (seq: number, limit: number) =>
      feed.rows<FeedRow>(`SELECT seq::text AS seq, at, op, xid::text AS xid FROM ${feed.table} WHERE seq > $1 ORDER BY seq LIMIT $2`, [seq, limit]);
    const marks = new Marks(feed);
    const doomed: string[] = [];
    let access_removed = 0;

    // Every op: the oldest rows, while they are older than the horizon.
    const oldest = rowsAfter(0, maxRows);
    let historyDone = oldest.length < maxRows;
    for (const row of oldest) {
      if (row.at >= cutoff) {
        historyDone = true;
        break;
      }
      doomed.push(row.seq);
      if (row.op === 'access') access_removed++;
      marks.removed(row);
      marks.now.historyFrom = Math.max(marks.now.historyFrom, row.at);
    }

    // Access rows: from where the last step stopped, while older than their shorter horizon.
    let accessDone = true;
    const budget = maxRows - doomed.length;
    if (budget > 0 && policy.access_days < policy.days) {
      const cursor = Math.max(marks.now.accessCursor, marks.now.prunedThrough);
      const rows = rowsAfter(cursor, budget);
      accessDone = rows.length < budget;
      for (const row of rows) {
        if (row.at >= accessCutoff) {
          accessDone = true;
          break;
        }
        marks.now.accessCursor = Number(row.seq);
        if (row.op !== 'access') continue;
        doomed.push(row.seq);
        access_removed++;
        marks.removed(row);
        marks.now.accessesFrom = Math.max(marks.now.accessesFrom, row.at);
      }
    } else if (budget <= 0) {
      accessDone = false;
    }
    if (doomed.length) feed.conn.db().query(`DELETE FROM ${feed.table} WHERE seq = ANY($1::bigint[])`, [doomed]);
    marks.save();
    return { removed: doomed.length, access_removed, done: historyDone && accessDone };
  });
}

/** Where the feed stands and what it holds (reads every row's op once: for a status, not a hot path). */
export function pgFeedStatus(store: { getMeta(key: string): string | null }, feed: PgFeed): FeedStatus {
  const retention = feedRetention(store);
  if (!feed.installed()) {
    return { installed: false, epoch: null, seq: 0, rows: 0, rows_by_op: {}, bytes: 0, oldest_at: null, pruned_through: 0, history_from: null, accesses_from: null, retention };
  }
  const byOp = feed.rows<{ op: string; n: string }>(`SELECT op, count(*)::text AS n FROM ${feed.table} GROUP BY op`);
  const rows_by_op = Object.fromEntries(byOp.map((r) => [r.op, Number(r.n)]));
  const [facts] = feed.rows<{ bytes: string; last: string | null; oldest_at: number | null }>(
    `SELECT pg_total_relation_size($1::text::regclass)::text AS bytes,
            pg_sequence_last_value(pg_get_serial_sequence($1::text, 'seq')::regclass)::text AS last,
            (SELECT at FROM ${feed.table} ORDER BY seq LIMIT 1) AS oldest_at`,
    [feed.table],
  );
  const optional = (key: string) => (feed.fact(key) === null ? null : Number(feed.fact(key)));
  return {
    installed: true,
    epoch: feed.epoch(),
    seq: Number(facts!.last ?? 0),
    rows: Object.values(rows_by_op).reduce((n, v) => n + v, 0),
    rows_by_op,
    bytes: Number(facts!.bytes),
    oldest_at: facts!.oldest_at,
    pruned_through: Number(feed.fact(PG_FEED_FACTS.prunedThrough) ?? 0),
    history_from: optional(PG_FEED_FACTS.historyFrom),
    accesses_from: optional(PG_FEED_FACTS.accessesFrom),
    retention,
  };
}
