/**
 * The marker of a long change (change-run.ts): the `mnemo_meta` row its first batch writes and its
 * last clears ("change X is being written by process P on host H"), and which runs this process
 * drives. Readers ask it whether rows are part-way; an opener asks it whether the writer that left
 * one is still alive, and recovers the change when not.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { MnemoError } from '../../errors.js';
import type { FeedPosition } from '../port/feed-position.js';
import { RUN_MARKER_KEY, type JournalledStore } from './journal.js';

export type RunMode = 'record' | 'undo' | 'redo';

export interface RunMarker {
  change_id: number;
  mode: RunMode;
  label: string;
  pid: number;
  host: string;
  /** Which thread of that process writes it (THIS_THREAD); absent in markers of older builds. */
  thread?: string;
  /** That thread's id in the Linux kernel, to tell whether it still runs; null elsewhere. */
  tid?: number | null;
  started_at: number;
  /** undo: rows with a rowid below this are still to restore; redo: rows above it. */
  cursor: number | null;
  /**
   * An undo of a change with its dependants (undo-group.ts): the changes to undo after this one,
   * in order. The run moves on to the next when one is done, so a crash part-way is completed for
   * the whole group, not just the change being undone when it stopped.
   */
  queue?: number[];
  /**
   * A cancel turned this run around (change-run.ts, turnBack): it writes back the other side of the
   * rows the cancelled undo or redo had done, and leaves the change's journal state as it is, since
   * that never changed. The changes in `queue` are redone whole and marked applied again.
   */
  revert?: boolean;
  /**
   * Set once every row is written, before the marker clears: the writer has left index snapshots
   * current at this feed position, so the processes beside it can load them ahead (index-handoff.ts).
   */
  snapshots_at?: FeedPosition;
  /**
   * The writer will leave index snapshots before the marker clears (index-handoff.ts): every other
   * connection holds its indexes back for the whole run, the other threads of the writer's own
   * process too, and takes the snapshots at its end instead of patching in every batch.
   */
  hands_over?: boolean;
}

/**
 * This thread among the threads of this process. An engine host writes a long change in its jobs
 * worker while its other workers read and open the same store, each thread with its own copy of
 * this module, so a run another thread of this process drives is not in `liveRuns` here: the
 * marker names the thread, and such a run is live while that thread runs.
 */
const THIS_THREAD = { token: randomUUID(), tid: linuxThreadId() };

function linuxThreadId(): number | null {
  if (process.platform !== 'linux') return null;
  try {
    const link = /\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'));
    return link ? Number(link[1]) : null;
  } catch {
    return null;
  }
}

/** Whether a thread of this process still runs: Linux lists them; elsewhere it cannot be told, so yes (the process's end ends the run, and the next open recovers it). */
function threadRuns(tid: number | null): boolean {
  return tid === null || process.platform !== 'linux' ? true : existsSync(`/proc/self/task/${tid}`);
}

/**
 * Runs this process is driving, by store file and change id (another connection here must not
 * "recover" them), and the connection driving each (which, unlike the others, is not held back by it).
 */
const liveRuns = new Map<string, { store: JournalledStore; changeId: number }>();
/** What reading a marker needs of a store: its file (runs are kept by file) and its meta table. */
type MarkedStore = Pick<JournalledStore, 'path' | 'getMeta'>;

const runKey = (store: MarkedStore, changeId: number) => `${store.path === ':memory:' ? store.path : resolve(store.path)}#${changeId}`;

/** Marks the changes of a run this process drives (or has stopped driving). */
export function setLiveRun(store: JournalledStore, changeIds: number[], live: boolean): void {
  for (const id of changeIds) {
    if (live) liveRuns.set(runKey(store, id), { store, changeId: id });
    else liveRuns.delete(runKey(store, id));
  }
}

/** The changes this connection is writing as runs right now (their feed rows are its own, told as it wrote them). */
export function ownRunIds(store: JournalledStore): number[] {
  const ids: number[] = [];
  for (const run of liveRuns.values()) if (run.store === store) ids.push(run.changeId);
  return ids;
}

/** The change being written in batches right now (or left half-written by a process that died). */
export function runInProgress(store: { getMeta(key: string): string | null }): RunMarker | null {
  const raw = store.getMeta(RUN_MARKER_KEY);
  return raw ? (JSON.parse(raw) as RunMarker) : null;
}

