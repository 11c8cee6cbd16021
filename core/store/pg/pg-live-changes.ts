/**
 * What a PgStore's listeners (the derived indexes) hear, and when: this connection's own writes as
 * they are made (the store tells them), other connections' commits at a catch-up
 * (pg-external-changes.ts), which a commit notice can prompt (pg-change-notices.ts), and where the
 * change feed (pg-feed.ts) stands. A store shown as of an instant hears nothing: its position is
 * its instant's, and the past does not move.
 */
import type { StoreAsOf } from '../../model/history.js';
import type { JournalledStore } from '../shared/journal.js';
import type { ChangeEvent, ChangeListener, FeedChanges, FeedPosition } from '../port/port.js';
import type { PgStoreConnection } from './pg-store-connection.js';
import { PgChangeNotices } from './pg-change-notices.js';
import { PgExternalChanges } from './pg-external-changes.js';
import type { PgFeed } from './pg-feed.js';

/** What the catch-up reads through: the store, in one snapshot, its rows read ahead. */
type ListenedStore = JournalledStore & {
  readConsistent<T>(fn: () => T): T;
  withRowsAhead<T>(ids: readonly string[], fn: () => T): T;
};

export class PgLiveChanges {
  private readonly listeners = new Set<ChangeListener>();
  /** The commit listeners watchCommits started, closed with the store. */
  private readonly notices = new Set<PgChangeNotices>();
  /** Hears other connections' commits; null without a feed (an older store opened read-only) and in the past. */
  private readonly external: PgExternalChanges | null;
  /** Inside readFresh: the store was caught up at its start, and the indexes read in it do not check again. */
  private freshScope = false;

  constructor(
    private readonly conn: PgStoreConnection,
    private readonly feed: PgFeed,
    private readonly history: StoreAsOf | null,
    private readonly store: ListenedStore,
    /** This connection's token in the feed's rows (`mnemo.writer`): how it leaves out its own. */
    writerToken: string,
  ) {
    // The past does not move: nothing to hear.
    const start = history ? null : feed.position();
    this.external = start ? new PgExternalChanges(store, feed, writerToken, start) : null;
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  tell(e: ChangeEvent): void {
    for (const l of this.listeners) l(e);
  }

  /** A transaction-id watermark (pg-feed.ts); null without a feed. */
  feedPosition(): FeedPosition | null {
    if (this.history) return this.history.position;
    return this.feed.position();
  }

  changedSince(pos: FeedPosition, limit: number): FeedChanges | null {
    if (this.history) return pos.epoch === this.history.position.epoch && pos.seq === this.history.position.seq ? { upserts: [], deletes: [], position: pos } : null;
    return this.feed.changedSince(pos, limit);
  }

  refreshIfChanged(): boolean {
    if (this.history) return false;
    return this.external?.refresh() ?? this.noFeed();
  }

  private noFeed(): false {
    this.store.warn('no-feed', `${this.conn.shown} has no change feed (a store made before it, opened read-only): changes other connections make are not heard; open it writable once to add the feed`);
    return false;
  }

  /**
   * Commit notices come on a connection of their own. `MNEMO_PG_LISTEN=off` turns them off (views
   * then poll): a pooler in transaction mode (PgBouncer's) cannot hold a LISTEN, and the benchmarks
   * compare with polling.
   */
  watchCommits(onCommit: () => void): (() => void) | null {
    if (process.env.MNEMO_PG_LISTEN === 'off') return null;
    const notices = PgChangeNotices.listen(this.conn.url, onCommit);
    this.notices.add(notices);
    return () => {
      this.notices.delete(notices);
      void notices.close();
    };
  }

  catchUp(): void {
    if (this.freshScope) return;
    this.external?.catchUp();
  }

  /** One feed check for everything fn reads (a recall's eight indexes made eight round trips). */
  readFresh<T>(fn: () => T): T {
    if (this.freshScope) return fn();
    this.external?.catchUp();
    this.freshScope = true;
    try {
      return fn();
    } finally {
      this.freshScope = false;
    }
  }

  heardPosition(): FeedPosition | null {
    if (this.history) return this.history.position;
    return this.external?.heardPosition() ?? null;
  }

  /** Moves whenever a check finds another connection's commit to memories or edges (never for ours). */
  dataVersion(): number {
    return this.external?.version() ?? 0;
  }

  close(): void {
    for (const n of this.notices) void n.close();
    this.notices.clear();
  }
}
