/**
 * The zod schema of a ReflectionPlan read back from a file or the wire: apply trusts nothing it did
 * not check. Fields apply does not use are allowed through (.loose) so a newer plan's extra notes
 * do not break an older reader.
 */
import { z } from 'zod';
import { badInput } from '../errors.js';
import { forgetPolicySchema, OP_NAMES, reflectionPolicySchema } from './policy.js';
import type { ReflectionPlan } from './types.js';
import { epochSeconds, LIMITS, rangedNumber } from '../model/limits.js';

const num = z.number().refine(Number.isFinite, 'must be finite');
const id = z.string().min(1).max(200);
const edge = z.object({ target_id: id, type: z.string(), weight: num });
const fold = z.object({ importance: num, salience: num, confidence: num, strength: num, reinforcement_count: num });
const window = z.object({ position: z.number().int().min(0), k: z.number().int().min(1), displaced: z.array(z.object({ id, by: id })) });
// A memory the plan creates is written as given: it meets the same limits as memory.add.
const spec = z.object({
  id,
  type: z.enum(['info', 'skill', 'episode', 'intent', 'todo', 'reflection', 'scratch']),
  title: z.string().max(LIMITS.maxStringChars).nullable(),
  content: z.string().min(1).max(LIMITS.maxContentChars),
  owner: z.string().max(200),
  importance: rangedNumber('importance', LIMITS.importance),
  tags: z.array(z.string().max(LIMITS.maxStringChars)).max(LIMITS.maxListItems),
  created_at: epochSeconds('created_at'),
  edges: z.array(edge.extend({ weight: rangedNumber('weight', { min: 0, max: 1 }) })).max(LIMITS.maxEdges),
});

const op = z.discriminatedUnion('op', [
  z.object({ id, op: z.literal('merge'), anchor: id, dup: id, type: z.string(), cos: num, threshold: num, reason: z.string(), window, before: z.object({ anchor: fold, dup: fold }), after: z.object({ anchor: fold }), edges_moved: z.array(edge), refines: edge }).loose(),
  z.object({ id, op: z.literal('link'), src: id, dst: id, type: z.literal('related'), weight: num.min(0).max(1), cos: num, threshold: z.object({ min: num, below: num }), reason: z.string(), window, depends_on: z.array(id) }).loose(),
  z.object({ id, op: z.literal('rescore'), memory: id, before: num, after: num, terms: z.object({ importance: num, salience: num, activation: num, base: num, raw: num, floor_applied: z.boolean() }), reason: z.string() }).loose(),
  z.object({ id, op: z.literal('prune'), memory: id, action: z.enum(['archive', 'delete']), retention: num, threshold: num, strength: num, importance: num, age_hours: num, reason: z.string() }).loose(),
  z.object({ id, op: z.literal('reconcile'), cluster: z.array(id), cluster_cos: z.array(num), consolidated: spec, archive: z.array(id), rejected_ids: z.array(z.string()), reason: z.string() }).loose(),
  z.object({ id, op: z.literal('abstract'), memory: spec, episodes: z.array(id), reason: z.string() }).loose(),
  z.object({ id, op: z.literal('episode'), memory: spec, reason: z.string() }).loose(),
]);

export const reflectionPlanSchema = z
  .object({
    kind: z.literal('mnemo.reflection-plan'),
    version: z.literal(1),
    id: z.string().min(1),
    created_at: num,
    now: num,
    store: z.object({ name: z.string(), fingerprint: z.string(), data_version: z.number(), memories: z.number(), live: z.number() }).loose(),
    scope: z.string().nullable(),
    policy: reflectionPolicySchema,
    forget_policy: forgetPolicySchema,
    until: z.enum(OP_NAMES).nullable(),
    groups: z.array(z.object({ op: z.enum(OP_NAMES), name: z.string(), ops: z.array(op), ms: num, notes: z.record(z.string(), z.union([z.number(), z.string()])) }).loose()),
    report: z.object({}).loose(),
  })
  .loose();

/** Parses a plan from unknown JSON, naming the first problem. */
export function parsePlan(raw: unknown): ReflectionPlan {
  const r = reflectionPlanSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw badInput(`not a reflection plan: ${issue.path.join('.') || '(root)'}: ${issue.message}; produce one with "mnemo reflect <db> --dry-run --json"`, { field: 'plan' });
  }
  // Op ids must be unique: accept lists address them.
  const seen = new Set<string>();
  for (const g of r.data.groups) for (const o of g.ops) {
    if (seen.has(o.id)) throw badInput(`not a reflection plan: op id ${o.id} appears twice`, { field: 'plan' });
    seen.add(o.id);
  }
  return r.data as unknown as ReflectionPlan;
}
