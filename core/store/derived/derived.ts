/**
 * Keeps an in-memory structure derived from the store (vector index, keyword index, …) in step
 * with it: built lazily on first use, patched row by row on our own writes and on the rows another
 * process changed (the store diffs per-row digests when `data_version` moves), rebuilt after a
 * reset (the first commit by another process, a large external change, or a bulk load).
 *
 * An index that can snapshot itself (PersistableIndex) is, when the engine keeps snapshots
 * (index-snapshots.ts), read from the sidecar instead of rebuilt and patched with what the change
 * feed says changed since (derived-snapshot.ts).
 */
import type { FeedPosition, StoreReader } from '../port/port.js';
import { patchChanged, type DerivedIndex, type LoadStep, type PersistableIndex, type SidecarResidentIndex } from './derived-index.js';
import { DerivedSnapshot } from './derived-snapshot.js';
import type { IndexSnapshots } from './index-snapshots.js';

/** How a Derived is kept in the sidecar; `fresh` makes an empty index of the same kind (for a hand-over, index-handoff.ts). */
export interface DerivedPersistence<T> {
  name: string;
  snapshots: IndexSnapshots;
  fresh?: () => T;
}

/** A second copy of the index, loaded from a snapshot another process left, waiting to be swapped in. */
interface PreparedCopy<T> {
  index: T;
  snapshot: DerivedSnapshot;
  position: FeedPosition;
}

export type { DerivedIndex, LoadProgress, LoadStep, PersistableIndex, SidecarResidentIndex } from './derived-index.js';

interface StepBuild {
  steps: Iterator<LoadStep, FeedPosition | null>;
  /** Rows changed during the build, by id (the last change decides). */
  changed: Map<string, 'delete' | 'update'>;
  /** The store was reset during the build: build again. */
  reset: boolean;
}

