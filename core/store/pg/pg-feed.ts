/**
 * Reading a PostgreSQL store's change feed (pg-feed-ddl.ts). A position is a transaction-id
 * watermark: `seq` is the xmin of a snapshot, below which every transaction has ended (committed
 * or rolled back). The changes after a position are the rows of transactions with
 * `pos.seq <= xid < xmin now`, read in the same statement as that xmin (so from one snapshot); the
 * next position is that xmin. Each committed transaction's rows are read exactly once, whatever
 * order the transactions committed in, where "rows numbered after the last one seen" would miss a
 * transaction that began before a later-numbered one and committed after it was read. A
 * transaction still running holds the watermark back until it ends: its rows, and those of
 * transactions that began after it, are heard then.
 */
import { touchedByFeedRows, type FeedChanges, type FeedPosition } from '../port/feed-position.js';
import { PG_STORE_TABLE } from './pg-schema.js';
import { PG_FEED_DDL_LEVEL, PG_FEED_DDL_LEVEL_FACT, PG_FEED_EPOCH_FACT, PG_FEED_IMAGES_FACT, PG_FEED_TABLE, pgFeedDdl } from './pg-feed-ddl.js';
import { runMarkerSubquery } from './pg-run-markers.js';
import type { PgStoreConnection } from './pg-store-connection.js';

/** The store's facts (mnemo_pg_store) that the feed keeps: PostgreSQL's own, so `mnemo copy` to SQLite does not carry them. */
export const PG_FEED_FACTS = {
  epoch: PG_FEED_EPOCH_FACT,
  /** The highest transaction id retention removed a row of: a position at or below it may have missed rows. */
  prunedXid: 'feed_pruned_xid',
  prunedThrough: 'feed_pruned_through',
  historyFrom: 'feed_history_from',
  accessesFrom: 'feed_accesses_from',
  accessCursor: 'feed_access_pruned_seq',
  /** The level of the feed's triggers and functions (PG_FEED_DDL_LEVEL) the schema holds. */
  ddlLevel: PG_FEED_DDL_LEVEL_FACT,
  /** From which instant the rows keep before-images: where time travel starts (pg-history-instant.ts). */
  imagesFrom: PG_FEED_IMAGES_FACT,
} as const;

/** SQLSTATE insufficient_privilege: an agent's role may not replace the feed's functions. */
const NOT_ALLOWED = '42501';

/** The snapshot's xmin as text (xid8 is 64-bit; a number holds it exactly below 2^53). */
const XMIN = 'pg_snapshot_xmin(pg_current_snapshot())::text';

export class PgFeed {
  private present: boolean | null = null;
  private epochValue: string | null = null;

  constructor(readonly conn: PgStoreConnection) {}

  /**
   * Runs one read on the store's connection (the feed's SQL stays in this folder): on a replica
   * when the store has one ready and no transaction is open (PgStoreConnection.read), so a
   * replica-reading process catches up from the replica's copy of the feed.
   */
  rows<T extends Record<string, unknown>>(sql: string, params: readonly unknown[] = []): T[] {
    return this.conn.read().query<T>(sql, params);
  }

  get table(): string {
    return this.conn.table(PG_FEED_TABLE);
  }

