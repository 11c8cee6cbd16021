import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerBrier, binaryBrier, calibrate, calibrationCurve, expectedCalibrationError, fitPlatt, reliabilityBins, type CalibrationSample } from '../../core/beliefs/calibration.js';
import { calibrationFor, fittedCalibration } from '../../core/beliefs/calibration-choice.js';
import { FITTED_CALIBRATIONS } from '../../core/beliefs/calibration-fitted.js';
import { PAPER_CONFIG } from '../../core/beliefs/config.js';
import { readBelief } from '../../core/beliefs/read.js';
import { rng } from '../../core/demo/generate.js';
import type { Engine } from '../../core/engine/engine.js';
import { calibrated, fitCalibrations, fittedFileText, figures, readBeliefStream, sampleStream } from '../../support/belief-calibration-fit.js';
import { syntheticBeliefStream } from '../../support/belief-stream-synthetic.js';
import { DAY, freshEngine, NOW, obs } from '../helpers/beliefs.js';
import { beliefStreamDev } from '../helpers/optional-data.js';

const sample = (p: number, correct: boolean): CalibrationSample => ({ p, correct });
const ROOT = join(import.meta.dirname, '..', '..');
const SYNTHETIC_DIR = join(ROOT, 'test', 'fixtures', 'belief-stream-synthetic');

describe('Platt calibration', () => {
  it('recovers the map that generated the outcomes', () => {
    const rand = rng(7);
    const truth = { slope: 0.6, intercept: 1.4 };
    const samples = Array.from({ length: 20_000 }, () => {
      const p = 0.05 + 0.9 * rand();
      return sample(p, rand() < calibrate(truth, p));
    });
    const fit = fitPlatt(samples);
    // 20,000 answers: the standard errors are about 0.02 on each parameter.
    expect(fit.slope).toBeCloseTo(truth.slope, 1);
    expect(fit.intercept).toBeCloseTo(truth.intercept, 1);
  });

  it('does not overshoot on answers given p = 1, and leaves "no answer" out of the fit', () => {
    // 90 % right at p = 1, 60 % right at p = 0.5, and unanswered queries (p = 0) that are all wrong.
    const samples = [
      ...Array.from({ length: 100 }, (_, i) => sample(1, i < 90)),
      ...Array.from({ length: 100 }, (_, i) => sample(0.5, i < 60)),
      ...Array.from({ length: 50 }, () => sample(0, false)),
    ];
    const fit = fitPlatt(samples);
    expect(Number.isFinite(fit.slope) && Number.isFinite(fit.intercept)).toBe(true);
    expect(calibrate(fit, 1)).toBeCloseTo(0.9, 3);
    expect(calibrate(fit, 0.5)).toBeCloseTo(0.6, 3);
    expect(calibrate(fit, 0)).toBe(0);
  });

  it('is the identity at (1, 0), monotone for a positive slope, and drawn by its curve', () => {
    expect(calibrate({ slope: 1, intercept: 0 }, 0.3)).toBeCloseTo(0.3, 12);
    const map = { slope: 0.7, intercept: 1.7 };
    const curve = calibrationCurve(map, 20);
    expect(curve).toHaveLength(20);
    for (let i = 1; i < curve.length; i++) expect(curve[i]![1]).toBeGreaterThan(curve[i - 1]![1]);
    for (const [x, y] of curve) expect(y).toBe(calibrate(map, x));
  });

  it('reports the one-sided Brier term, the binary Brier score and the expected calibration error', () => {
    const s = [sample(0.9, true), sample(0.9, false), sample(0.5, true), sample(0.5, true)];
    // (0.1² + 1 + 0.5² + 0.5²) / 4
    expect(answerBrier(s)).toBeCloseTo((0.01 + 1 + 0.25 + 0.25) / 4, 12);
    // (0.1² + 0.9² + 0.5² + 0.5²) / 4
    expect(binaryBrier(s)).toBeCloseTo((0.01 + 0.81 + 0.25 + 0.25) / 4, 12);
    // bin 0.9: p 0.9 vs accuracy 0.5; bin 0.5: p 0.5 vs accuracy 1; each half the answers
    expect(expectedCalibrationError(s)).toBeCloseTo(0.5 * 0.4 + 0.5 * 0.5, 12);
    expect(reliabilityBins(s).map((b) => b.n)).toEqual([2, 2]);
  });
});

