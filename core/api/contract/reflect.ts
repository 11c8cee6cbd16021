/**
 * Reflection: `reflect.plan` writes nothing and returns a reviewable plan (kept by id for apply);
 * `reflect.progress` / `reflect.cancel` let a UI follow and stop a long plan; `reflect.apply` applies
 * exactly the accepted ops in one undoable change. The journal is `journal.*`, manual curation
 * `memory.merge` / `memory.forget` / `memory.delete`.
 */
import { z } from 'zod';
import type { ApplyResult, ReflectionPlan } from '../../reflect/types.js';
import { method } from '../define.js';
import type { EndpointSummary } from '../../reflect/llm-endpoints.js';
import type { PlanProgressState } from '../../reflect/planning.js';
import { reflectPlanInput } from './shared/reflect-plan-input.js';

export type { PlanProgressState };

export const reflectContract = {
  'reflect.plan': method<ReflectionPlan>()({
    description: 'Plan a reflection pass (dry run): ordered, typed proposals with before/after values and reasons. Writes nothing.',
    input: reflectPlanInput,
  }),
  'reflect.endpoints': method<{ endpoints: EndpointSummary[] }>()({
    description: 'The LLM endpoints configured on the server for generative ops, by name and model (never their URL or key); generative.endpoint picks one.',
    input: z.object({}).optional().default({}),
  }),
  'reflect.progress': method<PlanProgressState>()({
    description: 'Where the running reflect.plan is (op, items done of total), for a progress bar.',
    input: z.object({}),
  }),
  'reflect.cancel': method<{ cancelled: boolean }>()({
    description: 'Ask the running reflect.plan to stop between items (its plan comes back marked interrupted).',
    input: z.object({}),
  }),
  'reflect.apply': method<ApplyResult>()({
    description: 'Apply a plan (or a plan id from reflect.plan) with only the accepted op ids, in one transaction and one journal entry. Refuses a store that changed since planning.',
    input: z
      .object({ plan: z.unknown().optional(), plan_id: z.string().optional(), accepted: z.array(z.string().min(1)).max(1_000_000).nullable().optional() })
      .refine((v) => v.plan !== undefined || v.plan_id !== undefined, 'give the plan or its plan_id'),
    mutates: true,
  }),
};
