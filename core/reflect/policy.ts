/**
 * nooa v0.0.9's ReflectionPolicy (config.ReflectionPolicy), knob for knob, plus the op names.
 * The deterministic ops use merge/edge thresholds and the edge cap; the generative ones the
 * reconcile and abstraction caps.
 */
import { z } from 'zod';

export interface ReflectionPolicy {
  enabled: boolean;
  trigger: 'post_task' | 'manual';
  only_top_level: boolean;
  entrypoint_methods: string[];
  background: boolean;
  max_episodes_per_reflection: number;
  merge_threshold: number;
  edge_threshold: number;
  max_edges_per_node: number;
  recon_threshold: number;
  recon_max_cluster: number;
  max_clusters_per_reflection: number;
}

export const DEFAULT_REFLECTION_POLICY: Readonly<ReflectionPolicy> = Object.freeze({
  enabled: true,
  trigger: 'post_task',
  only_top_level: true,
  entrypoint_methods: [],
  background: false,
  max_episodes_per_reflection: 50,
  merge_threshold: 0.95,
  edge_threshold: 0.8,
  max_edges_per_node: 5,
  recon_threshold: 0.6,
  recon_max_cluster: 6,
  max_clusters_per_reflection: 10,
});

const unit = z.number().min(0).max(1);

export const reflectionPolicySchema = z.object({
  enabled: z.boolean().default(true),
  trigger: z.enum(['post_task', 'manual']).default('post_task'),
  only_top_level: z.boolean().default(true),
  entrypoint_methods: z.array(z.string()).default([]),
  background: z.boolean().default(false),
  max_episodes_per_reflection: z.number().int().min(1).max(10_000).default(50),
  merge_threshold: unit.default(0.95),
  edge_threshold: unit.default(0.8),
  max_edges_per_node: z.number().int().min(0).max(100).default(5),
  recon_threshold: unit.default(0.6),
  recon_max_cluster: z.number().int().min(1).max(100).default(6),
  max_clusters_per_reflection: z.number().int().min(0).max(10_000).default(10),
});

export const forgetPolicySchema = z.object({
  enabled: z.boolean().default(true),
  decay_half_life_hours: z.number().positive().default(336),
  fetch_boost: z.number().default(1),
  prune_activation_threshold: z.number().min(0).max(1).default(0.02),
  prune_min_age_hours: z.number().min(0).default(24),
  archive_vs_delete: z.enum(['archive', 'delete']).default('archive'),
  protected_types: z.array(z.string()).default(['skill']),
});

/** The ops in pass order; `until` names one of them (step-through). */
export const OP_NAMES = ['episode', 'merge', 'reconcile', 'link', 'rescore', 'abstract', 'prune'] as const;
export type OpName = (typeof OP_NAMES)[number];

/** The names the reference reports in `stopped_in`. */
export const REFERENCE_OP_NAME: Record<OpName, string> = {
  episode: 'episode',
  merge: 'merge_duplicates',
  reconcile: 'reconsolidate',
  link: 'form_edges',
  rescore: 'rescore_importance',
  abstract: 'abstract',
  prune: 'prune',
};

/** What `--until` accepts: the short names, then the reference's names that differ from them. */
export const UNTIL_NAMES = [...new Set<string>([...OP_NAMES, ...Object.values(REFERENCE_OP_NAME)])] as [string, ...string[]];

/** `--until` accepts the short names and the reference's names. */
export function parseUntil(v: string | undefined | null): OpName | null {
  if (v === undefined || v === null || v === '') return null;
  const direct = (OP_NAMES as readonly string[]).includes(v) ? (v as OpName) : null;
  if (direct) return direct;
  const byRef = (Object.entries(REFERENCE_OP_NAME) as [OpName, string][]).find(([, r]) => r === v);
  return byRef ? byRef[0] : null;
}
