/**
 * The change journal: every mutating operation runs as one change that records before- and
 * after-images of each row it touched (a memory row with its embedding and outgoing edges, or a
 * row of another registered kind such as a tombstone). Undo writes the before-images back; redo
 * writes the after-images. A change cannot be undone while a later, still-applied change touched
 * one of its rows: the refusal names that change.
 *
 * Accesses (recall, search, injection) are not changes: they only append to the ring and bump
 * counters. So that a recall in between does not block an undo, a memory whose only drift since
 * the change is access bookkeeping is restored field by field, keeping the newer accesses and
 * shifting strength by the change's own delta.
 *
 * The kinds of row a journal can restore are handed to it when the store opens (its own memory and
 * tombstone rows, plus what the opener adds, such as belief aliases): no module registers itself
 * by being imported, so what a process can undo never depends on what it happened to import.
 */
import { MnemoError, notFound } from '../../errors.js';
import { ownerMayWrite } from '../../model/owner.js';
import { currentCredentialId, withAgentMeta } from '../port/attribution.js';
import type { ErasedNote } from '../port/erase.js';
import { isErasedImage } from './erase-markers.js';

const withMeta = (meta: Record<string, unknown> | undefined): string | null => {
  const m = withAgentMeta(meta);
  return m ? JSON.stringify(m) : null;
};
import type { StoreHandle } from './store-handle.js';
import type { ChangeRow, ChangeSummary } from '../port/store-rows.js';

/**
 * A kind of row the journal can snapshot and restore, addressed by `<ns>:<key>`. `S` is the store
 * its restore needs (a target above the store layer may ask for the whole MemoryStore).
 */
export interface JournalTarget<S extends StoreHandle = StoreHandle> {
  ns: string;
  /** The row's current image, read through the store's own connection (null = no such row). */
  snapshot(store: S, key: string): unknown | null;
  /**
   * Writes `image` back (null = the row must not exist). `expected` is the image the journal last
   * wrote; `placement`, when known, is where the row sat when that image was taken (below).
   */
  restore(store: S, key: string, image: unknown | null, expected: unknown | null, placement?: unknown): void;
  /**
   * Where the row sits in its tables beyond what its image says (SQLite: the rowids of a memory's
   * edges, which every save numbers anew). Not journalled: the backends number rows differently,
   * and the journal's images are the same text on both. A long change keeps it in memory for the
   * rows it is about to write, so a take-back after a cancel puts each row back exactly where it
   * was, byte for byte; a restore without it writes the same rows, numbered anew.
   */
  placement?(store: S, key: string): unknown;
  /** Ids of memories affected, for listeners (e.g. the vector index). */
  memoryIds?(key: string): string[];
  /**
   * Restoring these rows alone would leave what a layer above derives from them behind: the store
   * refuses to restore them unless it was opened with a JournalFollowUp for this `ns`.
   */
  needsFollowUp?: boolean;
}

interface OpenChange {
  captured: Map<string, unknown | null>;
  order: string[];
  /** A batch of a long change also keeps each row's placement (JournalTarget.placement)… */
  placements?: Map<string, unknown>;
  /** …of the rows it asks for (those the run has not recorded yet: a placement is a read, a round trip on PostgreSQL). */
  wantsPlacement?: (key: string) => boolean;
}

/** A row a batch touched: its key, its image before the batch, and where it sat then. */
export interface TouchedRow {
  key: string;
  before: unknown | null;
  placement: unknown;
}

/** A change's summary as its table holds it (counts and meta as JSON text). */
export interface RawSummary extends Omit<ChangeSummary, 'counts' | 'meta'> {
  counts: string;
  meta: string | null;
}

/** A journal row as its table holds it (the images as JSON text). */
export interface RawChangeRow {
  key: string;
  before: string | null;
  after: string | null;
}

/**
 * The journal's tables, as one adapter keeps them (sqlite-journal-sql.ts, pg/pg-journal-sql.ts):
 * the journal's logic is the same on every backend, only its statements differ.
 */
