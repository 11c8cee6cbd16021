import { badInput, MnemoError } from '../../errors.js';
import { parseOwnerScope } from '../../model/owner.js';
import { toNumeric } from '../../model/ladders.js';
import type { Engine } from '../../engine/engine.js';
import { deleteMemories, forgetMemories, mergeMemories, mergeOrder } from '../../engine/curation.js';
import type { MemoryPatch } from '../../engine/memory-ops.js';
import { applyPlan } from '../../reflect/apply.js';
import { planReflection } from '../../reflect/plan.js';
import { parsePlan } from '../../reflect/plan-schema.js';
import { parseUntil } from '../../reflect/policy.js';
import { redoInBatches, undoInBatches } from '../../store/change-run.js';
import { undoWithDependents } from '../../store/undo-group.js';
import { memoriesTouched } from '../../store/journal-dependents.js';
import type { ChangeSummary } from '../../store/journal.js';
import type { ReflectionPlan } from '../../reflect/types.js';
import type { PlanProgressState, reflectContract, reflectPlanInput } from '../contract/reflect.js';
import type { GenerativeOptions } from '../../reflect/generative.js';
import type { ApiSession } from '../context.js';
import type { z } from 'zod';
import type { HandlersFor } from './types.js';
import { writeJobOf } from './write-job.js';

type ReflectPlanInput = z.output<typeof reflectPlanInput>;

/**
 * How many plans a session keeps for apply-by-id. A 100k store's plan holds ~500k proposals
 * (hundreds of MB), so only the last few are kept; an older id gets a clear "plan again".
 */
const KEPT_PLANS = 3;

/** Per-engine reflection state: the plans handed out (for apply by id) and the running plan's progress. */
class ReflectState {
  readonly plans = new Map<string, ReflectionPlan>();
  progress: PlanProgressState = { running: false, op: null, done: 0, total: 0, started_at: null };
  stop = false;
  keep(plan: ReflectionPlan): void {
    this.plans.set(plan.id, plan);
    while (this.plans.size > KEPT_PLANS) this.plans.delete(this.plans.keys().next().value!);
  }
}

const stateOf = (engine: Engine) => engine.extension('reflect.state', () => new ReflectState());

function ladder(name: 'importance' | 'salience' | 'confidence', v: number | string | undefined): number | undefined {
  return v === undefined ? undefined : typeof v === 'string' ? toNumeric(name, v) : v;
}

/** The request's generative options with the endpoint it named resolved on the server side. */
function generativeOptions(g: NonNullable<ReflectPlanInput['generative']>, session: ApiSession): GenerativeOptions {
  return {
    ops: g.ops,
    endpoint: session.llmEndpoints().get(g.endpoint),
    ...(g.transcript !== undefined ? { transcript: g.transcript } : {}),
    ...(g.max_calls !== undefined ? { max_calls: g.max_calls } : {}),
    ...(g.max_tokens !== undefined ? { max_tokens: g.max_tokens } : {}),
  };
}

