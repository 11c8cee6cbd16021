/**
 * Applies a reviewed ReflectionPlan: exactly the accepted operations, in plan order, recorded as
 * ONE journal entry (so one undo reverts the pass). It is written in short transactions
 * (store/shared/change-run.ts) so agents on other connections keep writing while it runs; a failure,
 * a cancel or a crash takes back what was written, so it is still all-or-nothing. It refuses a
 * store that changed since planning (fingerprint), with a conflict error that says to re-plan.
 *
 * Dependencies: a knn-derived proposal (merge or link) only exists because the entries ranked above
 * it were archived earlier in the pass; when the op that archived one of them is dropped, that entry
 * comes back into the window, and a proposal pushed out of the k-window is dropped too (the result
 * says which and why). Rescore and prune are recomputed from the rows as they are at that point,
 * so a dropped merge changes their values (reported as `adjusted`) or lifts a prune (a guard now holds).
 *
 * Interrupt: `shouldStop` is checked between operations; the operations done so far commit as one
 * consistent change, and applying the same plan again resumes where it stopped. `shouldCancel`
 * instead takes everything back.
 *
 * Progress (`onProgress`) is over the work the apply will do, phase by phase (model/job-phase.ts):
 * the store's rows while it checks the fingerprint, then the accepted items from where it starts
 * (an item it finds it must skip counts as done; a rejected one is not counted at all: a commit of
 * 10 % of a plan counts that 10 %), the hand-over of the indexes, and after a cancel the journal
 * rows it takes back.
 */
import { addEffect, noEffects } from './effects.js';
import { MnemoError } from '../errors.js';
import { pruneDecision } from '../model/forget-policy.js';
import { addEdge, createMemory, embeddingText, foldDuplicateScalars, type Memory } from '../model/memory.js';
import type { EdgeType, MemoryType } from '../model/enums.js';
import type { Engine } from '../engine/engine.js';
import type { BeforeFinish, JobProgressSink } from '../model/job-phase.js';
import { batchBudget, pacingOf, type RunPacing } from '../model/run-pacing.js';
import { tableCounts } from '../store/queries/counts.js';
import { CATCH_UP_FEED_LIMIT, type FeedPosition } from '../store/port/feed-position.js';
import { storeFingerprint, storeFingerprintInPages } from './fingerprint.js';
import { isClose, rescoreValue, touched } from './ops.js';
import { planOps } from './plan.js';
import type { ApplyResult, FoldFields, NewMemorySpec, PlanOp, ReflectionPlan, ReflectionReport, WindowInfo } from './types.js';
import { logMaintenance } from '../store/queries/maintenance-log.js';

export interface ApplyOptions {
  /** Op ids to apply; absent = every op of the plan. */
  accepted?: readonly string[] | null;
  /** Stop between operations and keep what was done as one change (applying the plan again resumes). */
  shouldStop?: () => boolean;
  /** Stop between operations and take back everything applied: the store is left as it was. */
  shouldCancel?: () => boolean;
  /** Where the apply is: done of total units of a phase (see the header). */
  onProgress?: JobProgressSink;
  /** Size of the short transactions the apply is written in, and the pause between them. */
  pacing?: RunPacing;
  /**
   * Runs once every batch is written and before the change is closed, while other connections
   * still see it as in progress (change-run.ts's marker): the place to leave what they will need
   * once it ends, such as current index snapshots. It is handed the apply's cancel, so a wait in
   * it can end early when a cancel comes, and where to report its progress. One that hands the
   * indexes over (`handsOverIndexes`) has the run's marker say so (run-marker.ts `hands_over`):
   * every other connection, the other workers of this process too, holds its indexes back until the end.
   */
  beforeFinish?: BeforeFinish;
}

interface ApplyMeta {
  plan_id: string;
  total_ops: number;
  next_index: number;
  complete: boolean;
  dropped: string[];
  fingerprint_after: string | null;
  [key: string]: unknown;
}

