/**
 * The paper's equations as pure functions over categorical distributions (value → probability).
 * Nothing here touches the store or the clock, so each equation is tested against hand-computed
 * values. `OTHER` is the mass of "a value not yet observed" (the code's `unknown`); it is part of
 * the vocabulary V but never an answer.
 */

export type Dist = Record<string, number>;

/** The catch-all value: "something not yet observed". Observations may not use this string. */
export const OTHER = '<other>';

export function normalize(p: Dist): Dist {
  let s = 0;
  for (const k in p) s += p[k]!;
  const out: Dist = {};
  if (s <= 0) {
    const keys = Object.keys(p);
    for (const k of keys) out[k] = 1 / keys.length;
    return out;
  }
  for (const k in p) out[k] = p[k]! / s;
  return out;
}

/** Eq. 1: surprise in bits, −log2 p(obs). p ≤ 0 is capped at 20 bits as the code does. */
export function surprise(p: number): number {
  if (p <= 0) return 20;
  if (p >= 1) return 0;
  return -Math.log2(p);
}

/** Eq. 2: ℒ(obs | v) = 1 − ε if v = obs, else ε / (|V| − 1). With |V| = 1 every value explains obs. */
export function likelihood(v: string, obs: string, epsilon: number, vocabularySize: number): number {
  if (vocabularySize <= 1) return 1;
  return v === obs ? 1 - epsilon : epsilon / (vocabularySize - 1);
}

/** Eq. 3: the closed-form posterior, O(|V|). `obs` must already be in the prior's vocabulary. */
export function posterior(prior: Dist, obs: string, epsilon: number): Dist {
  const n = Object.keys(prior).length;
  const out: Dist = {};
  for (const v in prior) out[v] = likelihood(v, obs, epsilon, n) * prior[v]!;
  return normalize(out);
}

/** Proposition 1's sufficient condition: one observation makes obs the mode when p(obs) > ε/(1−ε). */
export function convergesInOneStep(priorOfObs: number, epsilon: number): boolean {
  return priorOfObs > epsilon / (1 - epsilon);
}

/** λ^Δt; Δt ≤ 0 means no decay. */
export function retention(lambda: number, dt: number): number {
  if (!(dt > 0) || lambda >= 1) return 1;
  return Math.pow(lambda, dt);
}

/** Eq. 4: p_t(v) = λ^Δt·p0(v) + (1 − λ^Δt)·1/|V|. */
export function decay(p: Dist, lambda: number, dt: number): Dist {
  const w = retention(lambda, dt);
  if (w === 1) return { ...p };
  const keys = Object.keys(p);
  const u = (1 - w) / keys.length;
  const out: Dist = {};
  for (const k of keys) out[k] = w * p[k]! + u;
  return out;
}

/** Shannon entropy in bits. */
export function entropy(p: Dist): number {
  let h = 0;
  for (const k in p) {
    const x = p[k]!;
    if (x > 0) h -= x * Math.log2(x);
  }
  return h;
}

/** Drops values below the floor (never `keep`s), then renormalises. */
export function prune(p: Dist, floor: number, keep: readonly string[] = []): Dist {
  if (floor <= 0) return p;
  const out: Dist = {};
  for (const k in p) if (p[k]! >= floor || keep.includes(k)) out[k] = p[k]!;
  return normalize(out);
}

/** The most probable value other than OTHER (ties: the value seen first in the distribution). */
export function modeOf(p: Dist): { value: string | null; p: number } {
  let best: string | null = null;
  let bp = -1;
  for (const k in p) {
    if (k === OTHER) continue;
    if (p[k]! > bp) {
      best = k;
      bp = p[k]!;
    }
  }
  return { value: best, p: best === null ? 0 : bp };
}

/** KL(p ‖ q) in bits over p's support; q must be positive wherever p is. */
export function kl(p: Dist, q: Dist): number {
  let d = 0;
  for (const k in p) {
    const x = p[k]!;
    if (x <= 0) continue;
    const y = q[k] ?? 0;
    if (y <= 0) return Infinity;
    d += x * Math.log2(x / y);
  }
  return d;
}

/** One term of Eq. 6: KL(p‖q) + KL(q‖p). */
export function symmetrisedKl(p: Dist, q: Dist): number {
  return kl(p, q) + kl(q, p);
}

/** Eq. 6: D(e1, e2) = Σ over shared attributes of the symmetrised KL. */
export function identityDivergence(e1: Record<string, Dist>, e2: Record<string, Dist>): { total: number; shared: string[]; perAttribute: Record<string, number> } {
  const shared = Object.keys(e1).filter((a) => a in e2).sort();
  const perAttribute: Record<string, number> = {};
  let total = 0;
  for (const a of shared) {
    const d = symmetrisedKl(e1[a]!, e2[a]!);
    perAttribute[a] = d;
    total += d;
  }
  return { total, shared, perAttribute };
}

/** log-odds evidence of an observation with reliability r (clamped away from 0 and 1). */
export function reliabilityLogOdds(r: number): number {
  const c = Math.min(Math.max(r, 1e-3), 1 - 1e-3);
  return Math.log(c / (1 - c));
}

/**
 * Eq. 7: the values a set-valued attribute holds. A value is listed when one of its deltas had
 * surprise above θ_min; with `log-odds` weighting it must also have net positive reliability
 * evidence (Σ log(r/(1−r)) > 0): several unreliable reports do not make a value.
 */
export function aggregateValues(
  deltas: readonly { value: string; surprise: number; reliability: number }[],
  thetaMin: number,
  weighting: 'log-odds' | 'none',
): string[] {
  const candidates: string[] = [];
  const seen = new Set<string>();
  const weight = new Map<string, number>();
  for (const d of deltas) {
    weight.set(d.value, (weight.get(d.value) ?? 0) + reliabilityLogOdds(d.reliability));
    if (d.surprise > thetaMin && !seen.has(d.value)) {
      seen.add(d.value);
      candidates.push(d.value);
    }
  }
  return weighting === 'none' ? candidates : candidates.filter((v) => (weight.get(v) ?? 0) > 0);
}
