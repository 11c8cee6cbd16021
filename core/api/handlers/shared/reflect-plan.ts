/**
 * What `reflect.*` and `review.*` share: turning a plan request into plan options (the generative
 * endpoint resolved on the server side) and applying a plan as the store's one long write.
 */
import type { z } from 'zod';
import type { Engine } from '../../../engine/engine.js';
import { parseOwnerScope } from '../../../model/owner.js';
import { applyPlan } from '../../../reflect/apply.js';
import type { RunPacing } from '../../../model/run-pacing.js';
import type { GenerativeOptions } from '../../../reflect/generative.js';
import type { PlanOptions } from '../../../reflect/plan.js';
import { parseUntil } from '../../../reflect/policy.js';
import type { ApplyResult, ReflectionPlan } from '../../../reflect/types.js';
import type { ApiSession } from '../../context.js';
import type { reflectPlanInput } from '../../contract/shared/reflect-plan-input.js';
import { leaveIndexesCurrent } from '../../../recall/indexes-after-change.js';
import { writeJobOf } from './write-job.js';

type ReflectPlanInput = z.output<typeof reflectPlanInput>;

/** The request's generative options with the endpoint it named resolved on the server side. */
function generativeOptions(g: NonNullable<ReflectPlanInput['generative']>, session: Pick<ApiSession, 'llmEndpoints'>): GenerativeOptions {
  return {
    ops: g.ops,
    endpoint: session.llmEndpoints().get(g.endpoint),
    ...(g.transcript !== undefined ? { transcript: g.transcript } : {}),
    ...(g.max_calls !== undefined ? { max_calls: g.max_calls } : {}),
    ...(g.max_tokens !== undefined ? { max_tokens: g.max_tokens } : {}),
  };
}

export function planOptions(input: ReflectPlanInput, session: Pick<ApiSession, 'llmEndpoints'>): Omit<PlanOptions, 'shouldStop' | 'onProgress'> {
  return {
    scope: input.scope === undefined || input.scope === null ? null : parseOwnerScope(input.scope, 'scope'),
    until: input.until ? parseUntil(input.until) : null,
    policy: input.policy ?? {},
    forgetPolicy: input.forget_policy ?? {},
    generative: input.generative ? generativeOptions(input.generative, session) : null,
  };
}

/** Applies the accepted ops of `plan` as the store's running long write (progress, cancel). */
export function applyAsWriteJob(engine: Engine, plan: ReflectionPlan, accepted: string[] | null, pacing?: RunPacing): Promise<ApplyResult> {
  return writeJobOf(engine).run('reflect.apply', true, (job) =>
    applyPlan(engine, plan, { accepted, onProgress: job.progress, shouldCancel: job.cancelled, beforeFinish: leaveIndexesCurrent(engine), ...(pacing ? { pacing } : {}) }),
  );
}