export async function applyPlan(engine: Engine, plan: ReflectionPlan, opts: ApplyOptions = {}): Promise<ApplyResult> {
  const store = engine.store;
  const ops = planOps(plan);
  const known = new Set(ops.map((o) => o.id));
  if (opts.accepted) {
    const unknown = opts.accepted.filter((id) => !known.has(id));
    if (unknown.length) throw new MnemoError('bad_input', `accepted ids not in plan ${plan.id}: ${unknown.slice(0, 10).join(', ')}; use the op ids the plan lists (m1, l3, r7, …)`, { field: 'accepted' });
  }
  const accepted = new Set(opts.accepted ?? ops.map((o) => o.id));
  const cancel = opts.shouldCancel ?? (() => false);
  const report = opts.onProgress ?? (() => {});
  const cancelledError = () =>
    new MnemoError('conflict', `apply of plan ${plan.id.slice(0, 8)} was cancelled; everything it had applied was taken back, the store is as it was`, {
      plan_id: plan.id,
      cancelled: true,
    });
  // Embeddings of proposed memories are computed before the transaction (a model may be remote).
  const vectors = new Map<string, Float32Array>();
  for (const o of ops) {
    if (!accepted.has(o.id)) continue;
    if (cancel()) throw cancelledError();
    const spec = o.op === 'reconcile' ? o.consolidated : o.op === 'abstract' || o.op === 'episode' ? o.memory : null;
    if (spec) vectors.set(spec.id, await engine.embed(embeddingText({ title: spec.title, content: spec.content, tags: spec.tags, entities: [] })));
  }
  const stop = opts.shouldStop ?? (() => false);
  const result: ApplyResult = {
    change_id: null,
    plan_id: plan.id,
    report: emptyReport(),
    applied: [],
    skipped: [],
    adjusted: [],
    resumed_from: null,
    effects: noEffects(),
  };
  const meta: ApplyMeta = { plan_id: plan.id, total_ops: ops.length, next_index: 0, complete: false, dropped: [], fingerprint_after: null };
  const started = performance.now();
  const pacing = pacingOf(opts.pacing);
  const pacer = store.runs.pacer(pacing);
  let pre: Prechecked | null = null;
  let preHolds = false;
  const run = store.runs.changeRun(
    `reflect: apply plan ${plan.id.slice(0, 8)}`,
    'reflect.apply',
    meta,
    () => {
      preHolds = pre !== null && ((store.dataVersion() === pre.dataVersion && store.totalChanges() === pre.ownChanges) || onlyAccessesSince(store, pre.feed));
    },
    opts.beforeFinish?.handsOverIndexes === true,
  );
  const dropped = new Set<string>();
  let i = -1; // -1 until the first batch has checked the fingerprint
  let halted: 'stop' | 'cancel' | null = null;
  // The accepted items from where the apply starts (known once the first batch has found it), and those done.
  let itemsTotal = 0;
  let itemsDone = 0;
  // One short transaction per batch; returns true while ops remain.
  const batch = () =>
    run.batch(() => {
      if (i < 0) {
        i = startIndex(engine, plan, ops, accepted, dropped, result, preHolds ? pre!.fingerprint : null);
        for (let j = i; j < ops.length; j++) if (accepted.has(ops[j]!.id)) itemsTotal++;
        report(0, itemsTotal, 'apply');
      }
      const now = engine.now();
      const spent = batchBudget(pacing);
      let aheadUntil = i; // the ops whose memories this transaction has been told of (lockAhead)
      for (; i < ops.length; i++) {
        if (stop()) {
          halted = 'stop';
          result.report.interrupted = true;
          result.report.stopped_in = plan.groups.find((g) => g.ops.some((x) => x.id === ops[i]!.id))?.name ?? null;
          return false;
        }
        if (cancel()) {
          halted = 'cancel';
          return false;
        }
        const o = ops[i]!;
        if (!accepted.has(o.id)) continue;
        report(++itemsDone, itemsTotal, 'apply');
        if (dropped.has(o.id)) continue;
        if (i >= aheadUntil) aheadUntil = lockAhead(store, ops, i, dropped);
        const why = applyOne(engine, plan, o, dropped, vectors, now, result);
        if (why) {
          dropped.add(o.id);
          result.skipped.push({ id: o.id, reason: why });
        } else {
          result.applied.push(o.id);
          addEffect(result.effects, o);
        }
        if (spent()) {
          i++;
          return i < ops.length;
        }
      }
      return false;
    });
  try {
    // First finish any change a dead writer left half-written, so the fingerprint read below is of the store the run will see.
    store.runs.recoverDeadRun();
    pre = await fingerprintBeforeLock(store, report, cancel);
    if (pre === null) throw cancelledError();
    while (await pacer.take(batch)) await pacer.between();
    const takeBack = async () => {
      await run.rollback(pacing, (done, total) => report(done, total, 'take-back'));
      throw cancelledError();
    };
    if (halted === 'cancel') await takeBack();
    if (run.changeId !== null) await opts.beforeFinish?.({ cancelled: cancel, progress: report });
    // The change is not the store's until the run finishes: a cancel that came while the hook
    // wrote the indexes' snapshots (seconds at 100k; the bar still offers Cancel) is honoured too,
    // rather than accepted and then ignored.
    if (halted === null && cancel()) await takeBack();
    meta.next_index = i;
    meta.complete = i >= ops.length;
    meta.dropped = [...dropped];
    result.change_id = run.finish(
      () => {
        if (!meta.complete) meta.fingerprint_after = storeFingerprint(store);
        return meta;
      },
      () => {
        result.report.duration_ms = Math.round(performance.now() - started);
        logMaintenance(store, 'reflect', { trigger: 'manual', plan_id: plan.id, ...result.report });
      },
    );
  } catch (err) {
    // A call that fails has written nothing: take back the batches already committed.
    if (!(err instanceof MnemoError && err.details?.['cancelled'] === true)) await run.rollback(pacing);
    throw err;
  } finally {
    pacer.end();
  }
  return result;
}

