/**
 * The agent's `reflect`: a deterministic reflection pass at the agent's role scope (which includes
 * unowned memories, as the reference's engines run), planned and then applied exactly as planned
 * (core/reflect), in one journalled change. Returns the reference's report plus the change id.
 *
 * The agent is the actor: an operation that would write (strengthen, archive, delete, rescore, draw
 * an edge from) a memory the agent may not write is never applied, whatever the plan proposes.
 */
import type { Engine } from '../engine/engine.js';
import { callCancelled } from '../engine/job-signals.js';
import { MnemoError } from '../errors.js';
import { ownerMayWrite, roleOf } from '../model/owner.js';
import { applyPlan } from '../reflect/apply.js';
import { leaveIndexesCurrent } from '../recall/indexes-after-change.js';
import { planOps, planReflection } from '../reflect/plan.js';
import type { PlanOp, ReflectionPlan, ReflectionReport } from '../reflect/types.js';
import { memoryOwner } from '../store/queries/memory-lookups.js';

export type { ReflectionReport } from '../reflect/types.js';

export interface ReflectionOutcome {
  report: ReflectionReport;
  change_id: number | null;
  plan_id: string;
  /** Planned operations, and how many were applied. */
  planned: number;
  applied: number;
  /** Planned operations left out because they would write a memory the agent may not write. */
  refused: string[];
}

export async function runReflection(engine: Engine, actorOwner: string): Promise<ReflectionOutcome> {
  // The agent that asked may go away (its connection or session closed): its host cancels the call,
  // and the pass stops, before it writes or with what it wrote taken back (applyPlan's cancel).
  const plan = await planReflection(engine, { scope: roleOf(actorOwner), shouldStop: callCancelled });
  if (callCancelled()) throw new MnemoError('conflict', 'the reflection pass was cancelled before it wrote anything (its caller went away)', { cancelled: true });
  const ops = planOps(plan);
  const refused = refusedOps(engine, plan, actorOwner);
  const refusedSet = new Set(refused);
  // A whole pass moves more of a big store than the others' catch-up reads: they hold their indexes
  // back while it runs and take this engine's snapshots at its end (recall/indexes-after-change.ts).
  const res = await applyPlan(engine, plan, {
    accepted: ops.filter((o) => !refusedSet.has(o.id)).map((o) => o.id),
    shouldCancel: callCancelled,
    beforeFinish: leaveIndexesCurrent(engine, { holdOthersBack: true }),
  });
  return { report: res.report, change_id: res.change_id, plan_id: res.plan_id, planned: ops.length, applied: res.applied.length, refused };
}

/** The ids of the plan's ops that would write a memory `actorOwner` may not write (ownerMayWrite). */
export function refusedOps(engine: Engine, plan: Pick<ReflectionPlan, 'groups'>, actorOwner: string): string[] {
  return planOps(plan)
    .filter((o) => !mayApply(engine, o, actorOwner))
    .map((o) => o.id);
}

/** Whether every memory the op writes, and every memory it creates, is the actor's to write. */
function mayApply(engine: Engine, op: PlanOp, actorOwner: string): boolean {
  const created = op.op === 'reconcile' ? op.consolidated : op.op === 'abstract' || op.op === 'episode' ? op.memory : null;
  if (created && !ownerMayWrite(created.owner, actorOwner)) return false;
  return writtenIds(op).every((id) => {
    const owner = memoryOwner(engine.store, id);
    // A memory that no longer exists is not written: apply reports that op as skipped.
    return owner === null || ownerMayWrite(owner, actorOwner);
  });
}

function writtenIds(op: PlanOp): string[] {
  switch (op.op) {
    case 'merge':
      return [op.anchor, op.dup];
    case 'link':
      return [op.src];
    case 'rescore':
    case 'prune':
      return [op.memory];
    case 'reconcile':
      return op.archive;
    case 'abstract':
    case 'episode':
      return [];
  }
}