export interface JournalSql {
  /** Inserts an applied change; returns its id. */
  insertChange(c: { ts: number; label: string; kind: string; counts: string; meta: string | null; credentialId: string | null }): number;
  insertRows(changeId: number, rows: readonly RawChangeRow[]): void;
  /** Newest first; `credentialId` narrows to one credential's changes, or (null) to those made without one. */
  history(limit: number, offset: number, credentialId?: string | null): RawSummary[];
  summary(changeId: number): RawSummary | null;
  /** In the order they were written. */
  rows(changeId: number): RawChangeRow[];
  /** The applied changes after `sinceSeq` (other than this one) that touched a row this change touched, oldest first. */
  blockerIds(changeId: number, sinceSeq: number): number[];
  /** Marks it undone at `now`, with the journal's head and the next undo order. */
  markUndone(changeId: number, now: number): void;
  /** The change undone most recently, or null. */
  lastUndoneId(): number | null;
  /** The journal's head when the change was undone (null: not recorded). */
  undoneSeq(changeId: number): number | null;
  markRedone(changeId: number): void;
  /** The still-applied changes that depend on this one, newest first (journal-dependents.ts). */
  dependentIds(changeId: number): number[];
  /** Owners of the memories and tombstones these changes touched ('' for unowned). */
  ownersTouched(changeIds: number[]): string[];
  /** Names the change in the change feed's rows the transaction writes from here on (a no-op without a feed). */
  attributeFeedTo(changeId: number): void;

  // A change written, undone or redone in batches (change-run.ts).
  /** Moves the after-images of rows a change already holds (one statement where a statement is a round trip). */
  moveAfter(changeId: number, rows: readonly { key: string; after: string | null }[]): void;
  /** Removes one row of a change, by key. */
  dropRow(changeId: number, key: string): void;
  /** Removes a change's own row (its rows are gone, or it changed nothing). */
  deleteChange(changeId: number): void;
  /** Sets a finished change's counts and meta. */
  closeChange(changeId: number, counts: string, meta: string): void;
  /**
   * Up to `limit` rows of a change past a cursor on their rowid: `down`, below it newest first
   * (an undo, a rollback); `up`, above it oldest first (a redo).
   */
  rowsPast(changeId: number, direction: 'down' | 'up', cursor: number, limit: number): (RawChangeRow & { rowid: number })[];
  /** Removes one journal row by its rowid. */
  dropRowId(rowid: number): void;
  /** Removes a row of `mnemo_meta` (a run's marker). */
  deleteMeta(key: string): void;
  /** What the pauses between a run's batches do besides waiting (SQLite's WAL checkpoints), or null. */
  runCheckpoints(): RunCheckpoints | null;

  // Guards against writers on other connections, held until the transaction ends (pg/pg-journal-guards.ts
  // says why). SQLite has one writer at a time, so there they do nothing but claim the marker.
  /** Locks these changes' own journal rows: a second undo or redo of one waits, then reads its new state. */
  lockChanges(changeIds: readonly number[]): void;
  /** Locks the existing rows these changes touched: another writer of one waits for the undo or redo to end. */
  lockTouched(changeIds: readonly number[]): void;
  /**
   * Holds the row a change is about to capture until the transaction ends, so its before-image stays
   * true until the write: another change capturing it, or an undo restoring it, waits. Memories and
   * tombstones are locked as rows where they are read; this is for the other journalled rows (saved
   * profiles, meta values, belief aliases and rejections), which may not exist yet.
   */
  lockKey(key: string): void;
  /** Writes a `mnemo_meta` row unless the key has one (committed, or being written by a transaction it waits for); false when it had. */
  claimMeta(key: string, value: string): boolean;
}

/**
 * The maintenance a backend does in the pauses of a long run instead of inside its commits: SQLite
 * copies its WAL back (change-run.ts, Pacer). `suspend` turns the automatic copy off for the run,
 * `resume` puts it back.
 */
export interface RunCheckpoints {
  suspend(): void;
  checkpoint(): void;
  resume(): void;
}

/** `mnemo_meta` key of the marker a long change keeps while it is being written (change-run.ts). */
export const RUN_MARKER_KEY = 'journal_run';

/** A store with its journal (what tombstones and change runs write through). */
export interface JournalledStore extends StoreHandle {
  readonly journal: Journal;
}