/** Operations whose memories are locked and read in one go, on a store that can (PostgreSQL: one statement instead of one or two per memory). */
const AHEAD_OPS = 64;

/** Tells the store which memories ops[from…] will read and change; returns where the next call starts. */
function lockAhead(store: Engine['store'], ops: readonly PlanOp[], from: number, dropped: Set<string>): number {
  const until = Math.min(ops.length, from + AHEAD_OPS);
  if (!store.lockAhead) return ops.length;
  const ids: string[] = [];
  for (let j = from; j < until; j++) if (!dropped.has(ops[j]!.id)) ids.push(...touched(ops[j]!));
  store.lockAhead(ids);
  return until;
}

/** Where this apply starts: 0 on the planned store, or where an interrupted apply of the same plan stopped. */
/** The store's fingerprint read before the write lock is taken, and how to tell it still holds. */
interface Prechecked {
  fingerprint: string;
  dataVersion: number;
  ownChanges: number;
  /** Where the change feed stood before the read (null: the file has none). */
  feed: FeedPosition | null;
}

/**
 * Whether everything committed after `feed` was accesses: the fingerprint leaves usage out, so the
 * read before the lock still holds. Agents recalling log accesses all the time, and without this
 * the first batch re-read the whole store under the write lock (1 to 2 s at 100k, every agent's
 * access writes waiting behind it, and past the busy timeout on a slower machine).
 */
function onlyAccessesSince(store: Engine['store'], feed: FeedPosition | null): boolean {
  if (!feed) return false;
  const changes = store.changedSince(feed, CATCH_UP_FEED_LIMIT);
  if (!changes || changes.deletes.length > 0) return false;
  return changes.upserts.every((id) => changes.usageOnly?.has(id) === true);
}

/**
 * Reading every row to fingerprint a 100k store takes seconds. Done inside the first batch, that
 * held the write lock for all of it, and an agent's add waited as long. So it is read first with
 * no lock, and the first batch trusts it when nothing was committed since, by another connection
 * (data_version) or by this one (total_changes): checked once the lock is held, before the run
 * writes. Otherwise the first batch reads it again under the lock.
 */