  /** Whether the schema has the feed (a store from before it, opened read-only, does not). */
  installed(): boolean {
    // By name, not through information_schema, which hides a table from a role with no privilege on it.
    if (this.present === null) this.present = this.rows<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [this.table])[0]!.ok;
    return this.present;
  }

  /**
   * Adds the feed (table, triggers and epoch), or brings its functions up to date; one transaction.
   * `now` (the store's clock) is recorded as the instant from which rows keep before-images, unless
   * an earlier install did.
   */
  install(now: number): void {
    this.conn.db().transaction(() => {
      // Two processes opening an old store at once would otherwise replace the same functions together ("tuple concurrently updated").
      this.conn.db().query('SELECT pg_advisory_xact_lock(hashtext($1))', [`mnemo_pg_feed_ddl:${this.conn.url.schema}`]);
      if (this.installedLevel() >= PG_FEED_DDL_LEVEL) return;
      for (const sql of pgFeedDdl(this.conn.url.schema, now)) this.conn.db().query(sql);
    });
    this.present = true;
  }

  /**
   * At a writable open: adds the feed to a store made before it, or brings an older feed's
   * triggers up to this build's level. A role that may not (an agent's) leaves an older feed as it
   * is: it still records every change, only without what came later (live views then poll).
   */
  installOrUpgrade(now: number): void {
    try {
      if (this.installed() && this.installedLevel() >= PG_FEED_DDL_LEVEL) return;
      this.install(now);
    } catch (err) {
      const sqlstate = (err as { details?: { sqlstate?: string } }).details?.sqlstate;
      if (!(sqlstate === NOT_ALLOWED && this.installed())) throw err;
    }
  }

  /** The level the schema's feed was installed at: 1 for a feed from before the levels were recorded. */
  private installedLevel(): number {
    if (!this.installed()) return 0;
    return Number(this.fact(PG_FEED_FACTS.ddlLevel) ?? 1);
  }

  fact(key: string): string | null {
    const [r] = this.rows<{ value: string }>(`SELECT value FROM ${this.conn.table(PG_STORE_TABLE)} WHERE key = $1`, [key]);
    return r ? r.value : null;
  }

  setFact(key: string, value: string): void {
    this.conn.db().query(`INSERT INTO ${this.conn.table(PG_STORE_TABLE)}(key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [key, value]);
  }

  epoch(): string | null {
    if (!this.installed()) return null;
    this.epochValue ??= this.fact(PG_FEED_FACTS.epoch);
    return this.epochValue;
  }

  /** Where the feed stands: every transaction below `seq` has ended. Null without a feed. */
  position(): FeedPosition | null {
    const epoch = this.epoch();
    if (!epoch) return null;
    const [r] = this.rows<{ xmin: string }>(`SELECT ${XMIN} AS xmin`);
    return { epoch, seq: Number(r!.xmin) };
  }

  /**
   * The memories changed by transactions that ended after `pos` (an edge change names both ends),
   * leaving out the rows `ownToken`'s connection wrote (with no token, every row: a writer that set
   * none, raw SQL or nooa, counts too). Null when `pos` is from another feed or
   * reaches back past what retention kept, or more than `limit` rows changed (rebuild instead).
   */
  changedSince(pos: FeedPosition, limit: number, ownToken: string | null = null): FeedChanges | null {
    const epoch = this.epoch();
    if (!epoch || pos.epoch !== epoch) return null;
    // One statement, so one snapshot and one round trip: the pruning mark, the watermark, the rows
    // after `pos`, and whether each row's memories exist now. A catch-up on a network store made
    // five round trips of this (BEGIN, the mark, the rows, the ids, COMMIT), and an agent's write
    // beside seven others waited on each of them.
    const memories = this.conn.table('memories');
    const rows = this.rows<{ xmin: string; pruned: string | null; memory_id: string | null; dst: string | null; op: string | null; id_present: boolean | null; dst_present: boolean | null }>(
      `WITH w AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
       SELECT w.xmin::text AS xmin, (SELECT value FROM ${this.conn.table(PG_STORE_TABLE)} WHERE key = $4) AS pruned,
         f.memory_id, f.dst, f.op,
         EXISTS (SELECT 1 FROM ${memories} m WHERE m.id = f.memory_id) AS id_present,
         EXISTS (SELECT 1 FROM ${memories} m WHERE m.id = f.dst) AS dst_present
       FROM w LEFT JOIN LATERAL (
         SELECT memory_id, dst, op FROM ${this.table}
         WHERE xid >= $1::text::xid8 AND xid < w.xmin AND ($2::text IS NULL OR writer_token IS DISTINCT FROM $2)
         ORDER BY seq LIMIT $3
       ) f ON TRUE`,
      [String(pos.seq), ownToken, limit + 1, PG_FEED_FACTS.prunedXid],
    );
    const first = rows[0]!;
    // Retention removed rows a reader at `pos` has not read: it must rebuild.
    if (first.pruned !== null && pos.seq <= Number(first.pruned)) return null;
    const xmin = Number(first.xmin);
    if (pos.seq > xmin) return null;
    const found = rows.filter((r) => r.memory_id !== null);
    if (found.length > limit) return null;
    const { touched, edgeOnly, usageOnly } = touchedByFeedRows(found.map((r) => [r.memory_id!, r.dst, r.op ?? '']));
    const present = new Set<string>();
    for (const r of found) {
      if (r.id_present) present.add(r.memory_id!);
      if (r.dst !== null && r.dst_present) present.add(r.dst);
    }
    const upserts: string[] = [];
    const deletes: string[] = [];
    for (const id of touched) (present.has(id) ? upserts : deletes).push(id);
    return { upserts, deletes, edgeOnly, usageOnly, position: { epoch, seq: xmin } };
  }

  /**
   * The watermark now; whether a connection other than `ownToken`'s wrote rows in transactions
   * that ended between `from` and it; and the highest transaction id retention removed rows of
   * (null: none), since a reader whose unread rows were pruned must hear of it too. One statement:
   * an index range over the transactions since, and one fact. With `runKey`, it also reads the
   * marker of the long change being written (run-marker.ts), which a catch-up asks for right after
   * finding another connection's rows: one round trip instead of two.
   */
  othersSince(from: number, ownToken: string, runKey: string | null = null): { xmin: number; others: boolean; prunedXid: number | null; run?: string | null } {
    // Without the marker (run absent) when it cannot be read here yet: the caller reads it itself.
    const marker = runKey === null ? null : runMarkerSubquery(this.conn, '$4');
    const [r] = this.rows<{ xmin: string; others: boolean; pruned: string | null; run?: string | null }>(
      `WITH w AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
       SELECT w.xmin::text AS xmin, EXISTS (
         SELECT 1 FROM ${this.table} WHERE xid >= $1::text::xid8 AND xid < w.xmin AND writer_token IS DISTINCT FROM $2
       ) AS others, (SELECT value FROM ${this.conn.table(PG_STORE_TABLE)} WHERE key = $3) AS pruned${marker === null ? '' : `, ${marker} AS run`} FROM w`,
      marker === null ? [String(from), ownToken, PG_FEED_FACTS.prunedXid] : [String(from), ownToken, PG_FEED_FACTS.prunedXid, runKey],
    );
    const out = { xmin: Number(r!.xmin), others: r!.others, prunedXid: r!.pruned === null ? null : Number(r!.pruned) };
    return marker === null ? out : { ...out, run: r!.run ?? null };
  }
}
