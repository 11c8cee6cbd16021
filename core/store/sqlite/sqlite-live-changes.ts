/**
 * What a MemoryStore's listeners (the derived indexes) hear, and when: this connection's own
 * writes as they are made (the store tells them), other processes' commits at a catch-up
 * (external-changes.ts), and where the change feed (feed-reads.ts) stands. A store shown as of an
 * instant hears nothing: its position is its instant's, and the past does not move. The SQLite
 * side of pg/pg-live-changes.ts; SQLite has no commit notification, so a live view polls.
 */
import { ExternalChanges } from './external-changes.js';
import { changedSince, feedPosition } from './feed-reads.js';
import type { HistoryInstant } from './history-instant.js';
import type { JournalledStore } from '../shared/journal.js';
import type { ChangeEvent, ChangeListener, FeedChanges, FeedPosition } from '../port/port.js';

/** What the catch-up reads through: the store, its data_version, in one snapshot. */
type ListenedStore = JournalledStore & {
  dataVersion(): number;
  readConsistent<T>(fn: () => T): T;
};

export class SqliteLiveChanges {
  private readonly listeners = new Set<ChangeListener>();
  private readonly external: ExternalChanges;
  /** Inside readFresh: the store was caught up at its start, and the indexes read in it do not check again. */
  private freshScope = false;
  /** The heard position as first asked inside readFresh (undefined: not asked yet, or a commit of ours since). */
  private heardInScope: FeedPosition | null | undefined = undefined;

  constructor(
    private readonly store: ListenedStore,
    /** The instant a store opened as of one shows (openAsOf); null for the store as it is now. */
    private readonly history: HistoryInstant | null,
    /** Feed rows another process wrote past which a catch-up rebuilds instead (OpenOptions.catchUpFeedLimit). */
    catchUpFeedLimit?: number,
  ) {
    this.external = new ExternalChanges(store, catchUpFeedLimit);
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  tell(e: ChangeEvent): void {
    for (const l of this.listeners) l(e);
  }

  /** After one of our transactions committed: catch-up need not read back the feed rows it stamped as ours (feed-stamp.ts). */
  ownCommit(fedThrough: number): void {
    this.heardInScope = undefined;
    this.external.ownCommit(fedThrough);
  }

  /** Whether another process committed since the last check (external-changes.ts). */
  refreshIfChanged(): boolean {
    if (this.history) return false;
    return this.external.refresh();
  }

  /** Tells listeners which memories other processes changed since the last catch-up (external-changes.ts). */
  catchUp(): void {
    if (this.history || this.freshScope) return;
    this.external.catchUp();
  }

  /**
   * One check for other processes' commits for everything fn reads. A recall reads six to ten
   * indexes, and each index's check and its heard position came to about seventy statements a
   * recall (each a few microseconds of SQLite, and more of the driver's). Within the scope the
   * indexes stay as they were at its start, which is what one answer should read anyway; the heard
   * position is asked once, since the listeners have been told everything up to it whatever
   * commits meanwhile.
   */
  readFresh<T>(fn: () => T): T {
    if (this.history || this.freshScope) return fn();
    this.external.catchUp();
    this.freshScope = true;
    try {
      return fn();
    } finally {
      this.freshScope = false;
      this.heardInScope = undefined;
    }
  }

  feedPosition(): FeedPosition | null {
    if (this.history) return this.history.position;
    return feedPosition(this.store);
  }

  heardPosition(): FeedPosition | null {
    if (this.history) return this.history.position;
    if (!this.freshScope) return this.external.heardPosition();
    if (this.heardInScope === undefined) this.heardInScope = this.external.heardPosition();
    return this.heardInScope;
  }

  changedSince(pos: FeedPosition, limit: number): FeedChanges | null {
    if (this.history) return pos.epoch === this.history.position.epoch && pos.seq === this.history.position.seq ? { upserts: [], deletes: [], position: pos } : null;
    return changedSince(this.store, pos, limit);
  }
}
