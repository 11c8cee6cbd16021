/**
 * What other processes committed to the store, told to its listeners (the derived indexes). Kept
 * apart from the store's reads and writes: it only watches `data_version` and diffs per-memory
 * digests (row-signatures.ts) when an index is about to be read.
 */
import { connectionOf } from './connection.js';
import { foreignRunInProgress } from './change-run.js';
import type { JournalledStore } from './journal.js';
import { diffRowSignatures, scanRowSignatures, type RowSignatures } from './row-signatures.js';

export class ExternalChanges {
  private lastDataVersion: number;
  /** Per-memory digests at the last catch-up; null until another process first commits. */
  private signatures: RowSignatures | null = null;
  private signaturesWanted = false;
  /** Another process committed since the last catch-up (only tracked while signatures exist). */
  private pending = false;

  constructor(private readonly store: JournalledStore & { dataVersion(): number }) {
    this.lastDataVersion = store.dataVersion();
  }

  /**
   * Returns true when another process committed since the last check. The first such commit
   * resets the listeners and asks for per-memory digests to be taken at the next catch-up; after
   * that, commits are only noted here and diffed at catch-up (an index about to be read), so a
   * poller checking every few hundred ms stays cheap and a store nobody else writes never pays for
   * digests. Our own commits do not move data_version, and listeners saw them already.
   */
  refresh(): boolean {
    const store = this.store;
    const v = store.dataVersion();
    if (v === this.lastDataVersion) return false;
    // Another writer is part-way through a long change (change-run.ts): its rows are neither
    // before nor after, and re-deriving indexes after every one of its batches would make each
    // recall pay a store-wide diff. Keep the indexes as they were until it finishes.
    if (store.hasMnemo() && foreignRunInProgress(store)) return false;
    this.lastDataVersion = v;
    if (this.signatures) {
      this.pending = true;
    } else {
      this.signaturesWanted = true;
      store.emit({ kind: 'reset' });
    }
    return true;
  }

  /**
   * Tells listeners which memories other processes changed since the last catch-up: an upsert or
   * delete per memory, or one reset when more than a fifth of the store changed (rebuilding is
   * cheaper then).
   */
  catchUp(): void {
    const store = this.store;
    this.refresh();
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