async function fingerprintBeforeLock(store: Engine['store'], report: JobProgressSink, cancel: () => boolean): Promise<Prechecked | null> {
  const dataVersion = store.dataVersion();
  const ownChanges = store.totalChanges();
  const feed = store.feedPosition();
  const counts = tableCounts(store);
  const rows = counts.memories + counts.edges;
  report(0, rows, 'check');
  // Rows read can pass the count when an agent adds some meanwhile (the digest is then not trusted anyway).
  const fingerprint = await storeFingerprintInPages(store, undefined, { onRows: (n) => report(Math.min(n, rows), rows, 'check'), shouldStop: cancel });
  return fingerprint === null ? null : { fingerprint, dataVersion, ownChanges, feed };
}

function startIndex(engine: Engine, plan: ReflectionPlan, ops: PlanOp[], accepted: Set<string>, dropped: Set<string>, result: ApplyResult, readBeforeLock: string | null): number {
  let start = 0;
  const fp = readBeforeLock ?? storeFingerprint(engine.store);
  if (fp !== plan.store.fingerprint) {
    const resume = findResumePoint(engine, plan.id, fp);
    if (!resume) throw staleError(engine, plan);
    start = resume.next_index;
    for (const id of resume.dropped) dropped.add(id);
    result.resumed_from = start;
  }
  for (const o of ops) if (!accepted.has(o.id)) dropped.add(o.id);
  return start;
}

function emptyReport(): ReflectionReport {
  return { merged: 0, edges_added: 0, rescored: 0, pruned: 0, created: 0, reconciled: 0, superseded: 0, interrupted: false, stopped_in: null, duration_ms: null };
}

/** An earlier interrupted apply of this plan that left the store exactly as it is now. */
function findResumePoint(engine: Engine, planId: string, fp: string): ApplyMeta | null {
  for (const c of engine.store.journal.history(200)) {
    const m = c.meta as ApplyMeta | null;
    if (c.kind !== 'reflect.apply' || c.state !== 'applied' || !m || m.plan_id !== planId) continue;
    if (!m.complete && m.fingerprint_after === fp) return m;
  }
  return null;
}

function staleError(engine: Engine, plan: ReflectionPlan): MnemoError {
  const done = engine.store.journal
    .history(200)
    .find((c) => c.kind === 'reflect.apply' && c.state === 'applied' && (c.meta as ApplyMeta | null)?.plan_id === plan.id && (c.meta as ApplyMeta).complete);
  const already = done ? ` (this plan was already applied as change #${done.id})` : '';
  return new MnemoError(
    'conflict',
    `the store changed since plan ${plan.id.slice(0, 8)} was made${already}; nothing was applied. Re-plan with "mnemo reflect <db> --dry-run" (reflect.plan) and review the new plan`,
    { plan_id: plan.id, replan: true },
  );
}

/** Entries above this proposal that come back when their archiving op is dropped. */
function pushedOut(w: WindowInfo, dropped: Set<string>): string[] | null {
  const back = w.displaced.filter((d) => dropped.has(d.by));
  return w.position + back.length >= w.k ? [...new Set(back.map((d) => d.by))] : null;
}

function fold(m: Memory): FoldFields {
  return { importance: m.importance, salience: m.salience, confidence: m.confidence, strength: m.strength, reinforcement_count: m.reinforcement_count };
}

