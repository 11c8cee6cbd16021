/**
 * Long changes in short transactions. A big change (a reflection apply, the undo or redo of one)
 * is written as a run of batches, each its own IMMEDIATE transaction of ~50 ms, with a pause
 * between them so an agent's add or recall on another connection gets the write lock in time.
 *
 * It stays ONE journal change: every batch records its rows under the same change id (a row keeps
 * the before-image of its first batch and the after-image of its last), so one undo reverts it.
 * It stays all-or-nothing: the first batch writes a marker into `mnemo_meta` ("change X is being
 * written by process P", run-marker.ts), the last batch clears it. When the writing process dies,
 * the next writable open finds the marker of a dead process and finishes the job from the journal:
 * a half-written change is rolled back from its before-images, a half-done undo or redo is
 * completed. Readers that open in between see the partial state; `runInProgress` tells them.
 */
import { createHash } from 'node:crypto';
import { currentCredentialId, withAgentMeta } from '../port/attribution.js';
import { MnemoError } from '../../errors.js';
import type { BeforeFinish, JobProgressSink } from '../../model/job-phase.js';
import { batchBudget, pacingOf, takeBackPacing, type RunPacing } from '../../model/run-pacing.js';
import { tallyRow, type JournalledStore, type RawChangeRow, type RunCheckpoints, type TouchedRow } from './journal.js';
import { lockNotTaken } from './lock-not-taken.js';
import { courtesyKey, keptAccesses, wantWriteLock } from '../port/write-courtesy.js';
import { claimMarker, clearMarker, markerIsLive, newMarker, runInProgress, runningElsewhere, setLiveRun, writeMarker } from './run-marker.js';
import type { ChangeRow, ChangeSummary } from '../port/store-rows.js';
import type { ChangeRun as ChangeRunOfRuns, Pacer as PacerOfRuns } from '../port/store-rows.js';

/** How long a run's step keeps trying for a write lock other writers keep taking (Pacer.take). */
const LOCK_PATIENCE_MS = 60_000;
/** A passive WAL checkpoint at most this often keeps the WAL file from growing with the run. */
const CHECKPOINT_EVERY_MS = 1000;
/**
 * A pause lasts past its length while this process's workers keep a pile of accesses for it
 * (KEPT_PILE), this much longer at most, so a batch still starts at least every 200 + 110 + 500 ms
 * of its own work and pause, looking every few ms.
 */
const KEPT_PAUSE_AT_MOST_MS = 500;
const KEPT_LOOK_MS = 5;
/** Kept accesses past this many are a pile (a recall keeps about five while another writes). */
const KEPT_PILE = 64;
/**
 * Journal rows restored between two looks at the clock. Small: restoring one memory row of a
 * 100k store (images, edges, access drift) can take milliseconds, and 200 per look let an undo
 * hold the lock for seconds (3 of 311 agent adds failed in the 100k benchmark).
 */
const ROW_CHUNK = 8;

/** A writer that died after this connection opened left its marker: recover it now, not at the next open. */
export function recoverDeadRun(store: JournalledStore): void {
  if (store.readonly) return;
  const recovered = recoverInterruptedRun(store);
  if (recovered) store.warn('recovered-run', recovered);
}

export function refuseIfRunning(store: JournalledStore): void {
  recoverDeadRun(store);
  const m = runInProgress(store);
  if (m) throw runningElsewhere(m);
}

/**
 * Between transactions: pause (the lock is free), and now and then do the backend's maintenance
 * there rather than inside a commit (SQLite copies its WAL back: sqlite-journal-sql.ts,
 * RunCheckpoints). The copy is made at the start of the pause and counts as part of it: other
 * connections can write while it runs. `end()` gives the connection back its automatic
 * checkpoints; call it when the run stops, however it stops.
 */