/** What a layer above does after a row of kind `ns` is restored (port.ts JournalFollowUp, for this store type). */
export interface RestoreFollowUp<S> {
  ns: string;
  afterRestore(store: S, key: string, image: unknown | null, expected: unknown | null): void;
}

export class Journal<S extends StoreHandle = StoreHandle> {
  private open: OpenChange | null = null;
  private readonly targets = new Map<string, JournalTarget<S>>();
  private readonly followUps = new Map<string, RestoreFollowUp<S>>();

  constructor(
    private readonly store: S,
    /** The journal's statements, which a long change (change-run.ts) writes through too. */
    readonly sql: JournalSql,
    targets: readonly JournalTarget<S>[],
    followUps: readonly RestoreFollowUp<S>[] = [],
  ) {
    for (const t of targets) {
      if (this.targets.has(t.ns)) throw new MnemoError('internal', `two journal targets for the row kind "${t.ns}"`);
      this.targets.set(t.ns, t);
    }
    for (const f of followUps) {
      if (this.followUps.has(f.ns)) throw new MnemoError('internal', `two journal follow-ups for the row kind "${f.ns}"`);
      this.followUps.set(f.ns, f);
    }
  }

  /** The row kinds this journal can snapshot and restore. */
  get kinds(): string[] {
    return [...this.targets.keys()];
  }

  private targetFor(key: string): JournalTarget<S> {
    const ns = key.slice(0, key.indexOf(':'));
    const t = this.targets.get(ns);
    if (!t) {
      throw new MnemoError('internal', `this store was opened without the journal target for "${ns}" rows, so it cannot snapshot or restore them (it knows ${this.kinds.join(', ')})`, { kind: ns });
    }
    return t;
  }

  get active(): boolean {
    return this.open !== null;
  }

  /** Records the before-image of a row the first time the open change touches it. */
  capture(key: string): void {
    if (!this.open || this.open.captured.has(key)) return;
    this.sql.lockKey(key);
    const target = this.targetFor(key);
    const before = target.snapshot(this.store, key.slice(key.indexOf(':') + 1));
    this.open.captured.set(key, before);
    if (this.open.placements && (this.open.wantsPlacement?.(key) ?? true)) this.open.placements.set(key, target.placement?.(this.store, key.slice(key.indexOf(':') + 1)));
    this.open.order.push(key);
  }

  record<T>(label: string, kind: string, fn: () => T, meta?: Record<string, unknown>): { result: T; changeId: number | null } {
    if (this.open) return { result: fn(), changeId: null }; // joins the outer change
    const store = this.store;
    return store.transaction(() => {
      store.ensureMnemo();
      this.open = { captured: new Map(), order: [] };
      let result: T;
      try {
        result = fn();
      } catch (err) {
        this.open = null;
        throw err;
      }
      const open = this.open;
      this.open = null;
      const rows: ChangeRow[] = [];
      for (const key of open.order) {
        const after = this.targetFor(key).snapshot(store, key.slice(key.indexOf(':') + 1));
        const before = open.captured.get(key) ?? null;
        if (JSON.stringify(before) === JSON.stringify(after)) continue;
        rows.push({ key, before, after });
      }
      if (rows.length === 0) return { result, changeId: null };
      const counts = countRows(rows);
      const changeId = this.sql.insertChange({
        ts: store.clock.now(),
        label,
        kind,
        counts: JSON.stringify(counts),
        meta: withMeta(meta),
        credentialId: currentCredentialId(),
      });
      this.sql.attributeFeedTo(changeId);
      this.sql.insertRows(
        changeId,
        rows.map((r) => ({ key: r.key, before: r.before === null ? null : JSON.stringify(r.before), after: r.after === null ? null : JSON.stringify(r.after) })),
      );
      return { result, changeId };
    });
  }

