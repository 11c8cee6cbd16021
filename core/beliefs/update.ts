/**
 * One observation applied to one dimension: decay the stored posterior to the observation's time
 * (Eq. 4), extend the vocabulary with a novel value (Eq. 1), measure surprise (Eq. 1), apply the
 * closed-form posterior (Eqs. 2–3), prune. Returns what the delta records.
 */
import type { BeliefConfig } from './config.js';
import { decay, normalize, OTHER, posterior, prune, retention, surprise, type Dist } from './equations.js';

export interface DimensionState {
  /** The posterior right after the last update (not decayed). */
  dist: Dist;
  /** Dataset time of the last update. */
  tLast: number;
}

export interface UpdateResult {
  prior: Dist;
  posterior: Dist;
  surprise: number;
  epsilon: number;
}

export function epsilonFor(reliability: number | null | undefined, config: Pick<BeliefConfig, 'epsilonDefault'>): number {
  return reliability === null || reliability === undefined ? config.epsilonDefault : 1 - reliability;
}

/** The prior an observation of `value` at time t meets, per the profile's novelty rule. */
export function priorFor(state: DimensionState | null, value: string, t: number, config: BeliefConfig, lambda: number): { prior: Dist; pObs: number } {
  if (config.novelEntry === 'one-over-k') {
    // Nous's code: decay what is there, surprise uses the novelty prior for an unseen value,
    // then the new value enters with 1/k and everything is renormalised.
    const base = state ? decay(state.dist, lambda, t - state.tLast) : { [OTHER]: 1 };
    if (value in base) return { prior: base, pObs: base[value]! };
    const k = Object.keys(base).length + 1;
    return { prior: normalize({ ...base, [value]: 1 / k }), pObs: config.noveltyPrior };
  }
  // Paper profile. A fresh dimension knows nothing: uniform over {other, value}.
  if (!state) {
    const prior = { [OTHER]: 0.5, [value]: 0.5 };
    return { prior, pObs: 0.5 };
  }
  const extended: Dist = value in state.dist ? state.dist : { ...state.dist, [value]: 0 };
  const prior = decay(extended, lambda, t - state.tLast);
  const got = prior[value]!;
  if (got < config.noveltyPrior) {
    // Eq. 1's vocabulary extension: the value gets the novelty mass and the rest is renormalised.
    const scale = (1 - config.noveltyPrior) / (1 - got);
    for (const k in prior) prior[k] = k === value ? config.noveltyPrior : prior[k]! * scale;
  }
  return { prior, pObs: prior[value]! };
}

export function applyObservation(
  state: DimensionState | null,
  value: string,
  t: number,
  reliability: number | null | undefined,
  config: BeliefConfig,
  lambda: number,
): UpdateResult {
  const epsilon = epsilonFor(reliability, config);
  const { prior, pObs } = priorFor(state, value, t, config, lambda);
  const s = surprise(pObs);
  if (config.update === 'flat') return { prior, posterior: { [value]: 1 }, surprise: s, epsilon };
  const post = posterior(prior, value, epsilon);
  const keep = config.novelEntry === 'one-over-k' ? [value] : [value, OTHER];
  return { prior, posterior: prune(post, config.pruneFloor, keep), surprise: s, epsilon };
}

/** The belief at time `at` given the posterior stored at `tLast` (lazy decay in dataset time). */
export function beliefAt(state: DimensionState, at: number, lambda: number): Dist {
  return decay(state.dist, lambda, at - state.tLast);
}

export { retention };