/** Runs the rest of a stepped build now; returns what it returns. */
function drain<R>(steps: Iterator<LoadStep, R>): R {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** An index without a snapshot: its own steps, or its load in one go. */
function* loadThenReturn(store: StoreReader, index: DerivedIndex, before: FeedPosition | null): Generator<LoadStep, FeedPosition | null> {
  if (index.loadSteps) {
    const steps = index.loadSteps(store);
    for (let step = steps.next(); !step.done; step = steps.next()) yield step.value;
  } else {
    index.load(store);
  }
  return before;
}

export function isPersistable(index: DerivedIndex): index is PersistableIndex {
  return typeof (index as Partial<PersistableIndex>).saveSnapshot === 'function';
}

function isSidecarResident(index: DerivedIndex): index is SidecarResidentIndex {
  return typeof (index as Partial<SidecarResidentIndex>).recordPosition === 'function';
}

export class Derived<T extends DerivedIndex> {
  private stale = true;
  private readonly unsubscribe: () => void;
  private current: T;
  private snapshot: DerivedSnapshot | null;
  private prepared: PreparedCopy<T> | null = null;
  /** A feed position the index reflects at least (what its listeners had heard at the last read). */
  private position: FeedPosition | null = null;
  /** Whether to follow the feed position at all (snapshots on for this engine). */
  private readonly tracksPosition: boolean;
  private readonly unregister: () => void;
  /** A build getReady() is stepping through, and the changes that arrived meanwhile. */
  private building: StepBuild | null = null;

  constructor(
    private readonly store: StoreReader,
    index: T,
    private readonly persistence?: DerivedPersistence<T>,
  ) {
    this.current = index;
    this.snapshot = persistence && isPersistable(index) ? new DerivedSnapshot(store, index, persistence.name, persistence.snapshots) : null;
    this.tracksPosition = !!persistence?.snapshots.enabled && (isPersistable(index) || isSidecarResident(index));
    this.unregister = this.snapshot
      ? persistence!.snapshots.register({ persist: () => this.persistNow(), prepare: (at) => this.prepareAhead(at), topUp: () => this.topUpPrepared() })
      : () => {};
    this.unsubscribe = store.onChange((e) => {
      if (this.building) {
        // The build may already have read this row: patch it again once the build is done.
        if (e.kind === 'reset') this.building.reset = true;
        else this.building.changed.set(e.id, e.kind === 'delete' ? 'delete' : 'update');
        return;
      }
      if (this.stale) return;
      if (e.kind === 'reset' || e.kind === 'delete') {
        if (e.kind === 'reset') this.stale = true;
        else this.index.remove(e.id);
        this.snapshot?.notePatch();
        return;
      }
      if (patchChanged(this.index, this.store, e.id, e.kind, e.kind === 'usage' ? e.row : undefined)) this.snapshot?.notePatch(e.kind);
    });
  }

  /** The index as it stands (get() brings it up to date first). */
  get index(): T {
    return this.current;
  }

  /** The index, current with the store (checks for other processes' commits first). */
  get(): T {
    this.store.catchUp();
    // What the listeners have been told, not the feed's end: while another process writes a long
    // change its rows are held back, and a snapshot must not claim them.
    const before = this.tracksPosition ? this.store.heardPosition() : null;
    this.persistence?.snapshots.checkHandoff();
    // A build getReady() is stepping through finishes here, now: this caller cannot wait.
    if (this.building) this.finish(this.building, drain(this.building.steps));
    if (this.stale) {
      this.position = drain(this.buildSteps(before));
      this.stale = false;
    } else if (before) {
      this.position = before;
    }
    // Caught up past a copy loaded ahead without needing it (the change was patched in): let it go.
    if (this.prepared && this.position && (this.position.epoch !== this.prepared.position.epoch || this.position.seq >= this.prepared.position.seq)) this.dropPrepared();
    if (this.position) this.snapshot?.saveIfDue(this.position);
    return this.current;
  }

  /** Writes the index's snapshot now if it changed since the last one (IndexSnapshots.persistAllNow). */
  persistNow(): void {
    if (!this.stale && !this.building && this.position) this.snapshot?.saveNow(this.position);
  }

  /**
   * Brings the index up to date as get() does, but a full build runs in steps with `pause()`
   * awaited between them, so the process answers other calls meanwhile (the workbench polls the
   * build's progress). Changes that arrive during the build are patched in once it is done; a
   * get() during the build finishes it at once. Callers that share a build each wait for it.
   */
  async getReady(pause: () => Promise<void>): Promise<void> {
    if (!this.building) {
      if (!this.stale) return;
      // Another process building this very index: its snapshot, loaded below, spares building it twice.
      if (this.snapshot && !this.prepared) await this.snapshot.awaitOthersBuild();
      if (this.building) return this.getReady(pause);
      if (!this.stale) return;
      this.store.catchUp();
      const before = this.tracksPosition ? this.store.heardPosition() : null;
      if (!this.stale) return;
      this.building = { steps: this.buildSteps(before), changed: new Map(), reset: false };
    }
    const build = this.building;
    while (this.building === build) {
      const step = build.steps.next();
      if (step.done) {
        this.finish(build, step.value);
        if (this.position) this.snapshot?.saveIfDue(this.position);
        return;
      }
      await pause();
    }
  }

  invalidate(): void {
    this.stale = true;
  }

  /**
   * Loads, from the snapshot a long change's writer left (index-handoff.ts), a second copy of an
   * index in use here, while this one keeps answering; the next rebuild swaps it in instead.
   */
  prepareAhead(at: FeedPosition): Array<() => void> | void {
    const fresh = this.persistence?.fresh;
    if (!fresh || !this.snapshot || this.stale || this.building || !this.position) return;
    if (at.epoch !== this.position.epoch || at.seq <= this.position.seq) return;
    const had = this.prepared?.position;
    if (had && had.epoch === at.epoch && had.seq >= at.seq) return;
    this.dropPrepared();
    const index = fresh();
    const snapshot = new DerivedSnapshot(this.store, index as T & PersistableIndex, this.persistence.name, this.persistence.snapshots);
    // Read back as the writer left it; what others wrote since is patched in on a turn of its own
    // (the agents' accesses of the seconds the writer spent writing: at 100k, as long as the read).
    const position = snapshot.restoreAt(at, { patch: false });
    if (!position) {
      snapshot.cancel();
      index.dispose?.();
      return;
    }
    const prepared: PreparedCopy<T> = { index, snapshot, position };
    this.prepared = prepared;
    return [
      () => {
        if (this.prepared === prepared) this.topUpPrepared();
      },
      // What the restore left for first use is read now, between calls, not in the call after the swap.
      () => {
        if (this.prepared === prepared) (index as Partial<PersistableIndex>).warm?.();
      },
    ];
  }

  /**
   * Patches the copy prepareAhead loaded up to the feed's end, between calls, so the swap after the
   * marker clears patches only what came since. One that is too far behind is left for the swap,
   * which then rebuilds.
   */
  topUpPrepared(): void {
    const prepared = this.prepared;
    if (!prepared) return;
    const position = prepared.snapshot.patchSince(prepared.position);
    if (position) prepared.position = position;
  }

  /** Swaps in the copy prepareAhead loaded, patched up to now; its position, or null when there is none that fits. */
  private adoptPrepared(before: FeedPosition | null): FeedPosition | null {
    const prepared = this.prepared;
    if (!prepared) return null;
    this.prepared = null;
    const position = before && prepared.position.epoch === before.epoch && prepared.position.seq <= before.seq ? prepared.snapshot.patchSince(prepared.position) : null;
    if (!position) {
      prepared.snapshot.cancel();
      prepared.index.dispose?.();
      return null;
    }
    const old = this.current;
    this.snapshot?.cancel();
    this.current = prepared.index;
    this.snapshot = prepared.snapshot;
    if (old !== this.current) old.dispose?.();
    return position;
  }

  private dropPrepared(): void {
    const prepared = this.prepared;
    this.prepared = null;
    if (!prepared) return;
    prepared.snapshot.cancel();
    prepared.index.dispose?.();
  }

  /** Loads or builds the index, a step per yield; returns the feed position it reflects at least. */
  private buildSteps(before: FeedPosition | null): Iterator<LoadStep, FeedPosition | null> {
    const adopted = this.adoptPrepared(before);
    if (adopted) return { next: () => ({ done: true, value: adopted }) };
    if (this.snapshot) return this.snapshot.loadOrBuildSteps(before);
    return loadThenReturn(this.store, this.index, before);
  }

  private finish(build: StepBuild, position: FeedPosition | null): void {
    this.building = null;
    this.stale = build.reset;
    if (build.reset) return;
    this.position = position;
    for (const [id, kind] of build.changed) {
      if (kind === 'delete') this.index.remove(id);
      else this.index.update(this.store, id);
      this.snapshot?.notePatch();
    }
  }

  dispose(): void {
    const closedMidBuild = this.building !== null;
    if (this.building) {
      // Closed mid-build: the half-built index is dropped with its engine.
      this.building = null;
      this.stale = true;
    }
    this.unsubscribe();
    this.unregister();
    this.dropPrepared();
    if (!this.stale && this.position) {
      this.snapshot?.saveOnClose(this.position);
      if (isSidecarResident(this.index)) {
        try {
          this.index.recordPosition(this.position, this.store.clock.now());
        } catch (err) {
          // Closing must not fail over it: the position stays older and the next open patches a little more.
          this.store.warn('index-position', `could not record how far the list's text search is current (${(err as Error).message})`);
        }
      }
    }
    this.snapshot?.reportKeep(this.position, closedMidBuild ? 'mid-build' : this.stale ? 'stale' : 'current');
    this.snapshot?.cancel();
    this.index.dispose?.();
  }
}