  /**
   * Runs one batch of a long change (change-run.ts) with capture open, inside the caller's
   * transaction; returns the rows the batch touched, each with its image from before the batch.
   */
  captureBatch<T>(fn: () => T, wantsPlacement?: (key: string) => boolean): { result: T; touched: TouchedRow[] } {
    if (this.open) throw new MnemoError('internal', 'a change is already open on this connection');
    this.open = { captured: new Map(), order: [], placements: new Map(), ...(wantsPlacement ? { wantsPlacement } : {}) };
    try {
      const result = fn();
      const open = this.open;
      return { result, touched: open.order.map((key) => ({ key, before: open.captured.get(key) ?? null, placement: open.placements?.get(key) })) };
    } finally {
      this.open = null;
    }
  }

  /** The current image of a journalled row. */
  snapshot(key: string): unknown | null {
    return this.targetFor(key).snapshot(this.store, key.slice(key.indexOf(':') + 1));
  }

  /** Where a journalled row sits now (JournalTarget.placement); undefined for a kind without one. */
  placement(key: string): unknown {
    return this.targetFor(key).placement?.(this.store, key.slice(key.indexOf(':') + 1));
  }

  /**
   * Changes, newest first. `credentialId` narrows them to those made with one credential, or (null)
   * to those made without one.
   */
  history(limit = 100, offset = 0, credentialId?: string | null): ChangeSummary[] {
    if (!this.store.hasMnemo()) return [];
    return this.sql.history(limit, offset, credentialId).map(parseSummary);
  }

  get(changeId: number): ChangeSummary {
    if (!this.store.hasMnemo()) throw notFound(`no change #${changeId}: this store has no journal yet`);
    const row = this.sql.summary(changeId);
    if (!row) throw notFound(`no change #${changeId} in the journal; list changes with "mnemo history"`, { change_id: changeId });
    return parseSummary(row);
  }

  rows(changeId: number): ChangeRow[] {
    return this.sql.rows(changeId).map((r) => ({
      key: r.key,
      before: r.before === null ? null : (JSON.parse(r.before) as unknown),
      after: r.after === null ? null : (JSON.parse(r.after) as unknown),
    }));
  }

  /**
   * The applied changes after `sinceSeq` that touched a row this change touched. Asked from the
   * later changes' side, one statement: its cost follows what was written since (an agent's few
   * rows), not the size of this change. Looking up each of a 100k-row change's keys instead took
   * seconds inside the undo's first transaction, with the write lock held.
   */
  private blockers(changeId: number, sinceSeq: number): ChangeSummary[] {
    return this.sql.blockerIds(changeId, sinceSeq).map((id) => this.get(id));
  }

  /**
   * Locks a change's journal row and the rows it touched before anything is read from them, so
   * what the checks below find stays true until the transaction ends (pg/pg-journal-guards.ts).
   */
  private guard(changeIds: readonly number[]): void {
    this.sql.lockChanges(changeIds);
    this.sql.lockTouched(changeIds);
  }

  /** Throws unless the change can be undone now; returns it. Call inside the write transaction. */
  checkUndo(changeId: number): ChangeSummary {
    this.guard([changeId]);
    const change = this.get(changeId);
    if (change.state === 'undone') throw new MnemoError('conflict', `change #${changeId} (${change.label}) is already undone; redo it with "mnemo redo"`);
    this.refuseWhileRunning(change);
    refuseErased(change, 'undo');
    const blockers = this.blockers(changeId, changeId);
    if (blockers.length) {
      const list = blockers.map((b) => `#${b.id} (${b.label})`).join(', ');
      throw new MnemoError('conflict', `cannot undo change #${changeId} (${change.label}): later change ${list} touched the same rows; undo ${blockers.length > 1 ? 'those' : 'it'} first, or undo this change together with the changes that depend on it`, {
        blocked_by: blockers.map((b) => b.id),
        with_dependents: true,
      });
    }
    return change;
  }

  /** The still-applied later changes that depend on this one (journal-dependents.ts), newest first. */
  dependents(changeId: number): ChangeSummary[] {
    this.get(changeId);
    return this.sql.dependentIds(changeId).map((id) => this.get(id));
  }

