import { afterEach, describe, expect, it } from 'vitest';
import { answerBrier, calibrate, expectedCalibrationError, fitIsotonic, reliabilityBins, type CalibrationSample } from '../../core/beliefs/calibration.js';
import { calibrationFor, fittedCalibration } from '../../core/beliefs/calibration-choice.js';
import { FITTED_CALIBRATIONS } from '../../core/beliefs/calibration-fitted.js';
import { PAPER_CONFIG } from '../../core/beliefs/config.js';
import { readBelief } from '../../core/beliefs/read.js';
import type { Engine } from '../../core/engine/engine.js';
import { DAY, freshEngine, NOW, obs } from '../helpers/beliefs.js';

const sample = (p: number, correct: boolean): CalibrationSample => ({ p, correct });

describe('isotonic calibration', () => {
  it('pools adjacent violators into their mean and keeps both coordinates non-decreasing', () => {
    // 0.2 right, 0.4 wrong, 0.6 wrong, 0.8 right: the middle pair and the first pool to 1/3.
    const knots = fitIsotonic([sample(0.2, true), sample(0.4, false), sample(0.6, false), sample(0.8, true)], 1);
    expect(knots.map(([, y]) => y)).toEqual([1 / 3, 1]);
    expect(knots[0]![0]).toBeCloseTo(0.4, 12); // the middle of the pooled block's p range
    for (let i = 1; i < knots.length; i++) {
      expect(knots[i]![0]).toBeGreaterThanOrEqual(knots[i - 1]![0]);
      expect(knots[i]![1]).toBeGreaterThanOrEqual(knots[i - 1]![1]);
    }
  });

  it('pools blocks smaller than the minimum with a neighbour, staying monotone', () => {
    const samples = Array.from({ length: 100 }, (_, i) => sample(i / 100, i % 3 !== 0 || i > 70));
    const fine = fitIsotonic(samples, 1);
    const coarse = fitIsotonic(samples, 20);
    expect(coarse.length).toBeLessThan(fine.length);
    expect(coarse.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < coarse.length; i++) expect(coarse[i]![1]).toBeGreaterThanOrEqual(coarse[i - 1]![1]);
  });

  it('interpolates between knots, holds the end values beyond them, and leaves "no answer" at 0', () => {
    const knots = [[0.2, 0.5], [0.6, 0.9]] as const;
    expect(calibrate(knots, 0.4)).toBeCloseTo(0.7, 12);
    expect(calibrate(knots, 0.1)).toBe(0.5);
    expect(calibrate(knots, 0.99)).toBe(0.9);
    expect(calibrate(knots, 0)).toBe(0);
    expect(calibrate([], 0.3)).toBe(0.3);
  });

  it('reports the one-sided Brier term and the expected calibration error', () => {
    const s = [sample(0.9, true), sample(0.9, false), sample(0.5, true), sample(0.5, true)];
    // (0.1² + 1 + 0.5² + 0.5²) / 4
    expect(answerBrier(s)).toBeCloseTo((0.01 + 1 + 0.25 + 0.25) / 4, 12);
    // bin 0.9: p 0.9 vs accuracy 0.5; bin 0.5: p 0.5 vs accuracy 1; each half the answers
    expect(expectedCalibrationError(s)).toBeCloseTo(0.5 * 0.4 + 0.5 * 0.5, 12);
    expect(reliabilityBins(s).map((b) => b.n)).toEqual([2, 2]);
  });
});

describe('the fitted maps', () => {
  it('are monotone maps into [0, 1], fitted for every profile and read mode', () => {
    for (const profile of ['paper', 'nous-code']) {
      for (const mode of ['as-of', 'hindsight']) {
        const fitted = FITTED_CALIBRATIONS[profile]?.[mode];
        expect(fitted, `${profile} ${mode}`).toBeDefined();
        const knots = fitted!.knots;
        expect(knots.length).toBeGreaterThan(1);
        for (let i = 0; i < knots.length; i++) {
          expect(knots[i]![1]).toBeGreaterThanOrEqual(0);
          expect(knots[i]![1]).toBeLessThanOrEqual(1);
          if (i) expect(knots[i]![1]).toBeGreaterThanOrEqual(knots[i - 1]![1]);
        }
        // The honest (cross-validated) dev figures are better calibrated than the model's own.
        expect(fitted!.dev.calibrated_cv.ece).toBeLessThan(fitted!.dev.model.ece);
        expect(fitted!.dev.calibrated_cv.brier).toBeLessThan(fitted!.dev.model.brier);
      }
    }
  });

  it('apply only to a profile as shipped: an override means another estimator, read raw', () => {
    expect(calibrationFor(PAPER_CONFIG, 'as-of')).not.toBeNull();
    expect(calibrationFor({ ...PAPER_CONFIG, halfLifeDays: 7 }, 'as-of')).toBeNull();
    expect(fittedCalibration({ ...PAPER_CONFIG, update: 'flat' }, 'hindsight')).toBeNull();
  });
});

describe('a calibrated belief read', () => {
  let open: Engine[] = [];
  afterEach(() => {
    for (const e of open) e.close();
    open = [];
  });

  it('gives the mode its calibrated p, shares the rest in model proportions, and still sums to 1', () => {
    const f = freshEngine();
    open.push(f.engine);
    const T0 = NOW - 200 * DAY;
    f.model.ingest([obs('Ada Osei', 'city', 'Lyon', T0), obs('Ada Osei', 'city', 'Porto', T0 + 40 * DAY, 0.6), obs('Ada Osei', 'city', 'Lyon', T0 + 80 * DAY, 0.7)], NOW);
    const raw = readBelief(f.model, 'Ada Osei', 'city', T0 + 90 * DAY, 'as-of', { calibrated: false });
    const cal = readBelief(f.model, 'Ada Osei', 'city', T0 + 90 * DAY, 'as-of');
    expect(raw.calibrated).toBe(false);
    expect(raw.p).toBe(raw.p_model);
    expect(cal.calibrated).toBe(true);
    expect(cal.value).toBe(raw.value);
    expect(cal.p_model).toBe(raw.p);
    expect(cal.p).toBeCloseTo(calibrate(calibrationFor(f.model.config(), 'as-of')!, raw.p), 12);
    expect(cal.p).not.toBeCloseTo(raw.p, 3);
    expect(cal.distribution[0]).toEqual({ value: cal.value, p: cal.p });
    expect(cal.distribution.reduce((s, v) => s + v.p, 0)).toBeCloseTo(1, 12);
    const rawRest = raw.distribution.slice(1);
    const calRest = cal.distribution.slice(1);
    expect(calRest.map((v) => v.value)).toEqual(rawRest.map((v) => v.value));
    for (let i = 0; i < rawRest.length; i++) expect(calRest[i]!.p / (1 - cal.p)).toBeCloseTo(rawRest[i]!.p / (1 - raw.p), 12);
  });
});
