/**
 * The agent's `reflect`: a deterministic reflection pass at the agent's role scope (which includes
 * unowned memories, as the reference's engines run), planned and then applied exactly as planned
 * (core/reflect), in one journalled change. Returns the reference's report plus the change id.
 */
import type { Engine } from '../engine/engine.js';
import { applyPlan } from '../reflect/apply.js';
import { planReflection } from '../reflect/plan.js';
import type { ReflectionReport } from '../reflect/types.js';

export type { ReflectionReport } from '../reflect/types.js';

export interface ReflectionOutcome {
  report: ReflectionReport;
  change_id: number | null;
  plan_id: string;
  /** Planned operations, and how many were applied. */
  planned: number;
  applied: number;
}

export async function runReflection(engine: Engine, role: string): Promise<ReflectionOutcome> {
  const plan = await planReflection(engine, { scope: role });
  const planned = plan.groups.reduce((n, g) => n + g.ops.length, 0);
  const res = await applyPlan(engine, plan);
  return { report: res.report, change_id: res.change_id, plan_id: res.plan_id, planned, applied: res.applied.length };
}
