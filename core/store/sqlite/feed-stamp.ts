/**
 * Stamps the change feed's rows that Mnemo's own writes leave. The triggers (feed-ddl.ts) run in
 * whichever process writes and know nothing of it: they stamp `at` with that SQLite's wall clock and
 * leave `writer` and `change_id` empty. For a write made through a MemoryStore, each outermost
 * transaction ends by stamping the rows it appended with
 *
 * - `at`: the store's injected clock (so tests, replays and benchmarks are deterministic, and
 *   Mnemo's rows agree with its journal's timestamps);
 * - `writer`: `mnemo` for a write with no agent credential (the CLI, the workbench, a stdio agent),
 *   `mnemo:cred:<credential id>` for one made with a credential (attribution.ts; the credential row
 *   names its owner and label);
 * - `change_id`: the journalled change the write belongs to (including the undo or redo of one).
 *
 * A row left with `writer IS NULL` was written by a process that does not know Mnemo (a nooa agent).
 *
 * Cost: the transaction holds the write lock (IMMEDIATE), so every row after the feed's last
 * sequence number at its start is its own; one UPDATE by that sequence range stamps them all.
 */
import { connectionOf, statementOf } from './connection.js';
import { hasMigration } from './migrations.js';
import { currentCredentialId } from '../port/attribution.js';

/** The writer text of Mnemo's own rows: `mnemo`, or `mnemo:cred:<id>` for a write made with an agent credential. */
export function feedWriter(credentialId: string | null = currentCredentialId()): string {
  return credentialId === null ? 'mnemo' : `mnemo:cred:${credentialId}`;
}

interface OpenStamp {
  /** The feed's last sequence number when the range began (0 when the feed did not exist yet). */
  from: number;
  changeId: number | null;
}

const open = new WeakMap<object, OpenStamp>();

function lastSeq(store: object): number {
  if (!hasMigration(connectionOf(store), '007-change-feed')) return 0;
  return (statementOf(store, 'SELECT max(seq) FROM mnemo_feed').pluck().get() as number | null) ?? 0;
}

/** Call as an outermost write transaction begins, with the write lock held. */
export function beginFeedStamp(store: object): void {
  open.set(store, { from: lastSeq(store), changeId: null });
}

function stampRange(store: object, stamp: OpenStamp, at: number, writer: string): number {
  const last = lastSeq(store);
  if (last > stamp.from) {
    statementOf(store, 'UPDATE mnemo_feed SET at = ?, writer = ?, change_id = ? WHERE seq > ? AND seq <= ?').run(at, writer, stamp.changeId, stamp.from, last);
  }
  return last;
}

/**
 * The rows appended from now on belong to this journalled change. Rows appended before it in the
 * same transaction for another change (an undo step that finishes one change and starts the next)
 * are stamped first.
 */
export function attributeFeedTo(store: { clock: { now(): number } }, changeId: number): void {
  const stamp = open.get(store);
  if (!stamp || stamp.changeId === changeId) return;
  if (stamp.changeId !== null) stamp.from = stampRange(store, stamp, store.clock.now(), feedWriter());
  stamp.changeId = changeId;
}

/** Call as the outermost transaction is about to commit: stamps the rows it appended; returns the feed's last sequence number. */
export function endFeedStamp(store: object, at: number): number {
  const stamp = open.get(store);
  open.delete(store);
  return stamp ? stampRange(store, stamp, at, feedWriter()) : 0;
}

/** Call when the transaction rolls back: its rows are gone with it. */
export function dropFeedStamp(store: object): void {
  open.delete(store);
}
