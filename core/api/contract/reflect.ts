/**
 * Reflection, the change journal and manual curation: what the workbench's review screen and the
 * CLI call. `reflect.plan` writes nothing and returns a reviewable plan (kept by id for apply);
 * `reflect.progress` / `reflect.cancel` let a UI follow and stop a long plan; `reflect.apply` applies
 * exactly the accepted ops in one undoable change.
 */
import { z } from 'zod';
import type { ChangeRow, ChangeSummary } from '../../store/journal.js';
import type { ApplyResult, ReflectionPlan } from '../../reflect/types.js';
import type { Memory } from '../../model/memory.js';
import type { MergeOrder } from '../../engine/curation.js';
import { method } from '../define.js';
import { idField, memoryPatchInput } from './memory.js';
import { endpointName } from '../../reflect/endpoint-name.js';
import type { EndpointSummary } from '../../reflect/llm-endpoints.js';

/**
 * The endpoint, model and key of generative ops are chosen on the server only: a request that tries
 * to supply them is refused (not silently ignored), naming the field and what to do instead.
 */
function serverSideOnly(g: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const field of ['base_url', 'api_key', 'model'] as const) {
    if (g[field] === undefined) continue;
    ctx.addIssue({
      code: 'custom',
      path: [field],
      message: `generative.${field} is not accepted in a request: LLM endpoints, models and keys are configured on the server (MNEMO_LLM_URL / MNEMO_LLM_MODEL / MNEMO_LLM_KEY, or --llm-config FILE); pick one by name with generative.endpoint (reflect.endpoints lists them)`,
    });
  }
}

const OPS = ['episode', 'merge', 'reconcile', 'link', 'rescore', 'abstract', 'prune', 'merge_duplicates', 'reconsolidate', 'form_edges', 'rescore_importance'] as const;
const changeId = z.number().int('a change id is a whole number').min(1, 'a change id is 1 or more');
const ids = z.array(idField).min(1, 'give at least one id').max(100_000);

export const reflectPlanInput = z.object({
  scope: z.string().max(200).nullable().optional(),
  until: z.enum(OPS).nullable().optional(),
  policy: z
    .object({
      merge_threshold: z.number().min(0).max(1),
      edge_threshold: z.number().min(0).max(1),
      max_edges_per_node: z.number().int().min(0).max(100),
      recon_threshold: z.number().min(0).max(1),
      recon_max_cluster: z.number().int().min(1).max(100),
      max_clusters_per_reflection: z.number().int().min(0).max(10_000),
      max_episodes_per_reflection: z.number().int().min(1).max(10_000),
    })
    .partial()
    .optional(),
  forget_policy: z
    .object({
      enabled: z.boolean(),
      decay_half_life_hours: z.number().positive(),
      prune_activation_threshold: z.number().min(0).max(1),
      prune_min_age_hours: z.number().min(0),
      archive_vs_delete: z.enum(['archive', 'delete']),
      protected_types: z.array(z.string()),
    })
    .partial()
    .optional(),
  generative: z
    .object({
      ops: z.array(z.enum(['reconcile', 'abstract', 'episode'])).min(1),
      /** The name of an endpoint configured on the server (see reflect.endpoints); default: the server's default. */
      endpoint: endpointName.optional(),
      // Named only to be refused with a message that says what to do instead (see serverSideOnly).
      base_url: z.unknown().optional(),
      api_key: z.unknown().optional(),
      model: z.unknown().optional(),
      transcript: z.string().max(200_000).optional(),
      max_calls: z.number().int().min(1).max(1000).optional(),
      max_tokens: z.number().int().min(1).optional(),
    })
    .superRefine(serverSideOnly)
    .optional(),
});

export interface PlanProgressState {
  running: boolean;
  op: string | null;
  done: number;
  total: number;
  started_at: number | null;
}