/** Whether a long change (ours or another process's) is being written right now: its rows are neither before nor after. */
export function runMarkerPresent(store: { getMeta(key: string): string | null }): boolean {
  return store.getMeta(RUN_MARKER_KEY) !== null;
}

export function writeMarker(store: JournalledStore, m: RunMarker): void {
  store.setMeta(RUN_MARKER_KEY, JSON.stringify(m));
}

export function clearMarker(store: JournalledStore): void {
  store.journal.sql.deleteMeta(RUN_MARKER_KEY);
}

export function newMarker(store: JournalledStore, changeId: number, mode: RunMode, label: string, cursor: number | null, handsOver = false): RunMarker {
  const m: RunMarker = { change_id: changeId, mode, label, pid: process.pid, host: hostname(), thread: THIS_THREAD.token, tid: THIS_THREAD.tid, started_at: store.clock.now(), cursor };
  return handsOver ? { ...m, hands_over: true } : m;
}

/** The refusal of a run while another writer's is being written. */
export function runningElsewhere(m: RunMarker): MnemoError {
  return new MnemoError('busy', `change #${m.change_id} (${m.label}) is still being written by another writer; wait for it to finish, then try again`, {
    change_id: m.change_id,
  });
}

/**
 * Writes the marker of a run that starts now, unless another writer's marker got there since
 * `refuseIfRunning` looked (a writer on another connection of a PostgreSQL store): then refused.
 */
export function claimMarker(store: JournalledStore, m: RunMarker): void {
  if (store.journal.sql.claimMeta(RUN_MARKER_KEY, JSON.stringify(m))) return;
  throw runningElsewhere(runInProgress(store) ?? m);
}

/**
 * Whether the derived indexes of this connection hold back until another connection's long change
 * ends (external-changes.ts): yes for another process's, which hands them over at its end
 * (index-handoff.ts), and for another thread's of this process that says it will (`hands_over`).
 * A run of another thread that leaves no snapshots is patched in batch by batch: held back, a
 * worker rebuilt its indexes after it (an agent's recall waited 20 s at the end of a 100k reflect,
 * docs/benchmarks/responsiveness.md). Patched in, an agent's recall paid for every batch instead.
 */
export function holdsIndexesBack(store: MarkedStore, marker?: string | null): boolean {
  // `marker`: the marker's text as read a moment ago with the feed's check (null: none), which spares a read.
  const m = marker === undefined ? runInProgress(store) : marker === null ? null : (JSON.parse(marker) as RunMarker);
  return m !== null && (m.hands_over === true || !byAnotherThreadHere(m)) && isForeignAndLive(store, m);
}

/**
 * The marker of the long change another connection is writing right now (a dead writer's leftover
 * marker does not count), or null. Asked when another connection committed, so the writer is never
 * this connection.
 */
export function foreignRun(store: MarkedStore): RunMarker | null {
  const m = runInProgress(store);
  return m !== null && isForeignAndLive(store, m) ? m : null;
}

function isForeignAndLive(store: MarkedStore, m: RunMarker): boolean {
  // The connection writing the run hears the others' commits as usual: it hands its indexes over at the end (index-handoff.ts).
  return liveRuns.get(runKey(store, m.change_id))?.store !== store && markerIsLive(store, m);
}

/** Written by another thread of this process (an engine host's jobs worker), not by this one or another process. */
function byAnotherThreadHere(m: RunMarker): boolean {
  return m.host === hostname() && m.pid === process.pid && m.thread !== undefined && m.thread !== THIS_THREAD.token;
}

/** Whether the process named by the marker may still be writing (another host: assume it is). */
export function markerIsLive(store: MarkedStore, m: RunMarker): boolean {
  if (byAnotherThreadHere(m)) return threadRuns(m.tid ?? null);
  if (m.host === hostname() && m.pid === process.pid) return liveRuns.has(runKey(store, m.change_id));
  return isLiveWriter(m.pid, m.host);
}

/** Whether another process that left a marker may still be running (another host: assume it is). */
export function isLiveWriter(pid: number, host: string): boolean {
  if (host !== hostname()) return true;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}
