/**
 * The knobs `mnemo tune` may move: every numeric knob of a recall profile that changes how the
 * candidates are scored or how many there are, with the range it may take. Left out, and why:
 *   - `top_k`: how many results a call returns by default, not how they are ranked;
 *   - `normalise_epsilon`: a numerical guard against dividing by a zero spread;
 *   - `max_tokens`, `min_similarity`: nooa's leg limits, kept as the reference has them;
 *   - `bm25.stem`: it picks another keyword index (a tokenisation), so it is not a knob of one
 *     set of indexes; like every other switch (`stop_words`, `question_words`, `substring_leg`,
 *     `recency_scale`, `sparse_fields`, `spread_through_archived`) it is a feature, chosen by hand;
 *   - the BM25 knobs when the profile has no BM25 leg (nooa-0.0.9).
 * Ranges are wide enough to hold every value the shipped profiles use, and no wider than what
 * still means something (a decay above 1 grows with each hop, a fanout of 0 is no spread).
 */
import { badInput } from '../errors.js';
import type { RecallKnobs, RecallProfile, RecallWeights } from '../recall/profile.js';
import type { Bm25LegKnobs, MnemoFeatures } from '../recall/mnemo/features.js';

export type KnobKind = 'continuous' | 'integer';

export interface KnobSpec {
  /** Dotted path as the profile JSON spells it: `knobs.weights.recency`, `features.bm25.weight`. */
  name: string;
  kind: KnobKind;
  min: number;
  max: number;
}

type WeightKey = keyof RecallWeights;
type KnobKey = Exclude<keyof RecallKnobs, 'weights'>;
type Bm25Key = Exclude<keyof Bm25LegKnobs, 'stem' | 'stop_words' | 'question_words'>;
type FeatureKey = Extract<keyof MnemoFeatures, 'entity_boost' | 'sibling_spread' | 'parent_spread' | 'cooccurrence' | 'max_siblings'>;

const WEIGHTS: Record<WeightKey, Omit<KnobSpec, 'name'>> = {
  relevance: { kind: 'continuous', min: 0, max: 4 },
  recency: { kind: 'continuous', min: 0, max: 4 },
  importance: { kind: 'continuous', min: 0, max: 4 },
  lambda_embed: { kind: 'continuous', min: 0, max: 1 },
  base_level_decay: { kind: 'continuous', min: 0.05, max: 2 },
  spread_gamma: { kind: 'continuous', min: 0, max: 4 },
};

const KNOBS: Partial<Record<KnobKey, Omit<KnobSpec, 'name'>>> = {
  n_dense: { kind: 'integer', min: 5, max: 300 },
  n_sparse: { kind: 'integer', min: 5, max: 300 },
  hops: { kind: 'integer', min: 0, max: 3 },
  per_hop_decay: { kind: 'continuous', min: 0, max: 1 },
  per_hop_fanout: { kind: 'integer', min: 1, max: 50 },
  activation_floor: { kind: 'continuous', min: 0, max: 1 },
};

const BM25: Record<Bm25Key, Omit<KnobSpec, 'name'>> = {
  n: { kind: 'integer', min: 5, max: 300 },
  max_terms: { kind: 'integer', min: 1, max: 64 },
  context_weight: { kind: 'continuous', min: 0, max: 2 },
  weight: { kind: 'continuous', min: 0, max: 8 },
};

const FEATURES: Record<FeatureKey, Omit<KnobSpec, 'name'>> = {
  entity_boost: { kind: 'continuous', min: 0, max: 4 },
  sibling_spread: { kind: 'continuous', min: 0, max: 2 },
  parent_spread: { kind: 'continuous', min: 0, max: 4 },
  cooccurrence: { kind: 'continuous', min: 0, max: 4 },
  max_siblings: { kind: 'integer', min: 0, max: 512 },
};

/** Every tunable knob of a profile (the BM25 knobs only when it has the leg), in a fixed order. */
export function knobSpace(profile: RecallProfile): KnobSpec[] {
  const out: KnobSpec[] = [];
  for (const [k, s] of Object.entries(WEIGHTS)) out.push({ name: `knobs.weights.${k}`, ...s });
  for (const [k, s] of Object.entries(KNOBS)) out.push({ name: `knobs.${k}`, ...s });
  if (profile.features.bm25) for (const [k, s] of Object.entries(BM25)) out.push({ name: `features.bm25.${k}`, ...s });
  for (const [k, s] of Object.entries(FEATURES)) out.push({ name: `features.${k}`, ...s });
  return out;
}

/** The specs named, in the order named; an unknown name is a typed error that lists the known ones. */
export function selectKnobs(profile: RecallProfile, names: readonly string[] | undefined): KnobSpec[] {
  const all = knobSpace(profile);
  if (!names) return all;
  for (const n of names) {
    if (!all.some((s) => s.name === n)) throw badInput(`unknown or untunable knob ${JSON.stringify(n)}; tunable: ${all.map((s) => s.name).join(', ')}`, { field: 'knobs' });
  }
  return names.map((n) => all.find((s) => s.name === n)!);
}

/** Clamped to the range, and rounded when the knob is an integer. */
export function legalValue(spec: KnobSpec, v: number): number {
  const clamped = Math.min(spec.max, Math.max(spec.min, v));
  return spec.kind === 'integer' ? Math.round(clamped) : clamped;
}

export function knobValue(profile: RecallProfile, name: string): number {
  const [group, a, b] = name.split('.');
  const root = (group === 'knobs' ? profile.knobs : profile.features) as unknown as Record<string, unknown>;
  const v = b === undefined ? root[a!] : (root[a!] as Record<string, unknown> | null)?.[b];
  if (typeof v !== 'number') throw badInput(`the profile has no numeric knob ${name}`, { field: name });
  return v;
}

/** The name the tuner may not give its output: nooa-0.0.9 is the reference's profile and stays frozen. */
export const FROZEN_PROFILE_NAME = 'nooa-0.0.9';

export function checkFittedName(name: string): void {
  if (name === FROZEN_PROFILE_NAME) throw badInput(`${FROZEN_PROFILE_NAME} is frozen (it reproduces the reference bit for bit): give the fitted profile another name`, { field: 'name' });
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) throw badInput(`a profile name is 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit; got ${JSON.stringify(name)}`, { field: 'name' });
}

/** A copy of the profile with the knobs set (each made legal first) and the given name. */
export function withKnobs(profile: RecallProfile, specs: readonly KnobSpec[], values: readonly number[], name: string = profile.name): RecallProfile {
  const knobs: Record<string, unknown> = { ...profile.knobs, weights: { ...profile.knobs.weights } };
  const features: Record<string, unknown> = { ...profile.features, bm25: profile.features.bm25 ? { ...profile.features.bm25 } : null };
  specs.forEach((spec, i) => {
    const [group, a, b] = spec.name.split('.');
    const root = group === 'knobs' ? knobs : features;
    const v = legalValue(spec, values[i]!);
    if (b === undefined) root[a!] = v;
    else (root[a!] as Record<string, unknown>)[b] = v;
  });
  return { name, knobs: knobs as unknown as RecallKnobs, features: features as unknown as RecallProfile['features'] };
}
