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
    this.external.ownCommit(fedThrough);
  }

  /** Whether another process committed since the last check (external-changes.ts). */
  refreshIfChanged(): boolean {
    if (this.history) return false;
    return this.external.refresh();
  }

  /** Tells listeners which memories other processes changed since the last catch-up (external-changes.ts). */
  catchUp(): void {
    if (this.history) return;
    this.external.catchUp();
  }

  feedPosition(): FeedPosition | null {
    if (this.history) return this.history.position;
    return feedPosition(this.store);
  }

  heardPosition(): FeedPosition | null {
    if (this.history) return this.history.position;
    return this.external.heardPosition();
  }

  changedSince(pos: FeedPosition, limit: number): FeedChanges | null {
    if (this.history) return pos.epoch === this.history.position.epoch && pos.seq === this.history.position.seq ? { upserts: [], deletes: [], position: pos } : null;
    return changedSince(this.store, pos, limit);
  }
}