/** Applies one op; returns why it was skipped, or null when applied. */
function applyOne(engine: Engine, plan: ReflectionPlan, o: PlanOp, dropped: Set<string>, vectors: Map<string, Float32Array>, now: number, res: ApplyResult): string | null {
  const store = engine.store;
  switch (o.op) {
    case 'merge': {
      const out = pushedOut(o.window, dropped);
      if (out) return `depends on dropped ${out.join(', ')}: without it the duplicate falls outside the anchor's ${o.window.k}-window`;
      const anchor = store.get(o.anchor);
      const dup = store.get(o.dup);
      if (!anchor || anchor.archived) return `anchor ${o.anchor} is gone or archived`;
      if (!dup || dup.archived) return `duplicate ${o.dup} is gone or archived`;
      foldDuplicateScalars(anchor, dup);
      for (const e of dup.edges) if (e.target_id !== anchor.id) addEdge(anchor, e.target_id, e.type, e.weight, now);
      addEdge(anchor, dup.id, 'refines', 1.0, now);
      store.save(anchor);
      store.setArchived(dup.id, true);
      noteAdjusted(res, o.id, o.after.anchor, fold(anchor));
      res.report.merged++;
      return null;
    }
    case 'link': {
      const gone = o.depends_on.filter((d) => dropped.has(d));
      if (gone.length) return `depends on dropped ${gone.join(', ')} (an endpoint would not exist)`;
      const out = pushedOut(o.window, dropped);
      if (out) return `depends on dropped ${out.join(', ')}: without it the target falls outside the ${o.window.k}-window`;
      const src = store.get(o.src);
      if (!src || src.archived) return `source ${o.src} is gone or archived`;
      if (!store.exists(o.dst)) return `target ${o.dst} is gone`;
      if (!addEdge(src, o.dst, 'related', o.weight, now)) return `an edge to ${o.dst} already carries this weight`;
      store.save(src);
      res.report.edges_added++;
      return null;
    }
    case 'rescore': {
      const m = store.get(o.memory);
      if (!m || m.archived) return `memory ${o.memory} is gone or archived`;
      const v = rescoreValue(m.importance, m.salience, o.terms.base).value;
      if (isClose(v, m.importance)) return 'importance would not change (within 1e-6)';
      if (v !== o.after) res.adjusted.push({ id: o.id, field: 'importance', planned: o.after, applied: v });
      m.importance = v;
      store.save(m);
      res.report.rescored++;
      return null;
    }
    case 'prune': {
      const m = store.get(o.memory);
      if (!m || m.archived) return `memory ${o.memory} is gone or archived`;
      const d = pruneDecision(m, plan.now, plan.forget_policy);
      if (!d.prune) return `guard holds now: ${d.reason}`;
      if (o.action === 'delete') store.delete(m.id);
      else store.setArchived(m.id, true);
      res.report.pruned++;
      return null;
    }
    case 'reconcile': {
      const live = o.archive.filter((id) => {
        const m = store.get(id);
        return m && !m.archived;
      });
      if (live.length === 0) return 'every superseded memory is already gone or archived';
      addProposed(engine, o.consolidated, vectors, now);
      for (const id of live) store.setArchived(id, true);
      res.report.reconciled++;
      res.report.superseded += live.length;
      return null;
    }
    case 'abstract':
    case 'episode': {
      const spec = o.memory;
      if (store.exists(spec.id)) return `memory ${spec.id} already exists`;
      addProposed(engine, spec, vectors, now);
      res.report.created++;
      return null;
    }
  }
}

function addProposed(engine: Engine, spec: NewMemorySpec, vectors: Map<string, Float32Array>, now: number): void {
  const store = engine.store;
  const m = createMemory(
    {
      id: spec.id,
      type: spec.type as MemoryType,
      title: spec.title,
      content: spec.content,
      owner: spec.owner,
      importance: spec.importance,
      tags: spec.tags,
      created_at: spec.created_at,
      edges: spec.edges.filter((e) => store.exists(e.target_id)).map((e) => ({ target_id: e.target_id, type: e.type as EdgeType, weight: e.weight, created_at: now })),
    },
    spec.created_at,
  );
  store.add(m, vectors.get(spec.id) ?? null);
}

function noteAdjusted(res: ApplyResult, id: string, planned: FoldFields, applied: FoldFields): void {
  for (const k of Object.keys(planned) as (keyof FoldFields)[]) {
    if (planned[k] !== applied[k]) res.adjusted.push({ id, field: k, planned: planned[k], applied: applied[k] });
  }
}
