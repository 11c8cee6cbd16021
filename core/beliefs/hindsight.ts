/**
 * The belief about time T given the whole log ("what do we now believe was true at T"), as opposed
 * to time travel ("what did we believe at T", `query_at`). Eqs. 2–4 define a hidden Markov model:
 * Eq. 4 is its transition (a jump to a uniformly drawn value at rate −ln λ), Eqs. 2–3 its observation
 * update. Its smoothed marginal is the forward filter at T times the backward filter at T; the chain's
 * stationary law is uniform, so the backward message is the filter run backwards from uniform.
 */
import { decay, normalize, OTHER, posterior, type Dist } from './equations.js';

export interface LoggedObservation {
  value: string;
  t: number;
  epsilon: number;
}

function filter(observations: readonly LoggedObservation[], vocabulary: readonly string[], at: number, lambda: number): Dist {
  let p: Dist = {};
  for (const v of vocabulary) p[v] = 1 / vocabulary.length;
  let last: number | null = null;
  for (const o of observations) {
    if (last !== null) p = decay(p, lambda, Math.abs(o.t - last));
    p = posterior(p, o.value, o.epsilon);
    last = o.t;
  }
  return last === null ? p : decay(p, lambda, Math.abs(at - last));
}

/** Smoothed belief at `at`; `observations` in log order (time, then arrival). */
export function estimateAt(observations: readonly LoggedObservation[], at: number, lambda: number): Dist {
  const vocabulary = [OTHER, ...new Set(observations.map((o) => o.value))];
  const before = observations.filter((o) => o.t <= at);
  const after = observations.filter((o) => o.t > at).reverse();
  const forward = filter(before, vocabulary, at, lambda);
  if (after.length === 0) return forward;
  const backward = filter(after, vocabulary, at, lambda);
  const out: Dist = {};
  for (const v of vocabulary) out[v] = forward[v]! * backward[v]!;
  return normalize(out);
}
