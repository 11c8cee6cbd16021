/**
 * Every constant of the belief layer, in one place. The `paper` profile implements the paper's
 * equations (Eqs. 1–7) with ε = 1 − reliability per observation; where the paper gives no number,
 * the value comes from Nous's code (half-life, novelty prior, prune floor, minimum overlap) or is a
 * stated, data-independent choice (θ_min, the alias divergence bound). The `nous-code` profile
 * reproduces the defaults of the code (`Pranavsingh431/nous-state`) as described in
 * the Nous design notes (nous-semantics.md §1.4).
 */
import { z } from 'zod';

export const BELIEF_PROFILES = ['paper', 'nous-code'] as const;
export type BeliefProfile = (typeof BELIEF_PROFILES)[number];

export interface BeliefConfig {
  profile: BeliefProfile;
  /** ε when an observation carries no reliability (paper: 0.01; code: r = 0.9 so ε = 0.1). */
  epsilonDefault: number;
  /**
   * How a value not yet in the vocabulary enters (Eq. 1's vocabulary extension):
   * - `decayed-share`: the value joins V before the prior is decayed to the observation's time, so it
   *   gets the share of mass that has flowed back to uniform since the last update (a value the entity
   *   could have switched to), and at least `noveltyPrior`;
   * - `one-over-k`: the code's rule: the value enters with 1/k (k = the new |V|) and all is renormalised.
   */
  novelEntry: 'decayed-share' | 'one-over-k';
  /** Prior mass floor of a novel value; with `one-over-k` only its surprise uses it (code: 0.05). */
  noveltyPrior: number;
  /** Values whose posterior falls below this are dropped and the rest renormalised (code: 0.01). */
  pruneFloor: number;
  /** Half-life of Eq. 4's entropy decay in days, in dataset time; null turns decay off (code: 30). */
  halfLifeDays: number | null;
  /** `bayes` is Eqs. 2–3; `flat` is the code's last-write-wins ablation (posterior = {obs: 1}). */
  update: 'bayes' | 'flat';
  /** Eq. 7: a value is listed when one of its deltas had surprise above θ_min bits. */
  thetaMinBits: number;
  /** Eq. 7's reliability weighting: `log-odds` keeps values whose Σ log(r/(1−r)) > 0; `none` keeps all. */
  aggregationWeighting: 'log-odds' | 'none';
  /** When false, a set-valued answer is just the mode (the "no aggregation" ablation). */
  aggregation: boolean;
  /** Identity resolution (Eq. 6): at least this many shared attributes (code: min_overlap 3). */
  aliasMinOverlap: number;
  /** Merge when the mean symmetrised KL per shared attribute is at most this many bits. */
  aliasMaxBitsPerAttribute: number;
  /** Jeffreys prior (0.5) smoothing the identity profiles over the attribute's vocabulary. */
  aliasDirichletAlpha: number;
  /** Which name pairs are candidates: same family name and related given names, or every pair. */
  aliasNameRule: 'family-and-given' | 'none';
  /** Which distribution Eq. 6 compares: the reliability-weighted profile over the whole log, or the current belief. */
  aliasDistribution: 'profile' | 'belief';
  /** Retrieval: BFS hops over relationship edges (code: 2 for relationship questions). */
  bfsHops: number;
  /** Retrieval: edges below this belief are not followed (code: 0.3). */
  bfsMinConfidence: number;
  /** Retrieval: at most this many entities are expanded (code: 12). */
  bfsMaxEntities: number;
  /** Retrieval: top-k evidence deltas by BM25 (code: 10). FTS5's bm25() fixes k1 = 1.2, b = 0.75. */
  evidenceTopK: number;
}

export const PAPER_CONFIG: BeliefConfig = Object.freeze({
  profile: 'paper',
  epsilonDefault: 0.01,
  novelEntry: 'decayed-share',
  noveltyPrior: 0.05,
  pruneFloor: 0.01,
  halfLifeDays: 30,
  update: 'bayes',
  thetaMinBits: 0.5,
  aggregationWeighting: 'log-odds',
  aggregation: true,
  aliasMinOverlap: 3,
  aliasMaxBitsPerAttribute: 1,
  aliasDirichletAlpha: 0.5,
  aliasNameRule: 'family-and-given',
  aliasDistribution: 'profile',
  bfsHops: 2,
  bfsMinConfidence: 0.3,
  bfsMaxEntities: 12,
  evidenceTopK: 10,
} satisfies BeliefConfig);

export const NOUS_CODE_CONFIG: BeliefConfig = Object.freeze({
  ...PAPER_CONFIG,
  profile: 'nous-code',
  epsilonDefault: 0.1,
  novelEntry: 'one-over-k',
  thetaMinBits: 0,
  aggregationWeighting: 'none',
} satisfies BeliefConfig);

export const PROFILE_CONFIGS: Record<BeliefProfile, BeliefConfig> = { paper: PAPER_CONFIG, 'nous-code': NOUS_CODE_CONFIG };

const prob = (name: string) => z.number().refine((v) => Number.isFinite(v) && v >= 0 && v <= 1, `${name} must be within [0, 1]`);

export const beliefConfigOverrides = z
  .object({
    epsilonDefault: prob('epsilonDefault').refine((v) => v > 0 && v < 1, 'epsilonDefault must be strictly between 0 and 1'),
    novelEntry: z.enum(['decayed-share', 'one-over-k']),
    noveltyPrior: prob('noveltyPrior').refine((v) => v > 0 && v < 1, 'noveltyPrior must be strictly between 0 and 1'),
    pruneFloor: prob('pruneFloor').refine((v) => v < 0.5, 'pruneFloor must be below 0.5'),
    halfLifeDays: z.number().positive('halfLifeDays must be positive (or null for no decay)').nullable(),
    update: z.enum(['bayes', 'flat']),
    thetaMinBits: z.number().min(0, 'thetaMinBits cannot be negative'),
    aggregationWeighting: z.enum(['log-odds', 'none']),
    aggregation: z.boolean(),
    aliasMinOverlap: z.number().int().min(1, 'aliasMinOverlap must be at least 1'),
    aliasMaxBitsPerAttribute: z.number().min(0),
    aliasDirichletAlpha: z.number().positive('aliasDirichletAlpha must be positive'),
    aliasNameRule: z.enum(['family-and-given', 'none']),
    aliasDistribution: z.enum(['profile', 'belief']),
    bfsHops: z.number().int().min(0).max(4),
    bfsMinConfidence: prob('bfsMinConfidence'),
    bfsMaxEntities: z.number().int().min(1).max(1000),
    evidenceTopK: z.number().int().min(1).max(200),
  })
  .partial()
  .strict();

export type BeliefConfigOverrides = z.infer<typeof beliefConfigOverrides>;

export function resolveConfig(profile: BeliefProfile = 'paper', overrides: BeliefConfigOverrides = {}): BeliefConfig {
  return { ...PROFILE_CONFIGS[profile], ...overrides, profile };
}

/** λ per second from the half-life (Eq. 4's retention factor); 1 when decay is off. */
export function lambdaPerSecond(config: Pick<BeliefConfig, 'halfLifeDays'>): number {
  return config.halfLifeDays === null ? 1 : Math.pow(0.5, 1 / (config.halfLifeDays * 86400));
}
