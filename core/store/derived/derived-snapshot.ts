/**
 * One derived index's life in the index sidecar: on load, read its snapshot and patch what the
 * change feed says changed since (or build it, once, and report the build); afterwards, write a
 * new snapshot when it was built here or has been patched a good deal, off the path of the call
 * that triggered it and a piece per turn of the event loop; at close, finish or write it so the
 * next process (an agent after a big reflection apply) opens fast.
 */
import { patchChanged, skipsPatch, type LoadStep, type PatchKind, type PersistableIndex } from './derived-index.js';
import { changeKindOf } from '../port/feed-position.js';
import type { IndexSidecar, SnapshotWrite } from './index-sidecar.js';
import type { IndexSnapshots } from './index-snapshots.js';
import type { FeedChanges, FeedPosition, StoreReader } from '../port/port.js';
import { SnapshotDamaged, SnapshotMismatch, type PartSource } from './snapshot-parts.js';
import { runMarkerPresent } from '../shared/run-marker.js';
import { countMemories } from '../shared/scoped-reads.js';

/** More changes than this since a snapshot: rebuilding is cheaper than patching. */
const PATCH_LIMIT = 20_000;
/** Patches after which a fresh snapshot is worth writing (or a twentieth of the index, if more). */
const SAVE_AFTER_PATCHES = 1_000;
/** The longest a process waits for another's build of an index (then it builds its own, as before). */
const OTHERS_BUILD_WAIT_MS = 120_000;
const OTHERS_BUILD_POLL_MS = 200;
/**
 * How many times (IndexSnapshots.retryLater: about a second each) a snapshot due through patches
 * waits for the change feed to stop moving before it is encoded anyway. Another process's erase or
 * import arrives a batch at a time; a snapshot in the middle of it is stale at once (an erase drops
 * every snapshot at its end), and encoding one holds this thread for seconds on a 100k store.
 */
const SETTLE_TRIES = 60;

export class DerivedSnapshot {
  /** Patches applied since the snapshot in the sidecar (or since the build). */
  private patches = 0;
  /**
   * Accesses patched in since then (ChangeEvent `usage`). They never make a snapshot due while the
   * process runs: every recall logs some, so with agents recalling the corpus was due every few
   * seconds, and encoding it held an agent's worker for a second each time. They count at close.
   */
  private usagePatches = 0;
  /** Built in this process and not yet written. */
  private builtHere = false;
  private position: FeedPosition | null = null;
  /** The position of the snapshot this process last wrote or loaded (or of its build): a newer one in the sidecar is another process's. */
  private since: FeedPosition | null = null;
  private writing: SnapshotWrite | null = null;
  private cancelNext: (() => void) | null = null;
  /** Live memories at this process's last build of the index (null: never built here; then its close has nothing to say). */
  private builtOver: number | null = null;
  /** A snapshot of the index as built or patched here is in the sidecar (written here, or another process's covers it). */
  private kept = false;

  constructor(
    private readonly store: StoreReader,
    private readonly index: PersistableIndex,
    private readonly name: string,
    private readonly snapshots: IndexSnapshots,
  ) {}

  /**
   * Loads the index (from its snapshot when that is current enough), in steps when it has to be
   * built (DerivedIndex.loadSteps); returns the position it reflects at least.
   */
  *loadOrBuildSteps(before: FeedPosition | null): Generator<LoadStep, FeedPosition | null> {
    const sidecar = before ? this.snapshots.sidecar() : null;
    const restored = sidecar && before ? this.restore(sidecar, before) : null;
    if (restored) {
      this.position = restored;
      return restored;
    }
    this.tryOnSidecar(() => sidecar?.markBuilding(this.name, this.index.snapshotFormat, this.index.snapshotConditions(), this.snapshots.clock.now()));
    yield* this.buildSteps();
    this.position = before;
    this.since = before;
    return before;
  }

  /**
   * Before building the index from the store: while another process builds it (or writes the
   * snapshot of its build), waits for that snapshot, polling, at most OTHERS_BUILD_WAIT_MS; the
   * load that follows then reads it instead of building. Eight agents opening one 100k store at
   * once otherwise each built every index (tens of seconds each, on shared cores).
   */
  async awaitOthersBuild(): Promise<void> {
    // No change feed, no snapshots (loadOrBuildSteps builds in memory): nothing to wait for, no file to create.
    if (!this.store.heardPosition()) return;
    const sidecar = this.snapshots.sidecar();
    if (!sidecar) return;
    const format = this.index.snapshotFormat;
    const conditions = this.index.snapshotConditions();
    // How long to wait is a duration on this machine, not a time the store records: the monotonic timer.
    const until = performance.now() + OTHERS_BUILD_WAIT_MS;
    while (!this.store.isClosed && performance.now() < until) {
      if (!this.tryOnSidecar(() => sidecar.othersBuilding(this.name, format, conditions, this.snapshots.clock.now()))) return;
      await new Promise((resolve) => setTimeout(resolve, OTHERS_BUILD_POLL_MS));
    }
  }

