/**
 * Reflection on both backends for `npm run bench -- backends`: the dry-run plan (core/reflect/plan.ts)
 * and, when asked, its apply (core/reflect/apply.ts) on each backend's copy. The apply runs without
 * the pause between its transactions (which lets waiting connections in, and nobody waits here), so
 * the figure is the store's work.
 */
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { applyPlan } from '../../core/reflect/apply.js';
import { planOps, planReflection } from '../../core/reflect/plan.js';
import { BACKENDS, type Backend, type BackendCopies } from './backend-copies.js';

export interface ReflectFigures {
  size: number;
  plan_s: number;
  ops: number;
  /** Null when the apply was not measured at this size. */
  apply_s: number | null;
  applied: number | null;
  /** The apply's error when it failed (the run goes on, so the other measures are still reported). */
  apply_error: string | null;
}

async function reflectOne(location: string, size: number, apply: boolean, now: number): Promise<ReflectFigures> {
  const engine = Engine.open(location, { clock: fixedClock(now), onWarning: () => {} });
  try {
    let t0 = performance.now();
    const plan = await planReflection(engine);
    const planS = (performance.now() - t0) / 1000;
    const ops = planOps(plan).length;
    const planned = { size, plan_s: Number(planS.toFixed(2)), ops, apply_s: null, applied: null, apply_error: null };
    if (!apply) return planned;
    t0 = performance.now();
    try {
      const done = await applyPlan(engine, plan, { pacing: { pauseMs: 0 } });
      return { ...planned, apply_s: Number(((performance.now() - t0) / 1000).toFixed(2)), applied: done.applied.length };
    } catch (err) {
      return { ...planned, apply_error: `after ${((performance.now() - t0) / 1000).toFixed(1)} s: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}` };
    }
  } finally {
    engine.close();
  }
}

export async function measureReflect(copies: BackendCopies, apply: boolean, now: number, log: (line: string) => void): Promise<Record<Backend, ReflectFigures>> {
  const out: Partial<Record<Backend, ReflectFigures>> = {};
  for (const b of BACKENDS) {
    log(`  reflection on ${b} at ${copies.size.toLocaleString('en')} memories: plan${apply ? ' and apply' : ''}…`);
    const r = await reflectOne(copies[b], copies.size, apply, now);
    log(`    plan ${r.plan_s} s (${r.ops.toLocaleString('en')} operations)${r.apply_s !== null ? `, apply ${r.apply_s} s (${r.applied!.toLocaleString('en')} applied)` : ''}${r.apply_error ? `, apply FAILED ${r.apply_error}` : ''}`);
    out[b] = r;
  }
  return out as Record<Backend, ReflectFigures>;
}