export const reflectHandlers: HandlersFor<typeof reflectContract> = {
  'reflect.plan': async (input, session) => {
    const engine = session.engine();
    const st = stateOf(engine);
    if (st.progress.running) throw new MnemoError('busy', 'a reflection plan is already being computed for this store; wait for it or call reflect.cancel');
    const until = input.until ? parseUntil(input.until) : null;
    st.stop = false;
    st.progress = { running: true, op: 'load', done: 0, total: 0, started_at: engine.now() };
    try {
      const plan = await planReflection(engine, {
        scope: input.scope === undefined || input.scope === null ? null : parseOwnerScope(input.scope, 'scope'),
        until,
        policy: input.policy ?? {},
        forgetPolicy: input.forget_policy ?? {},
        generative: input.generative ? generativeOptions(input.generative, session) : null,
        shouldStop: () => st.stop,
        onProgress: (p) => {
          st.progress = { ...st.progress, op: p.op, done: p.done, total: p.total };
        },
      });
      st.keep(plan);
      return plan;
    } finally {
      st.progress = { running: false, op: null, done: 0, total: 0, started_at: null };
    }
  },
  'reflect.endpoints': (_input, session) => ({ endpoints: session.llmEndpoints().summaries() }),
  'reflect.progress': (_input, session) => stateOf(session.engine()).progress,
  'reflect.cancel': (_input, session) => {
    const st = stateOf(session.engine());
    st.stop = st.progress.running;
    return { cancelled: st.stop };
  },
  'reflect.apply': async (input, session) => {
    const engine = session.engine();
    let plan: ReflectionPlan;
    if (input.plan !== undefined) plan = parsePlan(input.plan);
    else {
      const kept = stateOf(engine).plans.get(input.plan_id!);
      if (!kept) throw badInput(`no plan ${input.plan_id} in this session (plans are kept for the last ${KEPT_PLANS} reflect.plan calls); pass the plan itself or plan again`, { field: 'plan_id' });
      plan = kept;
    }
    return writeJobOf(engine).run('reflect.apply', true, (job) =>
      applyPlan(engine, plan, { accepted: input.accepted ?? null, onProgress: job.progress, shouldCancel: job.cancelled }),
    );
  },
  'journal.progress': (_input, session) => writeJobOf(session.engine()).progress(),
  'journal.cancel': (_input, session) => writeJobOf(session.engine()).cancel(),
  'journal.history': (input, session) => session.engine().store.journal.history(input.limit, input.offset),
  'journal.rows': (input, session) => {
    const j = session.engine().store.journal;
    return { change: j.get(input.change_id), rows: j.rows(input.change_id) };
  },
  // Paced like the apply itself: undoing a 100k-row change must not lock agents out either.
  'journal.dependents': (input, session) => {
    const store = session.engine().store;
    const change = store.journal.get(input.change_id);
    const all = store.journal.dependents(input.change_id);
    const named = (c: ChangeSummary) => ({ ...c, memory_ids: memoriesTouched(store, c.id, 3) });
    return { change: named(change), dependents: all.slice(0, input.limit).map(named), total: all.length, rows: all.reduce((n, c) => n + c.rows, change.rows) };
  },
  'journal.undo': (input, session) => {
    const engine = session.engine();
    if (input.with_dependents) {
      // No owner scope here: the doors that reach journal.undo (CLI, HTTP, IPC) act for the local user.
      return writeJobOf(engine).run('journal.undo', false, async (job) => {
        const r = await undoWithDependents(engine.store, input.change_id, { onProgress: job.progress });
        return { ...r.change, dependents_undone: r.undone.slice(0, -1) };
      });
    }
    return writeJobOf(engine).run('journal.undo', false, (job) => undoInBatches(engine.store, input.change_id, {}, job.progress));
  },
  'journal.redo': (input, session) => {
    const engine = session.engine();
    return writeJobOf(engine).run('journal.redo', false, (job) => redoInBatches(engine.store, input.change_id, {}, job.progress));
  },
  'memory.merge': async (input, session) => {
    const { importance, salience, confidence, references, ...rest } = input.patch ?? {};
    const now = session.engine().now();
    const patch: MemoryPatch = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as MemoryPatch;
    if (importance !== undefined) patch.importance = ladder('importance', importance)!;
    if (salience !== undefined) patch.salience = ladder('salience', salience)!;
    if (confidence !== undefined) patch.confidence = ladder('confidence', confidence)!;
    if (references) patch.references = references.map((r) => ({ kind: r.kind, key: r.key, preview: r.preview ?? null, captured_at: r.captured_at ?? now }));
    return mergeMemories(session.engine(), input.ids, input.survivor, patch, undefined, { allowCrossOwner: input.allow_cross_owner });
  },
  'memory.mergeOrder': (input, session) => mergeOrder(session.engine(), input.ids),
  'memory.forget': (input, session) => forgetMemories(session.engine(), input.ids),
  'memory.delete': (input, session) => deleteMemories(session.engine(), input.ids),
};
