/**
 * Planning a reflection pass for a door: one plan at a time per engine, its progress readable while
 * it runs, a cancel between items, and the finished plan kept by id (plan-registry.ts) for apply.
 */
import { MnemoError } from '../errors.js';
import { extensionKey, type EngineReader } from '../engine/engine.js';
import { callCancelled, jobNews } from '../engine/job-signals.js';
import { ThroughputMeter } from '../model/throughput.js';
import { planReflection, type PlanOptions } from './plan.js';
import { planKind, plansOf } from './plan-registry.js';
import type { ReflectionPlan } from './types.js';

export interface PlanProgressState {
  running: boolean;
  op: string | null;
  done: number;
  total: number;
  started_at: number | null;
  /** Seconds left in the current step at the pace measured over its last seconds (model/throughput.ts); null until there is one. */
  eta_s: number | null;
  /** A stop was asked for: the plan ends at the next item, with what it found so far (marked interrupted). */
  stopping: boolean;
}

const IDLE: PlanProgressState = { running: false, op: null, done: 0, total: 0, started_at: null, eta_s: null, stopping: false };

/** The reflection plans handed out, by id. */
export const REFLECTION_PLANS = planKind<ReflectionPlan>('reflection');

class Planning {
  progress: PlanProgressState = IDLE;
  stop = false;
  /** The pace of the current step; a new step starts a new one. */
  meter = new ThroughputMeter();
}

/** Milliseconds of a monotonic timer: the pace of the work, not an instant the plan records. */
const monotonic = () => performance.now();

const PLANNING = extensionKey('reflect.planning', () => new Planning());

/** Plans a pass (see planReflection), refusing a second one while one runs, and keeps the plan. */
export async function planTracked(engine: EngineReader, opts: Omit<PlanOptions, 'shouldStop' | 'onProgress'>): Promise<ReflectionPlan> {
  const st = engine.get(PLANNING);
  if (st.progress.running) throw new MnemoError('busy', 'a reflection plan is already being computed for this store; wait for it or call reflect.cancel');
  st.stop = false;
  st.meter = new ThroughputMeter();
  st.progress = { ...IDLE, running: true, op: 'load', started_at: engine.now() };
  jobNews();
  try {
    const plan = await planReflection(engine, {
      ...opts,
      // A cancel from the host (the caller went away) stops it too, read without waiting for a turn of the event loop.
      shouldStop: () => st.stop || callCancelled(),
      onProgress: (p) => {
        if (p.op !== st.progress.op) st.meter = new ThroughputMeter();
        st.meter.note(p.done, p.total, monotonic());
        st.progress = { ...st.progress, op: p.op, done: p.done, total: p.total };
        jobNews();
      },
    });
    return plansOf(engine).put(REFLECTION_PLANS, plan.id, plan);
  } finally {
    st.progress = IDLE;
    jobNews();
  }
}

export function planningProgress(engine: EngineReader): PlanProgressState {
  const st = engine.get(PLANNING);
  if (!st.progress.running) return st.progress;
  return { ...st.progress, stopping: st.stop, eta_s: st.stop ? null : st.meter.etaSeconds(monotonic()) };
}

/** Asks the running plan to stop between items; false when none is running. */
export function cancelPlanning(engine: EngineReader): { cancelled: boolean } {
  const st = engine.get(PLANNING);
  st.stop = st.progress.running;
  return { cancelled: st.stop };
}
