/**
 * Scoring profiles: every knob of the recall pipeline plus feature flags, as one config object.
 * `nooa-0.0.9` reproduces the reference bit for bit (the default for a store without mnemo_meta);
 * `mnemo` (the default for new stores) keeps the same scoring and fixes the reference's known
 * faults. A new improvement is a new flag with its nooa value pinned in NOOA_PROFILE, so the
 * compatibility path never moves. Every difference is listed in docs/recall.md.
 */
import { MnemoError } from '../errors.js';
import { isBuiltinProfile, type BuiltinProfileName } from '../model/profile-names.js';
import { MNEMO_FEATURES, mnemoFeatureDifferences } from './mnemo/profile-features.js';
import { MNEMO_FEATURES_OFF, type MnemoFeatures } from './mnemo/features.js';
import type { ProfileName as RecallProfileName } from '../store/port/port.js';

export interface RecallWeights {
  /** a_rel */
  relevance: number;
  /** a_rec */
  recency: number;
  /** a_imp */
  importance: number;
  /** λ: rel = λ·cos + (1−λ)·Jaccard(query cues, cue set) */
  lambda_embed: number;
  /** d in the ACT-R base-level activation Σ max(now − t, 1)^−d */
  base_level_decay: number;
  /** γ: activation = s_base + γ·spread */
  spread_gamma: number;
}

export interface RecallKnobs {
  top_k: number;
  n_dense: number;
  n_sparse: number;
  hops: number;
  per_hop_decay: number;
  per_hop_fanout: number;
  activation_floor: number;
  min_similarity: number;
  /** Max keyword-leg tokens (first occurrence order). */
  max_tokens: number;
  /** Below this spread a min-max term is 0 for everyone. */
  normalise_epsilon: number;
  weights: RecallWeights;
}

export type SparseField = 'content' | 'title' | 'tags';

/**
 * What recall does with a memory a resolution superseded (core/engine/resolutions.ts): leave it
 * out (`exclude`), halve its activation (`demote`), or rank it as any other (`include`). Either
 * way a returned superseded memory says what superseded it.
 */
export const SUPERSEDED_POLICIES = ['exclude', 'demote', 'include'] as const;
export type SupersededPolicy = (typeof SUPERSEDED_POLICIES)[number];

export interface RecallFeatures extends MnemoFeatures {
  /** Which fields the keyword (substring) leg reads. nooa: content only. */
  sparse_fields: readonly SparseField[];
  /** Archived memories may be reached by spread (nooa v0.0.9) or never receive nor relay activation. */
  spread_through_archived: boolean;
  /**
   * Superseded memories (conflict resolutions). Both built-in profiles exclude them: only Mnemo's
   * resolutions supersede a memory, so on a store without one nooa's profile ranks as the reference.
   */
  superseded: SupersededPolicy;
}

export interface RecallProfile {
  /** A built-in profile's name, or the name a fitted profile was given (`mnemo tune`). */
  name: string;
  knobs: Readonly<RecallKnobs>;
  features: Readonly<RecallFeatures>;
}

export const NOOA_KNOBS: Readonly<RecallKnobs> = Object.freeze({
  top_k: 5,
  n_dense: 50,
  n_sparse: 50,
  hops: 1,
  per_hop_decay: 0.6,
  per_hop_fanout: 5,
  activation_floor: 0.05,
  min_similarity: 0.0,
  max_tokens: 12,
  normalise_epsilon: 1e-12,
  weights: Object.freeze({
    relevance: 1.0,
    recency: 0.5,
    importance: 0.5,
    lambda_embed: 0.7,
    base_level_decay: 0.5,
    spread_gamma: 0.5,
  }),
});

export const NOOA_PROFILE: RecallProfile = Object.freeze({
  name: 'nooa-0.0.9',
  knobs: NOOA_KNOBS,
  features: Object.freeze({ sparse_fields: Object.freeze(['content'] as SparseField[]), spread_through_archived: true, superseded: 'exclude', ...MNEMO_FEATURES_OFF }),
});

export const MNEMO_PROFILE: RecallProfile = Object.freeze({
  name: 'mnemo',
  knobs: NOOA_KNOBS,
  features: Object.freeze({ sparse_fields: Object.freeze(['content', 'title', 'tags'] as SparseField[]), spread_through_archived: false, superseded: 'exclude', ...MNEMO_FEATURES }),
});

const PROFILES: Readonly<Record<BuiltinProfileName, RecallProfile>> = { 'nooa-0.0.9': NOOA_PROFILE, mnemo: MNEMO_PROFILE };

/** A built-in profile. A name that may be a saved profile is resolved by resolveProfile (saved-profiles.ts). */
export function profileFor(name: RecallProfileName): RecallProfile {
  if (!isBuiltinProfile(name)) throw new MnemoError('internal', `"${name}" is not a built-in profile; resolve saved profiles against their store`);
  return PROFILES[name];
}

/** Human-readable differences of a profile from nooa v0.0.9 (shown by `recall.profile`). */
export function profileDifferences(p: RecallProfile): string[] {
  const out: string[] = [];
  const base = NOOA_PROFILE;
  if (p.features.sparse_fields.join(',') !== base.features.sparse_fields.join(',')) {
    out.push(`the keyword leg reads ${p.features.sparse_fields.join(', ')} (nooa: content only)`);
  }
  if (p.features.spread_through_archived !== base.features.spread_through_archived) {
    out.push('archived memories never receive or relay spread activation (nooa v0.0.9 lets spread pull them back in)');
  }
  if (p.features.superseded !== base.features.superseded) {
    out.push(`superseded memories are ${p.features.superseded === 'demote' ? 'demoted (activation halved)' : 'ranked as any other'} (both built-in profiles leave them out)`);
  }
  out.push(...mnemoFeatureDifferences(p.features));
  const flat = (k: RecallKnobs) => ({ ...k, ...k.weights, weights: undefined });
  const a = flat(p.knobs) as Record<string, unknown>;
  const b = flat(base.knobs) as Record<string, unknown>;
  for (const key of Object.keys(a)) if (key !== 'weights' && a[key] !== b[key]) out.push(`${key} = ${String(a[key])} (nooa: ${String(b[key])})`);
  return out;
}

/** Plain JSON of a profile (for the API and docs). */
export function profileConfig(p: RecallProfile): Record<string, unknown> {
  return {
    knobs: { ...p.knobs, weights: { ...p.knobs.weights } },
    features: { ...p.features, sparse_fields: [...p.features.sparse_fields], bm25: p.features.bm25 ? { ...p.features.bm25 } : null },
  };
}
