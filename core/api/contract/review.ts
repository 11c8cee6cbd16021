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
import { conflictRecallInput, conflictsInput, flagInput, resolutionInput } from './shared/conflict-inputs.js';
import type { ConflictItem, ConflictPage, ConflictSide, ConflictKind } from '../../review/conflicts/queue.js';
import type { RecallToday } from '../../review/conflicts/recall-today.js';
import type { ResolutionResult } from '../../review/conflicts/resolutions-api.js';
export type { PlanSummary, ReviewAction, ReviewCounts, ReviewItem, ConflictItem, ConflictPage, ConflictSide, ConflictKind, RecallToday, ResolutionResult };

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
  'review.conflicts': method<ConflictPage>()({
    description:
      'The conflict queue, most harmful first (the chance the answer recall gives is wrong × its recalls and injections): pairs joined by a contradicts edge, pairs stating different values of one thing, and beliefs the belief layer doubts. Items carry `kind` and the `ids` of both memories, or `entity` and `attribute`. The first call builds the index (reported by recall.indexBuild).',
    input: conflictsInput,
  }),
  'review.conflictRecall': method<RecallToday>()({
    description: "What recall returns today for a conflict: a dry run of the store's default recall for the words both memories share, and where each lands (or that it is left out as superseded).",
    input: conflictRecallInput,
  }),
  'review.resolve': method<ResolutionResult>()({
    description:
      'Settles a conflict as one journalled change (undo it with journal.undo): supersede (current B, A stays with superseded_by and leaves default recall), forget (A is wrong: deleted with a tombstone), both_hold (the pair leaves the queue for good), merge, and for beliefs assert (a curator observation with reliability 1) or reject (an observation stops counting).',
    input: resolutionInput,
    mutates: true,
  }),
  'review.flag': method<{ src: string; dst: string; changed: boolean; change_id: number | null }>()({
    description: 'Flags a contradiction: a contradicts edge a → b with a note the queue shows beside the pair (one change).',
    input: flagInput,
    mutates: true,
  }),
  'review.commit': method<ApplyResult & { accepted: number }>()({
    description: 'Apply the accepted items of a plan under review as one journalled change; refused (conflict) when the store changed since planning.',
    input: z.object({ plan_id: planId, actions: reviewActions }),
    mutates: true,
  }),
};