export class Pacer implements PacerOfRuns {
  private lastCheckpoint = performance.now();
  private checkpoints: RunCheckpoints | null;
  /** This store on the board where a batch says it wants the write lock (write-courtesy.ts). */
  private readonly courtesy: number;
  constructor(
    store: JournalledStore,
    private readonly pacing: Required<RunPacing>,
    /**
     * False for a take-back after a cancel: someone waits for it to end, and the WAL it grows is
     * copied back by the connection's automatic checkpoints once `end()` gives them back.
     */
    private readonly checkpointing = true,
  ) {
    this.checkpoints = store.journal.sql.runCheckpoints();
    this.checkpoints?.suspend();
    this.courtesy = courtesyKey(store.path);
  }
  /**
   * Runs one step of the run (a transaction). When another writer kept the write lock past the
   * busy wait, the step never began (lock-not-taken.ts): it is tried again after a pause, for up
   * to LOCK_PATIENCE_MS, rather than failing the run and taking back every batch it committed.
   * Eight agents logging accesses beside a reflection's apply kept the lock past the 5 s wait, and
   * a 100k pass failed `busy` after a minute of work (docs/long-writes.md).
   */
  async take<T>(step: () => T): Promise<T> {
    const started = performance.now();
    for (;;) {
      // Until the step has committed, this process's access writes to the store wait for its pause.
      const release = wantWriteLock(this.courtesy);
      try {
        return step();
      } catch (err) {
        if (!lockNotTaken(err) || performance.now() - started >= LOCK_PATIENCE_MS) throw err;
      } finally {
        release();
      }
      await new Promise((r) => setTimeout(r, this.pacing.pauseMs));
    }
  }
  async between(): Promise<void> {
    const pauseStart = performance.now();
    if (this.checkpointing && this.checkpoints !== null && pauseStart - this.lastCheckpoint >= CHECKPOINT_EVERY_MS) {
      this.checkpoints.checkpoint();
      this.lastCheckpoint = performance.now();
    }
    const left = this.pacing.pauseMs - (performance.now() - pauseStart);
    await new Promise((r) => setTimeout(r, Math.max(0, left)));
    // Accesses this process's workers kept through the batch are written now; a pause that ends
    // before they are lets them pile up batch after batch (write-courtesy.ts). A few are always
    // waiting while agents recall, so only a pile stretches it. A take-back, which someone waits
    // for, does not stretch its pauses.
    if (!this.checkpointing) return;
    const until = performance.now() + KEPT_PAUSE_AT_MOST_MS;
    while (keptAccesses() > KEPT_PILE && performance.now() < until) await new Promise((r) => setTimeout(r, KEPT_LOOK_MS));
  }
  end(): void {
    this.checkpoints?.resume();
    this.checkpoints = null;
  }
}

interface RecordedRow {
  created: boolean;
  deleted: boolean;
  /** A digest of the before-image, to tell when the latest after-image is the same again. */
  beforeDigest: string;
  unchanged: boolean;
  /** Where the row sat before the run (JournalTarget.placement), for a take-back. */
  placement: unknown;
}

const digestOf = (json: string | null): string => (json === null ? '' : createHash('sha1').update(json).digest('base64'));

const parseRow = (r: RawChangeRow): ChangeRow => ({
  key: r.key,
  before: r.before === null ? null : (JSON.parse(r.before) as unknown),
  after: r.after === null ? null : (JSON.parse(r.after) as unknown),
});

/**
 * One change written in batches. `batch(fn)` runs fn in its own transaction with the journal
 * capturing; `finish` closes the change; `rollback` takes back what the committed batches wrote.
 */
export class ChangeRun implements ChangeRunOfRuns {
  private id: number | null = null;
  /**
   * Keys that already have a row in this change (later batches only move their after-image), with
   * what `finish` needs to know of each: whether it was created or deleted, and whether later
   * batches put it back as it was. Kept here so that closing a 100k-row change does not read
   * every before- and after-image again while it holds the write lock (that took seconds).
   */
  private readonly recorded = new Map<string, RecordedRow>();
  private meta: Record<string, unknown>;

