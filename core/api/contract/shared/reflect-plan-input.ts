/**
 * The input of a reflection plan, shared by `reflect.plan` and `review.plan` (which plans the same
 * way and keeps the plan for review). Not a prefix file: it declares no method.
 */
import { z } from 'zod';
import { endpointName } from '../../../reflect/endpoint-name.js';
import { UNTIL_NAMES } from '../../../reflect/policy.js';

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


export const reflectPlanInput = z.object({
  scope: z.string().max(200).nullable().optional(),
  until: z.enum(UNTIL_NAMES).nullable().optional(),
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
