/**
 * Reviewing a reflection plan in the workbench: the engine keeps the plan (a big store's plan is far
 * too large to ship whole), the UI asks for its summary, pages of items with their state, and
 * counts, under the reviewer's actions; commit applies exactly the accepted items through
 * `reflect.apply` (one journalled change). Progress and cancel are `reflect.progress` / `reflect.cancel`.
 */
import { z } from 'zod';
import { method } from '../define.js';
import { OP_NAMES } from '../../reflect/policy.js';
import type { ApplyResult } from '../../reflect/types.js';
import type { PlanSummary, ReviewAction, ReviewCounts, ReviewItem } from '../../review/review.js';
import { reflectPlanInput } from './shared/reflect-plan-input.js';
export type { PlanSummary, ReviewAction, ReviewCounts, ReviewItem };

const opName = z.enum(OP_NAMES);
const planId = z.string().min(1, 'plan_id is required').max(100);

export const reviewActions = z
  .array(
    z
      .object({ do: z.enum(['accept', 'reject']), ids: z.array(z.string().min(1).max(100)).max(1_000_000).optional(), group: opName.optional() })
      .refine((a) => (a.ids?.length ?? 0) > 0 || a.group !== undefined, 'an action names ids or a group'),
  )
  .max(10_000)
  .optional()
  .default([]);

export const reviewContract = {
  'review.plan': method<PlanSummary>()({
    description: 'Plan a reflection pass (dry run, as reflect.plan) and keep it for review; returns its summary (groups with counts, no items).',
    input: reflectPlanInput,
  }),
  'review.items': method<{ total: number; matched: number; items: ReviewItem[] }>()({
    description:
      'A page of one op of a plan under review, each item with its state (accepted, rejected, follows) and why; optionally filtered (text, owner, type, cosine band, state, identical texts), sorted (cosine, type, owner) and sampled (a repeatable pick of n). `total` counts the op, `matched` what the filter kept.',
    input: z
      .object({
        plan_id: planId,
        op: opName.nullable().optional(),
        offset: z.number().int().min(0).optional().default(0),
        limit: z.number().int().min(1).max(2000).optional().default(50),
        actions: reviewActions,
        sort: z.enum(['plan', 'cos_desc', 'cos_asc', 'type', 'owner']).optional(),
        text: z.string().max(500).optional(),
        owner: z.string().max(500).optional(),
        type: z.string().max(100).optional(),
        cos_min: z.number().min(-1).max(1).optional(),
        cos_max: z.number().min(-1).max(1).optional(),
        state: z.enum(['accepted', 'rejected', 'follows']).optional(),
        not_merged: z.boolean().optional(),
        sample: z.number().int().min(1).max(100_000).optional(),
        seed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
      })
      .refine((q) => q.cos_min === undefined || q.cos_max === undefined || q.cos_min <= q.cos_max, { message: 'cos_min must not exceed cos_max', path: ['cos_min'] }),
  }),
  'review.counts': method<ReviewCounts>()({
    description: 'How many items of each op are accepted, rejected or follow a rejection, under the actions.',
    input: z.object({ plan_id: planId, actions: reviewActions }),
  }),
  'review.commit': method<ApplyResult & { accepted: number }>()({
    description: 'Apply the accepted items of a plan under review as one journalled change; refused (conflict) when the store changed since planning.',
    input: z.object({ plan_id: planId, actions: reviewActions }),
    mutates: true,
  }),
};