  constructor(
    private readonly store: JournalledStore,
    private readonly label: string,
    private readonly kind: string,
    meta: Record<string, unknown> = {},
    /** Runs in the first batch's transaction, once the lock is held and before the run writes anything. */
    private readonly atLock?: () => void,
    /** It leaves index snapshots before it ends: the marker says so (run-marker.ts `hands_over`). */
    private readonly handsOver = false,
  ) {
    this.meta = meta;
  }

  get changeId(): number | null {
    return this.id;
  }

  batch<T>(fn: () => T): T {
    const store = this.store;
    const startsHere = this.id === null;
    try {
      return store.transaction(() => {
        if (startsHere) this.atLock?.();
        store.ensureMnemo();
        if (this.id === null) this.start();
        store.journal.sql.attributeFeedTo(this.id!);
        const { result, touched } = store.journal.captureBatch(fn, (key) => !this.recorded.has(key));
        this.recordRows(touched);
        return result;
      });
    } catch (err) {
      // The first batch rolled back with its header and marker: nothing of this run exists.
      if (startsHere && this.id !== null) {
        setLiveRun(store, [this.id], false);
        this.id = null;
        this.recorded.clear();
      }
      throw err;
    }
  }

  private start(): void {
    const store = this.store;
    refuseIfRunning(store);
    this.id = store.journal.sql.insertChange({
      ts: store.clock.now(),
      label: this.label,
      kind: this.kind,
      counts: '{}',
      meta: JSON.stringify({ ...withAgentMeta(this.meta), in_progress: true }),
      credentialId: currentCredentialId(),
    });
    setLiveRun(store, [this.id], true);
    claimMarker(store, newMarker(store, this.id, 'record', this.label, null, this.handsOver));
  }

  private recordRows(touched: TouchedRow[]): void {
    const store = this.store;
    const sql = store.journal.sql;
    // The batch's new rows go in one statement (in touch order, the order rows() reads them back in), its moved ones in another.
    const fresh: RawChangeRow[] = [];
    const moved: { key: string; after: string | null }[] = [];
    for (const { key, before, placement } of touched) {
      const after = store.journal.snapshot(key);
      const afterJson = after === null ? null : JSON.stringify(after);
      const seen = this.recorded.get(key);
      if (seen) {
        moved.push({ key, after: afterJson });
        seen.deleted = afterJson === null;
        seen.unchanged = seen.beforeDigest === digestOf(afterJson);
        continue;
      }
      const beforeJson = before === null ? null : JSON.stringify(before);
      if (beforeJson === afterJson) continue;
      fresh.push({ key, before: beforeJson, after: afterJson });
      this.recorded.set(key, { created: beforeJson === null, deleted: afterJson === null, beforeDigest: digestOf(beforeJson), unchanged: false, placement });
    }
    if (moved.length > 0) sql.moveAfter(this.id!, moved);
    if (fresh.length > 0) sql.insertRows(this.id!, fresh);
  }

  /**
   * Closes the change in one last short transaction: `meta` is computed in it (so it sees the
   * final rows), then `last` runs (e.g. a maintenance-log line).
   * Returns the change id, or null when nothing changed (then no journal entry remains).
   */
  finish(meta: () => Record<string, unknown>, last?: () => void): number | null {
    const store = this.store;
    const id = this.id;
    store.transaction(() => {
      this.meta = meta();
      if (id !== null) {
        // A row whose later batches put it back as it was is no change.
        const sql = store.journal.sql;
        const counts: Record<string, number> = {};
        for (const [key, r] of this.recorded) {
          if (r.unchanged) sql.dropRow(id, key);
          else tallyRow(counts, key, r.created ? 'created' : r.deleted ? 'deleted' : 'modified');
        }
        if (Object.keys(counts).length === 0) sql.deleteChange(id);
        else sql.closeChange(id, JSON.stringify(counts), JSON.stringify(withAgentMeta(this.meta)));
        clearMarker(store);
        if (Object.keys(counts).length === 0) this.id = null;
      }
      last?.();
    });
    if (id !== null) setLiveRun(store, [id], false);
    return this.id;
  }

