import { describe, expect, it } from 'vitest';
import {
  aggregateValues,
  convergesInOneStep,
  decay,
  entropy,
  identityDivergence,
  kl,
  likelihood,
  modeOf,
  normalize,
  OTHER,
  posterior,
  prune,
  surprise,
  symmetrisedKl,
  type Dist,
} from '../../core/beliefs/equations.js';

/** A small deterministic generator so property checks are reproducible. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function randomDist(next: () => number, n: number): Dist {
  const p: Dist = {};
  for (let i = 0; i < n; i++) p[`v${i}`] = next() + 1e-6;
  return normalize(p);
}

const DAY = 86400;
const halfLifeDay = Math.pow(0.5, 1 / DAY);

describe('Eq. 1: surprise', () => {
  it('is -log2 p in bits, capped at 20 bits for p <= 0', () => {
    expect(surprise(0.5)).toBe(1);
    expect(surprise(0.25)).toBe(2);
    expect(surprise(0.05)).toBeCloseTo(4.321928, 6);
    expect(surprise(1)).toBe(0);
    expect(surprise(0)).toBe(20);
  });
});

describe('Eq. 2: likelihood', () => {
  it('is 1 - eps for the observed value and eps/(|V|-1) for the others', () => {
    expect(likelihood('a', 'a', 0.1, 3)).toBeCloseTo(0.9, 12);
    expect(likelihood('b', 'a', 0.1, 3)).toBeCloseTo(0.05, 12);
    expect(likelihood('b', 'a', 0.1, 1)).toBe(1);
  });
});

describe('Eq. 3: closed-form posterior', () => {
  it('matches the hand computation', () => {
    // prior {a .5, b .3, c .2}, obs b, eps .1: a .5*.05=.025, b .3*.9=.27, c .2*.05=.01; total .305
    const p = posterior({ a: 0.5, b: 0.3, c: 0.2 }, 'b', 0.1);
    expect(p['a']).toBeCloseTo(0.025 / 0.305, 12);
    expect(p['b']).toBeCloseTo(0.27 / 0.305, 12);
    expect(p['c']).toBeCloseTo(0.01 / 0.305, 12);
  });

  it('Proposition 1: the mode becomes obs after one observation whenever p_prior(obs) > eps/(1-eps)', () => {
    const next = rng(7);
    let checked = 0;
    for (let trial = 0; trial < 3000; trial++) {
      const n = 2 + Math.floor(next() * 6);
      const eps = 0.001 + next() * 0.4;
      const prior = randomDist(next, n);
      const obs = `v${Math.floor(next() * n)}`;
      if (!convergesInOneStep(prior[obs]!, eps)) continue;
      checked++;
      expect(modeOf(posterior(prior, obs, eps)).value).toBe(obs);
    }
    expect(checked).toBeGreaterThan(500);
  });

  it("Proposition 1's threshold with the paper's eps = 0.01 is 0.0101", () => {
    expect(convergesInOneStep(0.0102, 0.01)).toBe(true);
    expect(convergesInOneStep(0.0101, 0.01)).toBe(false);
    // below the threshold the flip is not guaranteed: a strong incumbent keeps the mode
    expect(modeOf(posterior({ a: 0.995, b: 0.005 }, 'b', 0.01)).value).toBe('a');
  });
});

describe('Eq. 4: entropy decay toward uniform', () => {
  it('mixes with uniform by lambda^dt', () => {
    const p = decay({ a: 0.9, b: 0.1 }, halfLifeDay, DAY); // lambda^dt = 0.5
    expect(p['a']).toBeCloseTo(0.45 + 0.25, 10);
    expect(p['b']).toBeCloseTo(0.05 + 0.25, 10);
    expect(decay({ a: 0.9, b: 0.1 }, halfLifeDay, 0)).toEqual({ a: 0.9, b: 0.1 });
    expect(decay({ a: 0.9, b: 0.1 }, 1, 1e9)).toEqual({ a: 0.9, b: 0.1 });
  });

  it('Eq. 5: H(p_t) >= lambda^dt * H(p0), and entropy never falls under decay', () => {
    const next = rng(11);
    for (let trial = 0; trial < 2000; trial++) {
      const p0 = randomDist(next, 2 + Math.floor(next() * 8));
      const dt = next() * 90 * DAY;
      const pt = decay(p0, halfLifeDay, dt);
      expect(entropy(pt)).toBeGreaterThanOrEqual(Math.pow(halfLifeDay, dt) * entropy(p0) - 1e-12);
      expect(entropy(pt)).toBeGreaterThanOrEqual(entropy(p0) - 1e-12);
    }
  });
});

describe('Eq. 6: symmetrised KL for identity', () => {
  it('matches the hand computation and is symmetric', () => {
    const p = { a: 0.5, b: 0.5 };
    const q = { a: 0.25, b: 0.75 };
    expect(kl(p, q)).toBeCloseTo(0.5 * 1 + 0.5 * Math.log2(0.5 / 0.75), 12);
    expect(symmetrisedKl(p, q)).toBeCloseTo(0.39624063, 7);
    expect(symmetrisedKl(q, p)).toBe(symmetrisedKl(p, q));
    expect(symmetrisedKl(p, p)).toBe(0);
  });

  it('sums over shared attributes only, and D(e1, e2) = D(e2, e1)', () => {
    const next = rng(3);
    for (let trial = 0; trial < 200; trial++) {
      const e1 = { city: randomDist(next, 4), role: randomDist(next, 3), pet: randomDist(next, 2) };
      const e2 = { city: randomDist(next, 4), role: randomDist(next, 3), car: randomDist(next, 5) };
      const d12 = identityDivergence(e1, e2);
      const d21 = identityDivergence(e2, e1);
      expect(d12.shared).toEqual(['city', 'role']);
      expect(d12.total).toBeCloseTo(d21.total, 12);
      expect(d12.total).toBeCloseTo(symmetrisedKl(e1.city, e2.city) + symmetrisedKl(e1.role, e2.role), 12);
    }
  });
});

describe('Eq. 7: observed-values aggregation', () => {
  const deltas = [
    { value: 'A', surprise: 1, reliability: 0.9 },
    { value: 'B', surprise: 4, reliability: 0.2 },
    { value: 'A', surprise: 0.1, reliability: 0.9 },
    { value: 'C', surprise: 2, reliability: 0.3 },
    { value: 'C', surprise: 0.2, reliability: 0.8 },
  ];

  it('lists values whose surprise exceeded theta_min with positive reliability log-odds', () => {
    // B: log(.2/.8) < 0 is out; C: log(.3/.7) + log(.8/.2) > 0 is in
    expect(aggregateValues(deltas, 0.5, 'log-odds')).toEqual(['A', 'C']);
    expect(aggregateValues(deltas, 0.5, 'none')).toEqual(['A', 'B', 'C']);
    expect(aggregateValues(deltas, 1.5, 'log-odds')).toEqual(['C']);
  });
});

describe('helpers', () => {
  it('prunes below the floor and renormalises, keeping named values', () => {
    expect(prune({ a: 0.995, b: 0.005 }, 0.01)).toEqual({ a: 1 });
    const kept = prune({ a: 0.99, [OTHER]: 0.005, b: 0.005 }, 0.01, [OTHER]);
    expect(Object.keys(kept)).toEqual(['a', OTHER]);
  });

  it('modeOf never answers the catch-all value', () => {
    expect(modeOf({ [OTHER]: 0.8, a: 0.2 })).toEqual({ value: 'a', p: 0.2 });
    expect(modeOf({ [OTHER]: 1 })).toEqual({ value: null, p: 0 });
  });
});