  /** A sidecar call whose failure only costs the coordination (a build here, as before): false then. */
  private tryOnSidecar<R>(fn: () => R): R | false {
    try {
      return fn();
    } catch {
      return false;
    }
  }

  /**
   * Restores the snapshot a long change's writer left at `at` (index-handoff.ts), patched up to the
   * feed's end (unless `patch` is false: then it stands at the snapshot's own position, and the
   * caller patches it with patchSince); null when the sidecar holds no snapshot that recent or it
   * does not fit.
   */
  restoreAt(at: FeedPosition, opts: { patch?: boolean } = {}): FeedPosition | null {
    const sidecar = this.snapshots.sidecar();
    const end = this.store.feedPosition();
    const header = sidecar?.header(this.name);
    if (!sidecar || !end || !header || header.position.epoch !== at.epoch || header.position.seq < at.seq) return null;
    const restored = this.restore(sidecar, end, opts.patch ?? true);
    if (restored) this.position = restored;
    return restored;
  }

  /** Patches what the feed says changed after `from`; the position reached, or null when too much did (rebuild instead). */
  patchSince(from: FeedPosition): FeedPosition | null {
    const changes = this.store.changedSince(from, PATCH_LIMIT);
    if (!changes) return null;
    this.apply(changes);
    this.position = changes.position;
    return changes.position;
  }

  notePatch(kind: PatchKind = 'upsert'): void {
    if (kind === 'usage') {
      this.usagePatches++;
      return;
    }
    this.patches++;
    if (this.position && this.patches >= this.threshold()) this.schedule(this.position);
  }

  /** After a read: schedules a snapshot when the index was built here or has drifted far from the stored one. */
  saveIfDue(position: FeedPosition): void {
    this.position = position;
    if (this.builtHere || this.patches >= this.threshold()) this.schedule(position);
  }

  /**
   * At engine close: finish a snapshot under way, or write a due one now (the next process opens
   * from it). One is due too when this index was patched and the sidecar holds none of it (an erase
   * drops them all; the processes that patched it in leave them again).
   */
  saveOnClose(position: FeedPosition): void {
    this.writeWhole(position, () => {
      const patches = this.patches + this.usagePatches;
      return this.builtHere || patches >= this.threshold() || (patches > 0 && this.noneStored());
    });
  }

  private noneStored(): boolean {
    const sidecar = this.snapshots.openedSidecar();
    return !!sidecar?.writable && sidecar.header(this.name) === null;
  }

  /**
   * At engine close, after saveOnClose (or without it, when the index has no position to key a
   * snapshot to): tells whether what this process built was kept, and if not, why not. A CLI
   * command says so truthfully instead of promising a snapshot it never wrote.
   */
  reportKeep(position: FeedPosition | null, closing: 'mid-build' | 'stale' | 'current'): void {
    if (this.builtOver === null) return;
    const e = { index: this.name, memories: this.builtOver };
    if (closing === 'mid-build') this.snapshots.reportKeep({ ...e, kept: false, reason: 'the command ended before its build finished' });
    else if (this.kept) this.snapshots.reportKeep({ ...e, kept: true });
    else if (closing === 'stale') this.snapshots.reportKeep({ ...e, kept: false, reason: 'the store changed too much after the build to keep it' });
    else this.snapshots.reportKeep({ ...e, kept: false, reason: this.whyNotKept(position) });
  }

  private whyNotKept(position: FeedPosition | null): string {
    if (!this.snapshots.enabled) return 'index snapshots are off (MNEMO_INDEX_SNAPSHOTS)';
    if (!position) return 'the store has no change feed to key a snapshot to (any write by Mnemo adds one)';
    const sidecar = this.snapshots.openedSidecar();
    if (!sidecar?.writable) return 'this process may not write the index file beside the store (a read-only open, or a folder it may not write)';
    return 'its snapshot could not be written (see the warning above)';
  }

  /**
   * Writes the snapshot now, whole, when the index was built or patched since the last one: a
   * process that has just written a long change leaves current snapshots before the change's
   * marker clears, so the processes beside it load them instead of rebuilding.
   */
  saveNow(position: FeedPosition): void {
    this.writeWhole(position, () => this.builtHere || this.patches + this.usagePatches > 0);
  }