  /**
   * Takes back every committed batch, newest row first, in paced transactions; the change
   * disappears. `onRows` hears the journal rows taken back so far of those the change holds.
   */
  async rollback(pacing?: RunPacing, onRows?: (done: number, total: number) => void): Promise<void> {
    if (this.id === null) return;
    const id = this.id;
    const p = takeBackPacing(pacingOf(pacing));
    const pacer = new Pacer(this.store, p, false);
    const total = this.recorded.size;
    let done = 0;
    onRows?.(0, total);
    try {
      const placementOf = (key: string) => this.recorded.get(key)?.placement;
      while (!(await pacer.take(() => rollbackStep(this.store, id, batchBudget(p), (n) => onRows?.((done = Math.min(total, done + n)), total), placementOf)))) await pacer.between();
    } finally {
      pacer.end();
    }
    setLiveRun(this.store, [id], false);
    this.id = null;
    this.recorded.clear();
  }
}

/** One transaction of a rollback; true when the change is gone entirely. */
function rollbackStep(store: JournalledStore, changeId: number, deadline: () => boolean, onRows?: (n: number) => void, placementOf?: (key: string) => unknown): boolean {
  return store.transaction(() => {
    const sql = store.journal.sql;
    for (;;) {
      const chunk = sql.rowsPast(changeId, 'down', Number.MAX_SAFE_INTEGER, ROW_CHUNK);
      if (chunk.length === 0) {
        sql.deleteChange(changeId);
        clearMarker(store);
        return true;
      }
      // writeImages('before') walks its list backwards, so hand it the chunk in rowid order.
      store.journal.writeImages(chunk.map(parseRow).reverse(), 'before', changeId, placementOf);
      for (const r of chunk) sql.dropRowId(r.rowid);
      onRows?.(chunk.length);
      if (deadline()) return false;
    }
  });
}

export interface ReplayStepOptions {
  /** Hears the rows written in this transaction. */
  onRows?: (n: number) => void;
  /** Once every row is written, answer 'held' before closing the change (the caller acts while the marker stands). */
  holdEnd?: boolean;
  /** Notes where each row sits before this step writes it (by `<change id>#<row key>`), for a take-back (JournalTarget.placement). */
  keepPlacements?: Map<string, unknown>;
  /** Puts rows back where these say they sat (a take-back of the rows `keepPlacements` noted). */
  placements?: ReadonlyMap<string, unknown>;
}

/**
 * One transaction of an undo (restore before-images, newest first) or a redo (after-images,
 * oldest first), resuming at the marker's cursor; true when the change is fully undone or redone.
 */
export function replayStep(store: JournalledStore, mode: 'undo' | 'redo', deadline: () => boolean, opts: ReplayStepOptions = {}): boolean | 'held' {
  const { onRows, holdEnd = false, keepPlacements, placements } = opts;
  return store.transaction((): boolean | 'held' => {
    let marker = runInProgress(store)!;
    let id = marker.change_id;
    let cursor = marker.cursor!;
    for (;;) {
      const chunk = store.journal.sql.rowsPast(id, mode === 'undo' ? 'down' : 'up', cursor, ROW_CHUNK);
      if (chunk.length === 0) {
        // Every row is written: with holdEnd, report it before closing, so the caller can act while the marker still stands.
        if (holdEnd && !marker.queue?.length) return 'held';
        // A run turned back by a cancel leaves the change's journal state as it was (it never changed).
        if (!marker.revert) {
          if (mode === 'undo') store.journal.markUndone(id);
          else store.journal.markRedone(id);
        }
        const [next, ...rest] = marker.queue ?? [];
        if (next !== undefined) {
          id = next;
          cursor = mode === 'undo' ? Number.MAX_SAFE_INTEGER : -1;
          marker = { ...marker, change_id: next, label: store.journal.get(next).label, cursor, queue: rest, revert: false };
          writeMarker(store, marker);
          continue;
        }
        clearMarker(store);
        return true;
      }
      const rows = chunk.map(parseRow);
      // Keyed by change too: in a group, two changes can touch one row, each leaving it elsewhere.
      const changeId = id;
      if (keepPlacements) for (const r of rows) if (!keepPlacements.has(`${changeId}#${r.key}`)) keepPlacements.set(`${changeId}#${r.key}`, store.journal.placement(r.key));
      store.journal.writeImages(mode === 'undo' ? rows.reverse() : rows, mode === 'undo' ? 'before' : 'after', id, placements ? (key) => placements.get(`${changeId}#${key}`) : undefined);
      cursor = chunk[chunk.length - 1]!.rowid;
      writeMarker(store, { ...marker, cursor });
      onRows?.(chunk.length);
      if (deadline()) return false;
    }
  });
}


