/**
 * Builds a ReflectionPlan: loads the working view once, then runs the ops in the reference's order
 * (episode writer → merge_duplicates → [reconcile] → form_edges → rescore_importance → [abstract] →
 * prune), each against the view that already holds the earlier proposals. Writes nothing.
 * `until` stops after the named op (step-through); `shouldStop` is checked between items.
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_FORGET_POLICY, type ForgetPolicy } from '../model/forget-policy.js';
import type { OwnerScope } from '../model/owner.js';
import type { EngineReader } from '../engine/engine.js';
import { StopSignal } from './neighbours.js';
import { planLinks, planMerge, planPrune, planRescore, type OpContext, type OpOutcome } from './ops.js';
import { DEFAULT_REFLECTION_POLICY, OP_NAMES, REFERENCE_OP_NAME, type OpName, type ReflectionPolicy } from './policy.js';
import type { OpGroup, PlanOp, ReflectionPlan, ReflectionReport } from './types.js';
import { WorkingView } from './view.js';
import { planAbstract, planEpisode, planReconcile, type GenerativeOptions, GenerativeSession } from './generative.js';

export interface PlanProgress {
  op: OpName | 'load';
  phase: 'start' | 'item' | 'end';
  done: number;
  total: number;
}

export interface PlanOptions {
  scope?: OwnerScope;
  policy?: Partial<ReflectionPolicy>;
  forgetPolicy?: Partial<ForgetPolicy>;
  until?: OpName | null;
  shouldStop?: () => boolean;
  onProgress?: (p: PlanProgress) => void;
  /** Opt-in LLM ops; absent = the deterministic pass only. */
  generative?: GenerativeOptions | null;
  /** Threads for the neighbour join (default: one per core for large stores, else 1). */
  workers?: number;
  /** Slots per posting group of the neighbour join (tests use small groups to cross their edges). */
  joinGroupSize?: number;
}

const PREFIX: Record<OpName, string> = { episode: 'e', merge: 'm', reconcile: 'c', link: 'l', rescore: 'r', abstract: 'a', prune: 'p' };