  cancel(): void {
    this.cancelScheduled();
    const w = this.writing;
    this.writing = null;
    if (w) this.guard(() => w.abandon());
    // Closed mid-build, or before its snapshot was claimed: nobody should wait on this build any more.
    this.tryOnSidecar(() => this.snapshots.openedSidecar()?.clearBuilding(this.name));
  }

  // ---------------------------------------------------------------- internals

  /** Finishes a snapshot under way, then writes a new one in one go if `due` says so (asked after: the finished one may have been it). */
  private writeWhole(position: FeedPosition, due: () => boolean): void {
    this.cancelScheduled();
    this.finishWriting();
    if (!due()) return;
    this.start(position, { force: true });
    this.finishWriting();
  }

  /** Runs the rest of the snapshot under way, if any; notes whether it was committed. */
  private finishWriting(): void {
    const w = this.writing;
    this.writing = null;
    if (!w) return;
    this.guard(() => w.finish());
    if (w.committed) this.kept = true;
  }

  private threshold(): number {
    return Math.max(SAVE_AFTER_PATCHES, Math.floor(this.index.size / 20)) * this.snapshots.savePatience;
  }

  private restore(sidecar: IndexSidecar, before: FeedPosition, patch = true): FeedPosition | null {
    const header = sidecar.header(this.name);
    if (!header || !this.fits(header.format, header.conditions, header.position, before)) return null;
    const snap = sidecar.read(this.name);
    if (!snap || !this.fits(snap.format, snap.conditions, snap.position, before)) return null;
    // Left unpatched, a snapshot too far behind is found by the caller's patchSince, which then gives up.
    const changes = patch ? this.store.changedSince(snap.position, PATCH_LIMIT) : null;
    if (patch && !changes) return null;
    let restored = false;
    // A part the index reads later (when a recall first needs it) may turn out damaged then: the
    // index answers from the store instead, and the sidecar forgets the snapshot (rebuilt next open).
    const parts = reportingLateDamage(snap.parts, () => {
      if (restored) sidecar.reportDamage(this.name);
    });
    try {
      this.index.restoreSnapshot(parts, this.store);
    } catch (err) {
      if (err instanceof SnapshotDamaged) {
        sidecar.reportDamage(this.name);
        return null;
      }
      if (!(err instanceof SnapshotMismatch)) throw err;
      this.store.warn(`index-snapshot:${this.name}`, `the stored ${this.name} index does not fit together (${err.message}); rebuilding it`);
      return null;
    }
    restored = true;
    this.since = snap.position;
    this.patches = 0;
    this.usagePatches = 0;
    if (!changes) return snap.position;
    this.apply(changes);
    return changes.position;
  }

  /** Patches the feed's changes in (the changed rows read ahead: on PostgreSQL each read is a round trip), counting them. */
  private apply(changes: FeedChanges): void {
    for (const id of changes.deletes) this.index.remove(id);
    // Rows read ahead only for the memories the index will read (none of an edge-only change, for an
    // index that reads no edges; none of an access, for one that reads no usage).
    const read = changes.upserts.map((id) => ({ id, kind: changeKindOf(changes, id) })).filter((c) => !skipsPatch(this.index, c.kind));
    this.patches += changes.deletes.length;
    this.store.withRowsAhead(read.map((c) => c.id), () => {
      for (const { id, kind } of read) {
        patchChanged(this.index, this.store, id, kind);
        if (kind === 'usage') this.usagePatches++;
        else this.patches++;
      }
    });
  }

  private fits(format: string, conditions: string, position: FeedPosition, now: FeedPosition): boolean {
    return format === this.index.snapshotFormat && conditions === this.index.snapshotConditions() && position.epoch === now.epoch && position.seq <= now.seq;
  }

  private *buildSteps(): Generator<LoadStep, void> {
    const memories = countMemories(this.store);
    // A duration for people (the build report), not a time the logic depends on: the monotonic timer, not the store's clock.
    const started = performance.now();
    const progress = (done: number, total: number) => this.snapshots.reportBuild({ index: this.name, phase: 'progress', memories, done, total });
    this.snapshots.reportBuild({ index: this.name, phase: 'start', memories });
    const steps = this.index.loadSteps?.(this.store);
    if (steps) {
      for (let step = steps.next(); !step.done; step = steps.next()) {
        progress(step.value.done, step.value.total);
        yield step.value;
      }
    } else {
      this.index.load(this.store, progress);
    }
    this.snapshots.reportBuild({ index: this.name, phase: 'done', memories, ms: Math.round(performance.now() - started) });
    this.builtHere = true;
    this.builtOver = memories;
    this.kept = false;
    this.patches = 0;
    this.usagePatches = 0;
  }