/**
 * Undoes a change in paced transactions; a crash part-way is completed by the next writable open.
 * `shouldCancel` is looked at between transactions: a cancel writes back what the undo had
 * restored, so the store and the change are as they were, and throws a `conflict` with
 * `details.cancelled: true`.
 */
export async function undoInBatches(
  store: JournalledStore,
  changeId: number,
  pacing?: RunPacing,
  onProgress?: JobProgressSink,
  beforeFinish?: BeforeFinish,
  shouldCancel?: () => boolean,
): Promise<ChangeSummary> {
  return replayInBatches(store, 'undo', changeId, pacing, onProgress, beforeFinish, shouldCancel);
}

/** Redoes the given change (or the most recently undone) in paced transactions; a cancel as for undoInBatches. */
export async function redoInBatches(
  store: JournalledStore,
  changeId: number | undefined,
  pacing?: RunPacing,
  onProgress?: JobProgressSink,
  beforeFinish?: BeforeFinish,
  shouldCancel?: () => boolean,
): Promise<ChangeSummary> {
  return replayInBatches(store, 'redo', changeId, pacing, onProgress, beforeFinish, shouldCancel);
}

/** The refusal a cancelled undo or redo ends with, once the store is as it was. */
export function replayCancelled(mode: 'undo' | 'redo', change: { id: number; label: string }): MnemoError {
  return new MnemoError('conflict', `the ${mode} of change #${change.id} (${change.label}) was cancelled; what it had written was taken back, the store is as it was`, {
    change_id: change.id,
    cancelled: true,
  });
}

/**
 * Turns the running undo or redo around after a cancel: the marker now says "write back the other
 * side of the rows done so far, then leave the change's journal state alone" (`revert`), so a crash
 * part-way is finished by the next open in the same direction. For an undo of a group
 * (undo-group.ts), `undone` are the changes it had finished, the most recently undone first: each
 * is redone whole after the rows of the one it stopped in, and marked applied again. `onRows`
 * hears the rows written back of `total`.
 */
export async function turnBack(
  store: JournalledStore,
  pacing: Required<RunPacing>,
  undone: number[],
  total: number,
  onRows?: (done: number, total: number) => void,
  /** Where the rows the run wrote sat before it wrote them (ReplayStepOptions.keepPlacements). */
  placements?: ReadonlyMap<string, unknown>,
): Promise<void> {
  const p = takeBackPacing(pacing);
  const reverse = store.transaction((): boolean => {
    const m = runInProgress(store);
    if (!m || m.mode === 'record') return false;
    // Where the rows done so far begin and end: an undo walked down to its cursor, a redo up to it.
    const started = m.mode === 'undo' ? m.cursor !== Number.MAX_SAFE_INTEGER : m.cursor !== -1;
    const first = started
      ? { change_id: m.change_id, label: m.label, mode: m.mode === 'undo' ? ('redo' as const) : ('undo' as const), cursor: m.mode === 'undo' ? m.cursor! - 1 : m.cursor! + 1, revert: true }
      : undone[0] !== undefined
        ? { change_id: undone[0], label: store.journal.get(undone[0]).label, mode: 'redo' as const, cursor: -1, revert: false }
        : null;
    if (first === null) {
      clearMarker(store);
      return false;
    }
    const queue = started ? undone : undone.slice(1);
    writeMarker(store, { ...newMarker(store, first.change_id, first.mode, first.label, first.cursor), queue, revert: first.revert });
    return true;
  });
  if (!reverse) return;
  const pacer = new Pacer(store, p, false);
  let done = 0;
  onRows?.(0, total);
  try {
    const onStep = (n: number) => onRows?.((done = Math.min(total, done + n)), total);
    while (!(await pacer.take(() => replayStep(store, runInProgress(store)!.mode as 'undo' | 'redo', batchBudget(p), { onRows: onStep, ...(placements ? { placements } : {}) })))) await pacer.between();
  } finally {
    pacer.end();
  }
}

