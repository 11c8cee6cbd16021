/**
 * A fitted profile as a file (`<dir>/profile.json`): the profile's name, knobs and features as
 * plain JSON, checked on read with zod. Every field is required and no other is allowed (a typo
 * must not silently fall back to a default); each tunable knob must lie in its knob-space range,
 * so every profile the tuner writes reads back, and the others in a range that still means
 * something. An error names the file and the field.
 */
import { z } from 'zod';
import { badInput } from '../errors.js';
import { MNEMO_PROFILE, profileConfig, type RecallProfile } from '../recall/profile.js';
import { checkFittedName, FROZEN_PROFILE_NAME, knobSpace } from './knob-space.js';

/** A profile file is a few hundred bytes; anything this large is not one. */
export const PROFILE_FILE_MAX_BYTES = 64 * 1024;

const SPECS = new Map(knobSpace(MNEMO_PROFILE).map((s) => [s.name, s]));

/** The knob's number schema: its knob-space range and kind when it is tunable, else the range given. */
function knob(name: string, fallback?: { min: number; max: number; int?: boolean }) {
  const spec = SPECS.get(name);
  const min = spec?.min ?? fallback!.min;
  const max = spec?.max ?? fallback!.max;
  const n = z.number().min(min).max(max);
  return spec?.kind === 'integer' || fallback?.int ? n.int() : n;
}

const weights = z.strictObject({
  relevance: knob('knobs.weights.relevance'),
  recency: knob('knobs.weights.recency'),
  importance: knob('knobs.weights.importance'),
  lambda_embed: knob('knobs.weights.lambda_embed'),
  base_level_decay: knob('knobs.weights.base_level_decay'),
  spread_gamma: knob('knobs.weights.spread_gamma'),
});

const knobs = z.strictObject({
  top_k: knob('knobs.top_k', { min: 1, max: 1000, int: true }),
  n_dense: knob('knobs.n_dense'),
  n_sparse: knob('knobs.n_sparse'),
  hops: knob('knobs.hops'),
  per_hop_decay: knob('knobs.per_hop_decay'),
  per_hop_fanout: knob('knobs.per_hop_fanout'),
  activation_floor: knob('knobs.activation_floor'),
  min_similarity: knob('knobs.min_similarity', { min: -1, max: 1 }),
  max_tokens: knob('knobs.max_tokens', { min: 1, max: 64, int: true }),
  normalise_epsilon: knob('knobs.normalise_epsilon', { min: 0, max: 1 }),
  weights,
});

const bm25 = z.strictObject({
  n: knob('features.bm25.n'),
  stem: z.boolean(),
  stop_words: z.boolean(),
  question_words: z.boolean(),
  max_terms: knob('features.bm25.max_terms'),
  context_weight: knob('features.bm25.context_weight'),
  weight: knob('features.bm25.weight'),
});

const features = z.strictObject({
  sparse_fields: z
    .array(z.enum(['content', 'title', 'tags']))
    .max(3)
    .refine((a) => new Set(a).size === a.length, 'sparse_fields lists a field twice'),
  spread_through_archived: z.boolean(),
  // Absent in files written before the knob existed: both built-in profiles exclude superseded memories.
  superseded: z.enum(['exclude', 'demote', 'include']).default('exclude'),
  substring_leg: z.boolean(),
  bm25: bm25.nullable(),
  entity_boost: knob('features.entity_boost'),
  sibling_spread: knob('features.sibling_spread'),
  // Absent in files written before the feature existed: they keep ranking as they did.
  parent_spread: knob('features.parent_spread').default(0),
  cooccurrence: knob('features.cooccurrence').default(0),
  max_siblings: knob('features.max_siblings'),
  recency_scale: z.enum(['minmax', 'absolute']),
});

export const profileFileSchema = z.strictObject({
  name: z.string().min(1).max(64),
  knobs,
  features,
});

export type ProfileFile = z.infer<typeof profileFileSchema>;

/** The profile as the file holds it. */
export function profileFileJson(profile: RecallProfile): ProfileFile {
  return { name: profile.name, ...(profileConfig(profile) as Omit<ProfileFile, 'name'>) };
}

/** Parses a profile file's text; `source` (the file's name) starts every error message. */
export function parseProfileFile(text: string, source: string): RecallProfile {
  if (Buffer.byteLength(text, 'utf8') > PROFILE_FILE_MAX_BYTES) throw badInput(`${source}: a profile file is at most ${PROFILE_FILE_MAX_BYTES} bytes`, { file: source });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw badInput(`${source}: not JSON (${(err as Error).message})`, { file: source });
  }
  const parsed = profileFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || '(top level)';
    throw badInput(`${source}: ${field}: ${issue.message}`, { file: source, field });
  }
  const p = parsed.data;
  // A file may not pose as the reference's frozen profile: nooa-0.0.9 is only ever the built-in one.
  if (p.name === FROZEN_PROFILE_NAME) throw badInput(`${source}: name: ${FROZEN_PROFILE_NAME} is the frozen built-in profile; a profile file needs another name`, { file: source, field: 'name' });
  try {
    checkFittedName(p.name);
  } catch (err) {
    throw badInput(`${source}: name: ${(err as Error).message}`, { file: source, field: 'name' });
  }
  return Object.freeze({
    name: p.name,
    knobs: Object.freeze({ ...p.knobs, weights: Object.freeze({ ...p.knobs.weights }) }),
    features: Object.freeze({ ...p.features, sparse_fields: Object.freeze([...p.features.sparse_fields]), bm25: p.features.bm25 ? Object.freeze({ ...p.features.bm25 }) : null }),
  });
}
