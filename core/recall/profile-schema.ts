/**
 * The shape of a profile as data: every knob and feature of RecallProfile with the range it may
 * take, checked wherever a profile enters (the API, a profile file, a row another process wrote).
 * Objects are strict, so an unknown or misspelt key is refused rather than silently ignored, and
 * every number is finite. The ranges are wide enough for any sane fit and narrow enough that a
 * hostile profile cannot make recall allocate or loop without bound (n_dense, fanout, max_terms).
 */
import { z } from 'zod';

/** A saved profile's name: lower case, so no name differs from a built-in one only by case. */
export const PROFILE_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
export const PROFILE_NAME_HELP = 'a profile name is 1 to 64 characters: lower-case letters, digits, ".", "_" or "-", starting with a letter or digit';
/** The most saved profiles a store keeps (a list, a picker and a diff stay small). */
export const MAX_SAVED_PROFILES = 200;
/** The most characters of a profile's JSON (a full profile is about 700). */
export const MAX_PROFILE_JSON = 8_192;

// zod 4's number refuses NaN and ±Infinity itself.
const num = (min: number, max: number) => z.number({ error: `must be a number within [${min}, ${max}]` }).min(min).max(max);
const int = (min: number, max: number) => z.number({ error: `must be a whole number within [${min}, ${max}]` }).int().min(min).max(max);

export const profileNameSchema = z.string({ error: PROFILE_NAME_HELP }).max(64, PROFILE_NAME_HELP).regex(PROFILE_NAME_PATTERN, PROFILE_NAME_HELP);

export const weightsSchema = z.strictObject({
  relevance: num(0, 100),
  recency: num(0, 100),
  importance: num(0, 100),
  lambda_embed: num(0, 1),
  base_level_decay: num(0, 5),
  spread_gamma: num(0, 100),
});

export const knobsSchema = z.strictObject({
  top_k: int(1, 1000),
  n_dense: int(1, 10_000),
  n_sparse: int(1, 10_000),
  hops: int(0, 4),
  per_hop_decay: num(0, 1),
  per_hop_fanout: int(0, 1000),
  activation_floor: num(0, 10),
  min_similarity: num(-1, 1),
  max_tokens: int(1, 256),
  normalise_epsilon: num(0, 1),
  weights: weightsSchema,
});

export const bm25Schema = z.strictObject({
  n: int(1, 10_000),
  stem: z.boolean(),
  stop_words: z.boolean(),
  question_words: z.boolean(),
  max_terms: int(1, 256),
  context_weight: num(0, 10),
  weight: num(0, 100),
});

export const featuresSchema = z.strictObject({
  sparse_fields: z
    .array(z.enum(['content', 'title', 'tags']))
    .min(1)
    .max(3)
    .refine((f) => new Set(f).size === f.length, 'sparse_fields lists each field once'),
  spread_through_archived: z.boolean(),
  superseded: z.enum(['exclude', 'demote', 'include']),
  substring_leg: z.boolean(),
  bm25: bm25Schema.nullable(),
  entity_boost: num(0, 100),
  sibling_spread: num(0, 100),
  parent_spread: num(0, 100),
  cooccurrence: num(0, 100),
  max_siblings: int(0, 100_000),
  recency_scale: z.enum(['minmax', 'absolute']),
});

/** A profile's full configuration: exactly the shape of profileConfig(p). */
export const profileConfigSchema = z.strictObject({
  knobs: knobsSchema,
  // Absent in profiles saved before the feature existed: they keep ranking as they did (off).
  features: featuresSchema.extend({
    parent_spread: num(0, 100).default(0),
    cooccurrence: num(0, 100).default(0),
    superseded: z.enum(['exclude', 'demote', 'include']).default('exclude'),
  }),
});
export type ProfileConfig = z.infer<typeof profileConfigSchema>;

/** Overrides on top of a base profile: any subset of the knobs and features (bm25 may be set to null). */
export const profileOverridesSchema = z.strictObject({
  knobs: knobsSchema.extend({ weights: weightsSchema.partial() }).partial().optional(),
  features: featuresSchema.extend({ bm25: bm25Schema.partial().nullable() }).partial().optional(),
});
export type ProfileOverrides = z.infer<typeof profileOverridesSchema>;

/**
 * A profile file, as `mnemo tune` writes it and `mnemo profiles save --file` reads it: profileConfig(p)
 * plus its name and the profile it started from. knobs and features may be partial (overrides).
 */
export const profileFileSchema = profileOverridesSchema.extend({
  name: profileNameSchema.optional(),
  base: z.string().max(64).optional(),
});
export type ProfileFile = z.infer<typeof profileFileSchema>;