async function replayInBatches(
  store: JournalledStore,
  mode: 'undo' | 'redo',
  changeId: number | undefined,
  pacing: RunPacing | undefined,
  onProgress: JobProgressSink | undefined,
  beforeFinish?: BeforeFinish,
  shouldCancel: () => boolean = () => false,
): Promise<ChangeSummary> {
  const p = pacingOf(pacing);
  let total = 0;
  const id = store.transaction(() => {
    store.ensureMnemo();
    refuseIfRunning(store);
    const change = mode === 'undo' ? store.journal.checkUndo(changeId!) : store.journal.checkRedo(changeId);
    const cursor = mode === 'undo' ? Number.MAX_SAFE_INTEGER : -1;
    claimMarker(store, newMarker(store, change.id, mode, change.label, cursor, beforeFinish?.handsOverIndexes === true));
    setLiveRun(store, [change.id], true);
    total = change.rows;
    return change.id;
  });
  const pacer = new Pacer(store, p);
  let done = 0;
  onProgress?.(0, total, mode);
  const counted = (n: number) => onProgress?.((done += n), total, mode);
  // Where each row sat before this run wrote it, so that a cancel puts it back byte for byte.
  const placements = new Map<string, unknown>();
  try {
    let hold = beforeFinish !== undefined;
    for (;;) {
      if (shouldCancel()) {
        const change = store.journal.get(id);
        pacer.end();
        await turnBack(store, p, [], done, (d, t) => onProgress?.(d, t, 'take-back'), placements);
        throw replayCancelled(mode, change);
      }
      const step = await pacer.take(() => replayStep(store, mode, batchBudget(p), { onRows: counted, holdEnd: hold, keepPlacements: placements }));
      if (step === true) break;
      if (step === 'held') {
        hold = false;
        await beforeFinish!({ cancelled: shouldCancel, progress: onProgress ?? (() => {}) });
        continue;
      }
      await pacer.between();
    }
  } finally {
    pacer.end();
    setLiveRun(store, [id], false);
  }
  return store.journal.get(id);
}

/**
 * Called on every writable open: a marker left by a process that is gone means its change was
 * cut short. A half-written change is rolled back, a half-done undo or redo is completed, so the
 * store is wholly before or wholly after. Returns what was done, for a warning; null otherwise.
 */
export function recoverInterruptedRun(store: JournalledStore): string | null {
  if (store.readonly || !store.hasMnemo() || !runInProgress(store)) return null;
  // One transaction, no pacing: the open waits until the store is whole again. The marker is read
  // again inside it, so two processes opening at once recover once.
  return store.transaction(() => {
    const m = runInProgress(store);
    if (!m || markerIsLive(store, m)) return null;
    const unbounded = () => false;
    if (m.mode === 'record') {
      rollbackStep(store, m.change_id, unbounded);
      return `change #${m.change_id} (${m.label}) was cut short by process ${m.pid} and has been rolled back; the store is as it was before it`;
    }
    replayStep(store, m.mode, unbounded);
    const more = m.queue?.length ? ` (with the ${m.queue.length === 1 ? 'change' : `${m.queue.length} changes`} queued after it)` : '';
    if (m.revert) return `the cancelled ${m.mode === 'undo' ? 'redo' : 'undo'} of change #${m.change_id} (${m.label})${more} was cut short by process ${m.pid} while it was being taken back; the taking back has been completed`;
    return `the ${m.mode} of change #${m.change_id} (${m.label})${more} was cut short by process ${m.pid} and has been completed`;
  });
}