/** The running long write (core/api/handlers/write-job.ts). */
export interface WriteJobState {
  running: boolean;
  kind: string | null;
  done: number;
  total: number;
  /** From the store's clock. */
  started_at: number | null;
  /** Remaining seconds at the pace so far; null until there is a pace. */
  eta_s: number | null;
  /** A cancel was asked for; the job is taking back what it wrote. */
  cancelling: boolean;
  /** Whether this kind of job can be cancelled (an undo or redo runs to the end). */
  cancellable: boolean;
}

/** A change with the first memories it touched, so a UI can name it by their titles. */
export type NamedChange = ChangeSummary & { memory_ids: string[] };

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
  'journal.progress': method<WriteJobState>()({
    description: 'Where the running long write (reflect.apply, a big journal.undo or journal.redo) is: n of N and an ETA, for a progress bar.',
    input: z.object({}),
  }),
  'journal.cancel': method<{ cancelled: boolean }>()({
    description: 'Cancel the running reflect.apply: what it applied is taken back and the store is left as it was (it then fails with cancelled: true). An undo or redo is not cancellable.',
    input: z.object({}),
    mutates: true,
  }),
  'journal.history': method<ChangeSummary[]>()({
    description: 'The change journal, newest first: id, time, label, kind, counts, state.',
    input: z.object({ limit: z.number().int().min(1).max(10_000).optional().default(100), offset: z.number().int().min(0).optional().default(0) }),
  }),
  'journal.rows': method<{ change: ChangeSummary; rows: ChangeRow[] }>()({
    description: 'The before and after images of every row one change touched.',
    input: z.object({ change_id: z.number().int().min(1) }),
  }),
  'journal.dependents': method<{ change: NamedChange; dependents: NamedChange[]; total: number; rows: number }>()({
    description:
      'The later, still-applied changes that depend on a change (they touched a row it touched, or a row one of them touched), newest first: what journal.undo with with_dependents would undo before it. Each names up to 3 memories it touched (memory_ids, for titles); rows counts the journal rows of the whole group.',
    input: z.object({ change_id: changeId, limit: z.number().int().min(1).max(10_000).optional().default(100) }),
  }),
  'journal.undo': method<ChangeSummary & { dependents_undone?: ChangeSummary[] }>()({
    description:
      'Undo a change (restores its before images); refuses while a later change touched the same rows. with_dependents: true undoes those later changes too, newest first, then this one, as one step (all or nothing); dependents_undone lists them.',
    input: z.object({ change_id: changeId, with_dependents: z.boolean().optional().default(false) }),
    mutates: true,
  }),
  'journal.redo': method<ChangeSummary>()({
    description: 'Redo a change, or the most recently undone one.',
    input: z.object({ change_id: z.number().int().min(1).optional() }),
    mutates: true,
  }),
  'memory.merge': method<{ survivor: Memory; archived: string[]; change_id: number | null }>()({
    description:
      'Merge memories into a chosen survivor (fields editable); sources are archived, lineage kept as refines edges. Memories of different owners are refused unless allow_cross_owner is true.',
    input: z.object({ ids, survivor: idField, patch: memoryPatchInput.optional(), allow_cross_owner: z.boolean().optional().default(false) }),
    mutates: true,
  }),
  'memory.mergeOrder': method<MergeOrder>()({
    description: 'The default survivor of a merge of these memories (the older copy, the same rule as reflection) and their owners.',
    input: z.object({ ids: z.array(idField).min(1, 'give at least one id').max(1000) }),
  }),
  'memory.forget': method<{ forgotten: { id: string; hash: string }[]; change_id: number | null }>()({
    description: 'Forget memories: delete them and record a content tombstone, so re-adding the same text is flagged (undoable).',
    input: z.object({ ids }),
    mutates: true,
  }),
  'memory.delete': method<{ deleted: string[]; change_id: number | null }>()({
    description: 'Delete memories and their edges (journalled, undoable; no tombstone).',
    input: z.object({ ids }),
    mutates: true,
  }),
};
