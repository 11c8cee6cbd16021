/**
 * What other connections committed to a PostgreSQL store, told to its listeners (the derived
 * indexes): PostgreSQL's side of external-changes.ts. A check (`poll`) asks the feed (pg-feed.ts)
 * whether transactions that ended since the last check wrote rows of another connection; the rows
 * themselves are read at catch-up, when an index is about to be read. This connection's own rows
 * are left out by its writer token: its listeners heard them as they were written.
 *
 * SQLite's `PRAGMA data_version` has no PostgreSQL counterpart, so `version` is counted here: it
 * moves each time a check finds another connection's rows (of memories and edges: the feed holds
 * only those), and never for ours.
 */
import { RUN_MARKER_KEY } from '../shared/journal.js';
import { holdsIndexesBack } from '../shared/run-marker.js';
import { CATCH_UP_FEED_LIMIT, changeKindOf } from '../port/feed-position.js';
import type { JournalledStore } from '../shared/journal.js';
import type { FeedPosition } from '../port/port.js';
import type { PgFeed } from './pg-feed.js';

type ExternalStore = JournalledStore & {
  /** Runs fn with these memories' rows read in one statement, for the indexes' reads while they are told. */
  withRowsAhead<T>(ids: readonly string[], fn: () => T): T;
};

export class PgExternalChanges {
  /** The position the listeners have been told everything up to. */
  private position: FeedPosition;
  /** The watermark of the last check: rows below it have been looked at. */
  private checkedTo: number;
  /** Checks that found another connection's rows; refresh() compares it with what it last saw. */
  private found = 0;
  private refreshedAt = 0;
  /** Another connection's rows wait for the next catch-up. */
  private pending = false;
  /** The pruning mark last counted as news (counted once, not at every check until the catch-up). */
  private prunedNoted: number | null = null;
  /**
   * The store has Mnemo's tables (once seen, for good): each check then reads the long change's
   * marker in its own statement (pg-feed.ts othersSince), where a catch-up made a round trip for it.
   */
  private mnemo = false;

  constructor(
    private readonly store: ExternalStore,
    private readonly feed: PgFeed,
    private readonly token: string,
    start: FeedPosition,
    private readonly feedLimit = CATCH_UP_FEED_LIMIT,
  ) {
    this.position = start;
    this.checkedTo = start.seq;
    this.mnemo = store.hasMnemo();
  }

  /** Another connection's rows were found and not yet told. */
  private get untold(): boolean {
    return this.pending || this.found !== this.refreshedAt;
  }

  /**
   * Looks for other connections' rows since the last check. While there is nothing untold, the
   * position moves with the watermark: everything below it is ours, and heard.
   */
  private poll(): string | null | undefined {
    const { xmin, others, prunedXid, run } = this.feed.othersSince(this.checkedTo, this.token, this.mnemo ? RUN_MARKER_KEY : null);
    if (xmin < this.checkedTo) return run;
    // Rows not yet read were pruned: news too, which the catch-up tells as a reset (pg-feed.ts changedSince).
    const pruned = prunedXid !== null && prunedXid >= this.position.seq && prunedXid !== this.prunedNoted;
    if (pruned) this.prunedNoted = prunedXid;
    if (others || pruned) this.found++;
    this.checkedTo = xmin;
    if (!this.untold) this.position = { epoch: this.position.epoch, seq: xmin };
    return run;
  }

  /** Moves whenever a check finds another connection's commit (never for ours). */
  version(): number {
    this.poll();
    return this.found;
  }

  /**
   * Returns true when another connection committed since the last check; the rows are read at
   * catch-up. While another writer is part-way through a long change (change-run.ts) its commit is
   * not news yet: re-deriving indexes after each of its batches would make every recall pay.
   */
  refresh(): boolean {
    const run = this.poll();
    if (this.found === this.refreshedAt) return false;
    this.mnemo ||= this.store.hasMnemo();
    if (this.mnemo && holdsIndexesBack(this.store, run)) return false;
    this.refreshedAt = this.found;
    this.pending = true;
    return true;
  }

  /**
   * Tells listeners which memories other connections changed since the last catch-up: an upsert
   * or delete per memory, or one reset when that cannot be told cheaply (too many changes, or a
   * position from before retention pruned the feed).
   */
  catchUp(): void {
    this.refresh();
    if (!this.pending) return;
    this.pending = false;
    const store = this.store;
    // One statement (pg-feed.ts), so one snapshot without a transaction around it.
    const changes = this.feed.changedSince(this.position, this.feedLimit, this.token);
    if (!changes) {
      this.position = this.feed.position() ?? this.position;
      this.checkedTo = Math.max(this.checkedTo, this.position.seq);
      store.emit({ kind: 'reset' });
      return;
    }
    this.position = changes.position;
    this.checkedTo = Math.max(this.checkedTo, changes.position.seq);
    for (const id of changes.deletes) store.emit({ kind: 'delete', id });
    store.withRowsAhead(changes.upserts, () => {
      for (const id of changes.upserts) store.emit({ kind: changeKindOf(changes, id), id });
    });
  }

  /**
   * The position the listeners have heard up to: the watermark of the last check, unless another
   * connection's rows wait. No check of its own: its callers (derived.ts) ask right after a
   * catch-up, which has just checked, and a second round trip per index read would cost every
   * recall several; a position a little behind only means a snapshot patches a little more.
   */
  heardPosition(): FeedPosition {
    return this.position;
  }
}