describe('the fitted maps', () => {
  it('are monotone maps into [0, 1], fitted for every profile and read mode, and better than the model held out', () => {
    for (const profile of ['paper', 'nous-code']) {
      for (const mode of ['as-of', 'hindsight']) {
        const fitted = FITTED_CALIBRATIONS[profile]?.[mode];
        expect(fitted, `${profile} ${mode}`).toBeDefined();
        expect(fitted!.map.slope).toBeGreaterThan(0);
        let last = 0;
        for (let i = 1; i <= 1000; i++) {
          const y = calibrate(fitted!.map, i / 1000);
          expect(y).toBeGreaterThanOrEqual(last);
          expect(y).toBeLessThanOrEqual(1);
          last = y;
        }
        // The held-out (cross-validated) dev figures are better calibrated than the model's own.
        expect(fitted!.dev.calibrated_cv.ece).toBeLessThan(fitted!.dev.model.ece);
        expect(fitted!.dev.calibrated_cv.brier).toBeLessThan(fitted!.dev.model.brier);
      }
    }
  });

  it("meet #19's target on the dev stream in hindsight (Brier <= 0.15, ECE <= 0.05) without changing accuracy", () => {
    const dev = FITTED_CALIBRATIONS.paper!.hindsight!.dev;
    expect(dev.calibrated.brier).toBeLessThanOrEqual(0.15);
    expect(dev.calibrated.ece).toBeLessThanOrEqual(0.05);
    expect(dev.calibrated_cv.ece).toBeLessThanOrEqual(0.05);
    expect(dev.calibrated.accuracy).toBe(dev.model.accuracy);
  });

  it('apply only to a profile as shipped: an override means another estimator, read raw', () => {
    expect(calibrationFor(PAPER_CONFIG, 'as-of')).not.toBeNull();
    expect(calibrationFor({ ...PAPER_CONFIG, halfLifeDays: 7 }, 'as-of')).toBeNull();
    expect(fittedCalibration({ ...PAPER_CONFIG, update: 'flat' }, 'hindsight')).toBeNull();
  });

  it('reach the Beliefs view as the stored map: its curve is the map, point by point', () => {
    const fitted = fittedCalibration(PAPER_CONFIG, 'hindsight')!;
    expect(fitted.map).toEqual(FITTED_CALIBRATIONS.paper!.hindsight!.map);
    for (const [x, y] of fitted.curve) expect(y).toBe(calibrate(fitted.map, x));
  });

  it('are what the script writes from the dev stream', { tags: ['external-data'] }, (ctx) => {
    const dev = beliefStreamDev();
    if (!dev.path) return ctx.skip(dev.missing);
    const committed = readFileSync(join(ROOT, 'core', 'beliefs', 'calibration-fitted.ts'), 'utf8');
    expect(fittedFileText(fitCalibrations(readBeliefStream(dev.path)))).toBe(committed);
  });
});

describe('on the committed synthetic stream', () => {
  it('is the generator’s output (the fixture can be rewritten by its script)', () => {
    const stream = syntheticBeliefStream();
    for (const name of ['observations', 'queries', 'truth'] as const) {
      expect(readFileSync(join(SYNTHETIC_DIR, `${name}.jsonl`), 'utf8'), name).toBe(stream[name]);
    }
  });

  it('a map fitted there calibrates held-out entities, and the shipped dev map carries over unchanged', () => {
    const stream = readBeliefStream(SYNTHETIC_DIR);
    const fitted = fitCalibrations(stream).paper!.hindsight!;
    expect(fitted.dev.answers).toBe(240);
    expect(fitted.dev.model.ece).toBeGreaterThan(0.15);
    expect(fitted.dev.calibrated_cv.ece).toBeLessThanOrEqual(0.06);
    expect(fitted.dev.calibrated_cv.brier).toBeLessThan(fitted.dev.model.brier - 0.05);
    expect(fitted.dev.calibrated_cv.accuracy).toBe(fitted.dev.model.accuracy);
    // The dev map, never fitted on this stream.
    const samples = sampleStream(stream, 'paper').hindsight;
    const shipped = figures(calibrated(FITTED_CALIBRATIONS.paper!.hindsight!.map, samples));
    expect(shipped.ece).toBeLessThanOrEqual(0.07);
    expect(shipped.brier).toBeLessThan(fitted.dev.model.brier - 0.05);
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
    const cal = readBelief(f.model, 'Ada Osei', 'city', T0 + 90 * DAY, 'as-of', { signals: false });
    expect(raw.calibrated).toBe(false);
    expect(cal.p_source).toBe('calibration');
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