  private schedule(position: FeedPosition): void {
    if (this.writing || this.cancelNext) return;
    // A build is kept at once (the next process opens from it); patches first wait to see whether the feed settles.
    const settling = !this.builtHere;
    let tries = 0;
    const attempt = () => {
      this.cancelNext = null;
      // A long change (a reflection apply) is being written: a snapshot now would be stale in a
      // moment, and another after every batch would cost more than the apply. Once it is done.
      if (this.guard(() => runMarkerPresent(this.store))) {
        this.cancelNext = this.snapshots.retryLater(attempt);
        return;
      }
      if (settling && tries < SETTLE_TRIES && this.guard(() => this.feedMovedPast(this.position ?? position))) {
        tries++;
        this.cancelNext = this.snapshots.retryLater(attempt);
        return;
      }
      this.start(this.position ?? position);
      this.continueWriting();
    };
    this.cancelNext = settling ? this.snapshots.retryLater(attempt) : this.snapshots.defer(attempt);
  }

  /** Whether the change feed has moved on from `position` (rows this index has not patched in yet). */
  private feedMovedPast(position: FeedPosition): boolean {
    const end = this.store.feedPosition();
    return end !== null && (end.epoch !== position.epoch || end.seq > position.seq);
  }

  private cancelScheduled(): void {
    this.cancelNext?.();
    this.cancelNext = null;
  }

  /**
   * Encodes the index now (its state is at or after `position`) and opens the sidecar write,
   * unless another process wrote this index since our last snapshot or is writing it now (claim):
   * then its snapshot stands for ours, and this thread is not held for an encoding nobody needs.
   * A process that must leave its own (`force`: at close, at a hand-over) waits for no other writer.
   */
  private start(position: FeedPosition, opts: { force?: boolean } = {}): void {
    const sidecar = this.snapshots.sidecar();
    if (!sidecar?.writable || this.store.isClosed) return;
    const header = { format: this.index.snapshotFormat, conditions: this.index.snapshotConditions(), position };
    const now = this.snapshots.clock.now();
    // Forced, only a snapshot newer than ours now will do: the processes a hand-over tells load one at least this new.
    const since = opts.force ? position : (this.since ?? position);
    const claim = this.guard(() => sidecar.claim(this.name, header, since, now, opts));
    if (!claim) return;
    // Whoever writes it, a snapshot is on its way: the count of changes starts again.
    this.builtHere = false;
    this.patches = 0;
    this.usagePatches = 0;
    if (claim.kind !== 'claimed') {
      if (claim.kind === 'covered') {
        this.since = claim.position;
        this.kept = true;
      }
      return;
    }
    const parts = this.guard(() => this.index.saveSnapshot());
    this.since = position;
    if (!parts) {
      this.guard(() => sidecar.abandonGeneration(claim.generation));
      return;
    }
    this.writing = this.guard(() => sidecar.write(this.name, header, parts, now, claim.generation));
  }

  /** One piece now, the next on a later turn (so recalls interleave with a 100 MB write). */
  private continueWriting(): void {
    const w = this.writing;
    if (!w) return;
    const done = this.guard(() => w.step());
    if (done !== false) {
      if (done === null) this.guard(() => w.abandon());
      else if (w.committed) this.kept = true;
      this.writing = null;
      return;
    }
    this.cancelNext = this.snapshots.defer(() => {
      this.cancelNext = null;
      this.continueWriting();
    });
  }

  /** Runs a sidecar step; a failure costs a warning (and the snapshot), never the caller's answer. */
  private guard<R>(fn: () => R): R | null {
    try {
      return fn();
    } catch (err) {
      this.store.warn(`index-snapshot-write:${this.name}`, `could not write the ${this.name} index snapshot (${(err as Error).message}); it will be rebuilt next time`);
      return null;
    }
  }
}

/** The source, calling `onDamage` before a SnapshotDamaged goes through to the reader. */
function reportingLateDamage(source: PartSource, onDamage: () => void): PartSource {
  const watched = <R>(read: () => R): R => {
    try {
      return read();
    } catch (err) {
      if (err instanceof SnapshotDamaged) onDamage();
      throw err;
    }
  };
  return {
    has: (part) => source.has(part),
    ...(source.byteLength ? { byteLength: (part: string) => source.byteLength!(part) } : {}),
    get: (part) => watched(() => source.get(part)),
    ...(source.range ? { range: (part: string, from: number, to: number) => watched(() => source.range!(part, from, to)) } : {}),
  };
}