  /**
   * Throws unless this change and every change that depends on it can be undone now; returns the
   * group in undo order (the dependants newest first, the change itself last). `actorOwner` is the
   * owner policy of a scoped caller: a group that touched a memory that owner may not write is
   * refused whole. Call inside the write transaction.
   */
  checkUndoWithDependents(changeId: number, actorOwner?: string): ChangeSummary[] {
    // A dependant committed while the group was being locked joins it: lock again until none does.
    let locked = new Set<number>();
    for (;;) {
      const ids = [changeId, ...this.sql.dependentIds(changeId)];
      if (ids.every((id) => locked.has(id))) break;
      this.guard(ids.filter((id) => !locked.has(id)));
      locked = new Set([...locked, ...ids]);
    }
    const change = this.get(changeId);
    if (change.state === 'undone') throw new MnemoError('conflict', `change #${changeId} (${change.label}) is already undone; redo it with "mnemo redo"`);
    const group = [...this.dependents(changeId), change];
    for (const c of group) {
      this.refuseWhileRunning(c);
      refuseErased(c, 'undo');
    }
    if (actorOwner !== undefined) {
      const foreign = this.sql.ownersTouched(group.map((c) => c.id)).filter((o) => !ownerMayWrite(o, actorOwner));
      if (foreign.length) {
        throw new MnemoError(
          'permission',
          `cannot undo change #${changeId} (${change.label})${withDependents(group.length - 1)}: the group touched memories of ${foreign.map((o) => JSON.stringify(o)).join(', ')}; cross-owner writes are not allowed (you are ${JSON.stringify(actorOwner)})`,
          { change_id: changeId, owners: foreign },
        );
      }
    }
    return group;
  }

  /** A change still being written in batches (or being undone or redone in batches) cannot be undone or redone yet. */
  private refuseWhileRunning(change: ChangeSummary): void {
    const raw = this.store.getMeta(RUN_MARKER_KEY);
    if (!raw) return;
    const running = JSON.parse(raw) as { change_id: number; mode: string };
    if (running.change_id !== change.id) return;
    throw new MnemoError('busy', `change #${change.id} (${change.label}) is still being ${running.mode === 'undo' ? 'undone' : running.mode === 'redo' ? 'redone' : 'written'}; wait for it to finish`, {
      change_id: change.id,
    });
  }

  /** Marks a change undone once its before-images are written back. */
  markUndone(changeId: number): ChangeSummary {
    this.sql.markUndone(changeId, this.store.clock.now());
    return this.get(changeId);
  }

  undo(changeId: number): ChangeSummary {
    return this.store.transaction(() => {
      this.checkUndo(changeId);
      this.writeImages(this.rows(changeId), 'before', changeId);
      return this.markUndone(changeId);
    });
  }

  /** The change a redo would redo (the given one, or the most recently undone); throws unless it can be redone now. */
  checkRedo(changeId?: number): ChangeSummary {
    let id = changeId;
    if (id === undefined) {
      const last = this.sql.lastUndoneId();
      if (last === null) throw new MnemoError('conflict', 'nothing to redo: no change is undone');
      id = last;
    }
    this.guard([id]);
    const change = this.get(id);
    if (change.state !== 'undone') throw new MnemoError('conflict', `change #${id} (${change.label}) is not undone, so there is nothing to redo`);
    this.refuseWhileRunning(change);
    refuseErased(change, 'redo');
    const undoneSeq = this.sql.undoneSeq(id) ?? id;
    const blockers = this.blockers(id, undoneSeq);
    if (blockers.length) {
      const list = blockers.map((b) => `#${b.id} (${b.label})`).join(', ');
      throw new MnemoError('conflict', `cannot redo change #${id} (${change.label}): change ${list}, made after the undo, touched the same rows`, {
        blocked_by: blockers.map((b) => b.id),
      });
    }
    return change;
  }

  markRedone(changeId: number): ChangeSummary {
    this.sql.markRedone(changeId);
    return this.get(changeId);
  }

  /** Redoes the given change, or the most recently undone one. */
  redo(changeId?: number): ChangeSummary {
    return this.store.transaction(() => {
      const change = this.checkRedo(changeId);
      this.writeImages(this.rows(change.id), 'after', change.id);
      return this.markRedone(change.id);
    });
  }

