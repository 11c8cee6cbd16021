/**
 * What other processes committed to the store, told to its listeners (the derived indexes). Kept
 * apart from the store's reads and writes: it only watches `data_version`, and when an index is
 * about to be read, names the memories that changed since the last catch-up.
 *
 * With the change feed (feed-ddl.ts), that is the feed's rows after the last sequence number seen:
 * the cost follows what changed, never the store's size. Without one (a nooa-only file, or an
 * older store, opened read-only: nothing may install the feed there), it diffs per-memory digests
 * of the whole store (row-signatures.ts), which at 100k memories takes seconds.
 */
import { connectionOf } from './connection.js';
import { holdsIndexesBack, ownRunIds } from '../shared/run-marker.js';
import { changedSince, feedPosition, hasFeed } from './feed-reads.js';
import type { JournalledStore } from '../shared/journal.js';
import type { FeedPosition } from '../port/port.js';
import { CATCH_UP_FEED_LIMIT, changeKindOf } from '../port/feed-position.js';
import { diffRowSignatures, scanRowSignatures, type RowSignatures } from './row-signatures.js';


type ExternalStore = JournalledStore & { dataVersion(): number; readConsistent<T>(fn: () => T): T };

export class ExternalChanges {
  private lastDataVersion: number;
  /** The feed position the listeners have seen up to (null: no feed yet, or not yet placed). */
  private position: FeedPosition | null;
  /** Another process committed since the last catch-up. */
  private pending = false;
  /** Per-memory digests at the last catch-up, for a file without a feed; null until another process first commits. */
  private signatures: RowSignatures | null = null;
  private signaturesWanted = false;

  constructor(
    private readonly store: ExternalStore,
    private readonly feedLimit = CATCH_UP_FEED_LIMIT,
  ) {
    this.lastDataVersion = store.dataVersion();
    this.position = feedPosition(store);
  }

  /**
   * Returns true when another process committed since the last check; the commit is only noted
   * here and read at catch-up (an index about to be read), so a poller checking every few hundred
   * ms stays cheap. Our own commits do not move data_version, and listeners saw them already.
   */
  refresh(): boolean {
    const store = this.store;
    const v = store.dataVersion();
    if (v === this.lastDataVersion) return false;
    // Another writer is part-way through a long change (change-run.ts): its rows are neither
    // before nor after, and re-deriving indexes after every one of its batches would make each
    // recall pay for them. Keep the indexes as they were until it finishes.
    if (store.hasMnemo() && holdsIndexesBack(store)) return false;
    this.lastDataVersion = v;
    if (this.position || hasFeed(store)) {
      this.pending = true;
    } else if (this.signatures) {
      this.pending = true;
    } else {
      // Without a feed, a store nobody else writes never pays for digests: the first outside commit resets.
      this.signaturesWanted = true;
      store.emit({ kind: 'reset' });
    }
    return true;
  }

  /**
   * Tells listeners which memories other processes changed since the last catch-up: an upsert or
   * delete per memory, or one reset when that cannot be told cheaply (too many changes, a feed
   * position from another file or from before retention pruned the feed).
   */
  catchUp(): void {
    this.refresh();
    if (!this.pending && !this.signaturesWanted) return;
    if (hasFeed(this.store)) this.catchUpFromFeed();
    else this.catchUpFromDigests();
  }

  /**
   * After a commit of ours: when no other process committed since the last check, the feed rows
   * it appended (through `lastSeq`) are ours alone and the listeners saw them, so the position
   * moves past them. Otherwise it stays, and the next catch-up reads ours with theirs.
   */
  ownCommit(lastSeq: number): void {
    if (this.pending || this.signaturesWanted || this.store.dataVersion() !== this.lastDataVersion) return;
    if (this.position) {
      if (lastSeq > this.position.seq) this.position = { epoch: this.position.epoch, seq: lastSeq };
    } else if (lastSeq > 0) {
      this.position = feedPosition(this.store); // this commit installed the feed
    }
  }

  /**
   * The feed position listeners have been told everything up to. With no other process's commit
   * left untold, that is the feed's end (our own writes are told as they are made); otherwise the
   * last catch-up's position, which a long change of another process holds back (refresh()).
   */
  heardPosition(): FeedPosition | null {
    if (!this.pending && !this.signaturesWanted && this.store.dataVersion() === this.lastDataVersion) return feedPosition(this.store);
    return this.position;
  }

  private catchUpFromFeed(): void {
    const store = this.store;
    this.pending = false;
    this.signatures = null;
    this.signaturesWanted = false;
    const from = this.position;
    // A run this connection is writing put its rows in the feed, and the listeners heard them as they were written.
    const own = ownRunIds(store);
    const changes = from ? store.readConsistent(() => changedSince(store, from, this.feedLimit, own)) : null;
    if (!changes) {
      this.position = feedPosition(store);
      store.emit({ kind: 'reset' });
      return;
    }
    this.position = changes.position;
    for (const id of changes.deletes) store.emit({ kind: 'delete', id });
    for (const id of changes.upserts) store.emit({ kind: changeKindOf(changes, id), id });
  }

  private catchUpFromDigests(): void {
    const store = this.store;
    if (this.signaturesWanted) {
      // Taken before the reset indexes reload (they do so right after this, on the same thread).
      this.signaturesWanted = false;
      this.pending = false;
      this.signatures = scanRowSignatures(connectionOf(store));
      return;
    }
    if (!this.pending || !this.signatures) return;
    this.pending = false;
    const next = scanRowSignatures(connectionOf(store));
    const { upserts, deletes } = diffRowSignatures(this.signatures, next);
    this.signatures = next;
    if (upserts.length + deletes.length > Math.max(1000, next.rows.size / 5)) {
      store.emit({ kind: 'reset' });
      return;
    }
    for (const id of deletes) store.emit({ kind: 'delete', id });
    for (const id of upserts) store.emit({ kind: 'upsert', id });
  }
}
