import { describe, expect, it } from 'vitest';
import { lambdaPerSecond, NOUS_CODE_CONFIG, PAPER_CONFIG, resolveConfig } from '../../core/beliefs/config.js';
import { OTHER } from '../../core/beliefs/equations.js';
import { applyObservation, beliefAt } from '../../core/beliefs/update.js';

const DAY = 86400;

describe('profiles', () => {
  it('expose the paper and code constants', () => {
    expect(PAPER_CONFIG.epsilonDefault).toBe(0.01);
    expect(NOUS_CODE_CONFIG.epsilonDefault).toBeCloseTo(0.1, 12);
    expect(NOUS_CODE_CONFIG.novelEntry).toBe('one-over-k');
    expect(PAPER_CONFIG.halfLifeDays).toBe(30);
    expect(lambdaPerSecond(PAPER_CONFIG) ** (30 * DAY)).toBeCloseTo(0.5, 9);
    expect(lambdaPerSecond(resolveConfig('paper', { halfLifeDays: null }))).toBe(1);
  });
});

describe("the nous-code profile reproduces the code's worked example", () => {
  const c = NOUS_CODE_CONFIG;
  const lambda = lambdaPerSecond(c);

  it('first A with r = 0.9 gives {A: 0.818, unknown: 0.182}; then B gives {B: 0.857, A: 0.117, unknown: 0.026}', () => {
    const a = applyObservation(null, 'A', 0, 0.9, c, lambda);
    expect(a.posterior['A']).toBeCloseTo(0.818182, 5);
    expect(a.posterior[OTHER]).toBeCloseTo(0.181818, 5);
    expect(a.surprise).toBeCloseTo(4.321928, 5); // unseen value: the 0.05 novelty prior
    const b = applyObservation({ dist: a.posterior, tLast: 0 }, 'B', 0, 0.9, c, lambda);
    expect(b.posterior['B']).toBeCloseTo(0.857143, 5);
    expect(b.posterior['A']).toBeCloseTo(0.116883, 5);
    expect(b.posterior[OTHER]).toBeCloseTo(0.025974, 5);
  });
});

describe('the paper profile', () => {
  const c = PAPER_CONFIG;
  const lambda = lambdaPerSecond(c);

  it('a fresh dimension is uniform over {other, obs}: posterior = reliability, surprise = 1 bit', () => {
    const a = applyObservation(null, 'A', 0, 0.9, c, lambda);
    expect(a.prior).toEqual({ [OTHER]: 0.5, A: 0.5 });
    expect(a.posterior['A']).toBeCloseTo(0.9, 12);
    expect(a.posterior[OTHER]).toBeCloseTo(0.1, 12);
    expect(a.surprise).toBe(1);
    expect(a.epsilon).toBeCloseTo(0.1, 12);
  });

  it('a novel value at the same instant gets the novelty prior (0.05)', () => {
    const state = { dist: { [OTHER]: 0.1, A: 0.9 }, tLast: 0 };
    const b = applyObservation(state, 'B', 0, 0.9, c, lambda);
    expect(b.prior['B']).toBeCloseTo(0.05, 12);
    expect(b.prior['A']).toBeCloseTo(0.855, 12);
    expect(b.surprise).toBeCloseTo(4.321928, 5);
    // B .05*.9 = .045, A .855*.05 = .04275, other .095*.05 = .00475; total .0925
    expect(b.posterior['B']).toBeCloseTo(0.045 / 0.0925, 10);
    expect(b.posterior['A']).toBeCloseTo(0.04275 / 0.0925, 10);
  });

  it('a novel value one half-life later gets the mass decay returned to uniform', () => {
    const state = { dist: { [OTHER]: 0.1, A: 0.9 }, tLast: 0 };
    const b = applyObservation(state, 'B', 30 * DAY, 0.9, c, lambda);
    // decay with w = .5 over {other, A, B}: other .05+1/6, A .45+1/6, B 1/6
    expect(b.prior['B']).toBeCloseTo(1 / 6, 10);
    expect(b.surprise).toBeCloseTo(Math.log2(6), 10);
    const z = (0.05 + 1 / 6) * 0.05 + (0.45 + 1 / 6) * 0.05 + (1 / 6) * 0.9;
    expect(b.posterior['B']).toBeCloseTo(((1 / 6) * 0.9) / z, 10);
    expect(b.posterior['A']).toBeCloseTo(((0.45 + 1 / 6) * 0.05) / z, 10);
  });

  it('uses eps = 1 - reliability, or the profile default when reliability is absent', () => {
    expect(applyObservation(null, 'A', 0, 0.3, c, lambda).epsilon).toBeCloseTo(0.7, 12);
    expect(applyObservation(null, 'A', 0, null, c, lambda).epsilon).toBe(0.01);
    // an unreliable report is evidence against its value when few values compete
    expect(applyObservation(null, 'A', 0, 0.3, c, lambda).posterior['A']).toBeCloseTo(0.3, 12);
  });

  it('prunes values under the floor but keeps the catch-all', () => {
    const state = { dist: { [OTHER]: 0.02, A: 0.97, B: 0.01 }, tLast: 0 };
    const r = applyObservation(state, 'A', 0, 0.99, c, lambda);
    expect(Object.keys(r.posterior).sort()).toEqual([OTHER, 'A'].sort());
  });

  it('the flat ablation is last-write-wins', () => {
    const flat = resolveConfig('paper', { update: 'flat' });
    const r = applyObservation({ dist: { [OTHER]: 0.1, A: 0.9 }, tLast: 0 }, 'B', 1, 0.2, flat, lambda);
    expect(r.posterior).toEqual({ B: 1 });
  });

  it('reads decay lazily to the asked time', () => {
    const p = beliefAt({ dist: { [OTHER]: 0.1, A: 0.9 }, tLast: 0 }, 30 * DAY, lambda);
    expect(p['A']).toBeCloseTo(0.45 + 0.25, 10);
  });
});