  /**
   * Writes back one side of these rows (undo order for 'before'); used by undo, redo and change runs.
   * `changeId` is the change being undone or redone: the change feed's rows of these writes name it.
   */
  writeImages(rows: ChangeRow[], side: 'before' | 'after', changeId?: number, placementOf?: (key: string) => unknown): void {
    if (changeId !== undefined) this.sql.attributeFeedTo(changeId);
    const affected = new Set<string>();
    // Memory rows first in reverse order for undo, so rows are recreated before edges point at them.
    const ordered = side === 'before' ? [...rows].reverse() : rows;
    for (const r of ordered) {
      const key = r.key.slice(r.key.indexOf(':') + 1);
      const target = this.targetFor(r.key);
      const followUp = this.followUps.get(target.ns);
      if (target.needsFollowUp && !followUp) {
        throw new MnemoError('internal', `this store was opened without the journal target for "${target.ns}" rows, so it cannot restore them and what is derived from them (open it through an Engine with the belief layer's journalFollowUps, as every door does)`, { kind: target.ns });
      }
      const [image, expected] = side === 'before' ? [r.before, r.after] : [r.after, r.before];
      // The change's note refuses this before anything is written (refuseErased); this is the last guard.
      if (isErasedImage(image)) throw erasedError(r.key, image.erased);
      target.restore(this.store, key, image, expected, placementOf?.(r.key));
      followUp?.afterRestore(this.store, key, image, expected);
      for (const id of target.memoryIds?.(key) ?? []) affected.add(id);
    }
    for (const id of affected) this.store.emit(this.store.exists(id) ? { kind: 'upsert', id } : { kind: 'delete', id });
  }
}

/**
 * An erase cannot be undone, and a change whose images an erase replaced cannot be undone (or
 * redone) where that would need the erased content back: the side it would write holds markers
 * (shared/erase-memories.ts notes how many on each side in `meta.erased`).
 */
function refuseErased(change: ChangeSummary, op: 'undo' | 'redo'): void {
  if (change.kind === 'erase') {
    throw new MnemoError('conflict', `change #${change.id} (${change.label}) is an erase: what it removed is gone, so it cannot be ${op === 'undo' ? 'undone' : 'redone'}`, { change_id: change.id, reason: 'erase' });
  }
  const note = change.meta?.['erased'] as ErasedNote | undefined;
  if (!note) return;
  const n = op === 'undo' ? note.before : note.after;
  if (!n) return;
  throw new MnemoError(
    'conflict',
    `cannot ${op} change #${change.id} (${change.label}): it would write back ${n === 1 ? 'a row' : `${n} rows`} whose content was erased at ${new Date(note.at * 1000).toISOString()} by ${note.by} (change #${note.change_id}); that content is gone`,
    { change_id: change.id, reason: 'erased', erased_by_change: note.change_id, erased_at: note.at, erased_rows: n },
  );
}

function erasedError(key: string, mark: { at: number; by: string; change_id: number }): MnemoError {
  return new MnemoError('conflict', `the journal row ${key} was erased at ${new Date(mark.at * 1000).toISOString()} by ${mark.by} (change #${mark.change_id}); its content is gone and cannot be written back`, {
    reason: 'erased',
    erased_by_change: mark.change_id,
  });
}

/** " with the change that depends on it", " with the 3 changes that depend on it", or nothing. */
function withDependents(n: number): string {
  return n === 0 ? '' : n === 1 ? ' with the change that depends on it' : ` with the ${n} changes that depend on it`;
}

function parseSummary(r: RawSummary): ChangeSummary {
  return { ...r, counts: JSON.parse(r.counts) as Record<string, number>, meta: r.meta ? (JSON.parse(r.meta) as Record<string, unknown>) : null };
}

function countRows(rows: ChangeRow[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of rows) tallyRow(counts, r.key, r.before === null ? 'created' : r.after === null ? 'deleted' : 'modified');
  return counts;
}

/** Adds one row to a change's counts (`memories_created`, `t_deleted`, …). */
export function tallyRow(counts: Record<string, number>, key: string, what: 'created' | 'deleted' | 'modified'): void {
  const ns = key.slice(0, key.indexOf(':'));
  const k = `${ns === 'm' ? 'memories' : ns}_${what}`;
  counts[k] = (counts[k] ?? 0) + 1;
}