export async function planReflection(engine: EngineReader, opts: PlanOptions = {}): Promise<ReflectionPlan> {
  const started = performance.now();
  const store = engine.store;
  const now = engine.now();
  const policy: ReflectionPolicy = { ...DEFAULT_REFLECTION_POLICY, ...(opts.policy ?? {}) };
  const forget: ForgetPolicy = { ...DEFAULT_FORGET_POLICY, ...(opts.forgetPolicy ?? {}) };
  const scope = opts.scope ?? null;
  const stopFn = opts.shouldStop ?? (() => false);
  const progress = opts.onProgress;
  const report: ReflectionReport = {
    merged: 0,
    edges_added: 0,
    rescored: 0,
    pruned: 0,
    created: 0,
    reconciled: 0,
    superseded: 0,
    interrupted: false,
    stopped_in: null,
    duration_ms: null,
  };
  const dataVersion = store.dataVersion();
  progress?.({ op: 'load', phase: 'start', done: 0, total: 0 });
  let view: WorkingView;
  try {
    view = await WorkingView.load(store, scope, Math.min(policy.edge_threshold, policy.merge_threshold), stopFn, {
      workers: opts.workers,
      groupSize: opts.joinGroupSize,
      // The join is most of a large plan's time: report its row probes as the load's items.
      onProgress: progress ? (done, total) => progress({ op: 'load', phase: 'item', done, total }) : undefined,
    });
  } catch (err) {
    if (!(err instanceof StopSignal)) throw err;
    return emptyPlan(engine, now, scope, policy, forget, opts.until ?? null, dataVersion, started, { ...report, interrupted: true, stopped_in: 'load' });
  }
  progress?.({ op: 'load', phase: 'end', done: view.total, total: view.total });

  const groups: OpGroup[] = [];
  const gen = opts.generative ? new GenerativeSession(opts.generative) : null;
  /** Memories created by a proposal: links touching them depend on that proposal. */
  const createdBy = new Map<string, string>();
  const dependsOn = (id: string) => (createdBy.has(id) ? [createdBy.get(id)!] : []);

  for (const op of OP_NAMES) {
    const enabled = op === 'episode' ? !!gen?.wants('episode') : op === 'reconcile' ? !!gen?.wants('reconcile') : op === 'abstract' ? !!gen?.wants('abstract') : true;
    if (!enabled) {
      if (opts.until === op) break;
      continue;
    }
    if (stopFn()) {
      report.interrupted = true;
      report.stopped_in = REFERENCE_OP_NAME[op];
      break;
    }
    let n = 0;
    const nextId = () => `${PREFIX[op]}${++n}`;
    const ctx: OpContext = {
      view,
      policy,
      forget,
      now,
      shouldStop: stopFn,
      onItem: progress ? (done, total) => (done % 256 === 0 || done === total) && progress({ op, phase: 'item', done, total }) : undefined,
    };
    progress?.({ op, phase: 'start', done: 0, total: view.order.length });
    // Let the event loop run between ops, so a UI polling reflect.progress sees each op begin.
    if (progress) await new Promise<void>((resolve) => setImmediate(resolve));
    const t0 = performance.now();
    let out: OpOutcome<PlanOp>;
    switch (op) {
      case 'merge':
        out = planMerge(ctx, nextId);
        report.merged += out.ops.length;
        break;
      case 'link':
        out = planLinks(ctx, nextId, dependsOn);
        report.edges_added += out.ops.length;
        break;
      case 'rescore':
        out = planRescore(ctx, nextId);
        report.rescored += out.ops.length;
        break;
      case 'prune':
        out = planPrune(ctx, nextId);
        report.pruned += out.ops.length;
        break;
      case 'episode':
        out = await planEpisode(ctx, gen!, engine, nextId, createdBy);
        report.created += out.ops.length;
        break;
      case 'reconcile': {
        out = await planReconcile(ctx, gen!, engine, nextId, createdBy);
        report.reconciled += out.ops.length;
        for (const o of out.ops) if (o.op === 'reconcile') report.superseded += o.archive.length;
        break;
      }
      case 'abstract':
        out = await planAbstract(ctx, gen!, engine, nextId, createdBy);
        report.created += out.ops.length;
        break;
    }
    groups.push({ op, name: REFERENCE_OP_NAME[op], ops: out.ops, ms: performance.now() - t0, notes: out.notes });
    progress?.({ op, phase: 'end', done: out.ops.length, total: out.ops.length });
    if (out.stopped) {
      report.interrupted = true;
      report.stopped_in = REFERENCE_OP_NAME[op];
      break;
    }
    if (opts.until === op) break;
  }
  report.duration_ms = Math.round(performance.now() - started);
  return {
    kind: 'mnemo.reflection-plan',
    version: 1,
    id: randomUUID(),
    created_at: engine.now(),
    now,
    store: { name: store.name, fingerprint: view.fingerprint, data_version: dataVersion, memories: view.total, live: view.order.filter((m) => !m.proposed).length },
    scope,
    policy,
    forget_policy: forget,
    until: opts.until ?? null,
    groups,
    report,
    neighbours: view.graph?.stats ?? null,
    generative: gen ? gen.usage() : null,
    duration_ms: performance.now() - started,
  };
}

function emptyPlan(
  engine: EngineReader,
  now: number,
  scope: OwnerScope,
  policy: ReflectionPolicy,
  forget: ForgetPolicy,
  until: OpName | null,
  dataVersion: number,
  started: number,
  report: ReflectionReport,
): ReflectionPlan {
  return {
    kind: 'mnemo.reflection-plan',
    version: 1,
    id: randomUUID(),
    created_at: engine.now(),
    now,
    store: { name: engine.store.name, fingerprint: '', data_version: dataVersion, memories: 0, live: 0 },
    scope,
    policy,
    forget_policy: forget,
    until,
    groups: [],
    report,
    neighbours: null,
    generative: null,
    duration_ms: performance.now() - started,
  };
}

/** Every op of a plan in apply order. */
export function planOps(plan: Pick<ReflectionPlan, 'groups'>): PlanOp[] {
  const order = new Map(OP_NAMES.map((n, i) => [n, i]));
  return [...plan.groups].sort((a, b) => order.get(a.op)! - order.get(b.op)!).flatMap((g) => g.ops);
}
