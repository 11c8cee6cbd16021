import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerSignals, SIGNAL_FEATURES, signalFeatures, type SignalDelta } from '../../core/beliefs/answer-signals.js';
import { fitPlatt, calibrate } from '../../core/beliefs/calibration.js';
import { fittedSignals, signalsModelFor } from '../../core/beliefs/calibration-choice.js';
import { lambdaPerSecond, PAPER_CONFIG } from '../../core/beliefs/config.js';
import { readBelief } from '../../core/beliefs/read.js';
import { fitSignalsModel, signalsProbability } from '../../core/beliefs/signals-model.js';
import { FITTED_SIGNALS } from '../../core/beliefs/signals-fitted.js';
import { rng } from '../../core/demo/generate.js';
import type { Engine } from '../../core/engine/engine.js';
import { readBeliefStream } from '../../support/belief-calibration-fit.js';
import { auc, correctLowestTenth, crossValidatedSignals, discrimination, fitSignals, heldOutAnswers, lowestTenth, sampleSignals, signalsFileText, signalsP } from '../../support/belief-signals-fit.js';
import { DAY, freshEngine, NOW, obs } from '../helpers/beliefs.js';
import { beliefStreamDev } from '../helpers/optional-data.js';

const ROOT = join(import.meta.dirname, '..', '..');
const d = (value: string, days: number, reliability = 0.9, surprise = 1): SignalDelta => ({ value, t: NOW + days * DAY, epsilon: 1 - reliability, surprise });
/** The paper profile's retention per second (a 30-day half-life). */
const LAMBDA = lambdaPerSecond(PAPER_CONFIG);

describe('the signals of an answer', () => {
  it('counts reliable reports, recent agreement, the gaps to the answer and to another value, and hedged reports', () => {
    const deltas = [d('Lyon', -100), d('Lyon', -90), d('Porto', -30, 0.2, 3), d('Porto', -10), d('Lyon', 20, 0.85)];
    const dist = [
      { value: 'Lyon', p: 0.6 },
      { value: 'Porto', p: 0.3 },
      { value: '<other>', p: 0.1 },
    ];
    const s = answerSignals(deltas, NOW, 'Lyon', dist, LAMBDA);
    expect(s.reports).toBe(3);
    // The four reliable reports nearest T: Porto (-10), Lyon (+20), Lyon (-90), Lyon (-100); the hedged one does not count.
    expect(s.recent_total).toBe(4);
    expect(s.recent_agreeing).toBe(3);
    expect(s.days_to_report).toBeCloseTo(20, 9);
    expect(s.days_to_other_value).toBeCloseTo(10, 9);
    expect(s.split_around_t).toBe(true);
    expect(s.hedged_reports).toBe(0);
    expect(s.volatility).toBeCloseTo(2 / 3, 12);
    expect(s.mean_surprise_bits).toBeCloseTo((1 + 1 + 3 + 1 + 1) / 5, 12);
    expect(s.mean_reliability).toBeCloseTo((0.9 + 0.9 + 0.85) / 3, 12);
    expect(s.p_runner_up).toBe(0.3);
    const porto = answerSignals(deltas, NOW, 'Porto', dist, LAMBDA);
    expect(porto.hedged_reports).toBe(1);
    expect(porto.reports).toBe(1);
    expect(signalFeatures(s)).toHaveLength(SIGNAL_FEATURES.length);
  });

  it('as-of sees only the reports up to T: nothing splits around T', () => {
    const deltas = [d('Lyon', -100), d('Porto', 5)];
    const s = answerSignals(deltas.filter((x) => x.t <= NOW), NOW, 'Lyon', [{ value: 'Lyon', p: 0.8 }], LAMBDA);
    expect(s.split_around_t).toBe(false);
    expect(s.days_to_other_value).toBeNull();
    expect(s.p_runner_up).toBe(0);
  });

  it('says whether a later report superseded the answer, and whether the answer holds at other rates of change', () => {
    // Rome twice long ago, then a lone Lyon report; T is the day after it.
    const deltas = [d('Rome', -120), d('Rome', -100, 0.8), d('Milan', -90, 0.3), d('Lyon', -61)];
    const dist = [
      { value: 'Lyon', p: 0.7 },
      { value: 'Rome', p: 0.2 },
      { value: '<other>', p: 0.1 },
    ];
    const at = NOW - 60 * DAY;
    const lyon = answerSignals(deltas, at, 'Lyon', dist, LAMBDA);
    const rome = answerSignals(deltas, at, 'Rome', dist, LAMBDA);
    expect(lyon.latest_agrees).toBe(true);
    // If values changed four times more slowly, the two Rome reports would still weigh; three times more quickly, they are forgotten.
    // (about 0.61 against 0.85 for Lyon; 0.34 against 0.05 for Rome)
    expect(lyon.p_slower).toBeLessThan(0.7);
    expect(lyon.p_faster).toBeGreaterThan(0.8);
    expect(rome.p_slower).toBeGreaterThan(0.3);
    expect(rome.p_faster).toBeLessThan(0.1);
    expect(lyon.p_slower).toBeLessThan(lyon.p_faster);
    expect(rome.latest_agrees).toBe(false);
    expect(rome.p_slower).toBeGreaterThan(rome.p_faster);
    // With no decay at all, every rate is the same rate.
    const still = answerSignals(deltas, at, 'Lyon', dist, 1);
    expect(still.p_slower).toBe(still.p_faster);
    // A later report of another value supersedes the answer in hindsight; the hedged one does not.
    expect(answerSignals([...deltas, d('Paris', -10)], at, 'Lyon', dist, LAMBDA).latest_agrees).toBe(false);
    expect(answerSignals([...deltas, d('Paris', -10, 0.2)], at, 'Lyon', dist, LAMBDA).latest_agrees).toBe(true);
    const features = (s: typeof lyon) => Object.fromEntries(SIGNAL_FEATURES.map((f, i) => [f, signalFeatures(s)[i]]));
    expect(features(lyon).latest_agrees).toBe(1);
    expect(features(rome).latest_agrees).toBe(0);
    expect(features(lyon).logit_p_slower).toBeCloseTo(Math.log(lyon.p_slower / (1 - lyon.p_slower)), 12);
  });
});

describe('the signals model', () => {
  it('recovers the weights that generated the outcomes', () => {
    const rand = rng(11);
    const truth = { w: [1.2, -0.8, 0], b: 0.5 };
    const samples = Array.from({ length: 20_000 }, () => {
      const x = [rand() * 4 - 2, rand() * 2, rand()];
      const z = truth.b + truth.w.reduce((s, w, i) => s + w * x[i]!, 0);
      return { x, correct: rand() < 1 / (1 + Math.exp(-z)) };
    });
    const m = fitSignalsModel(['a', 'b', 'c'], samples, 0);
    // Back from standardised weights to raw ones.
    const raw = m.weights.map((w, i) => w / m.scale[i]!);
    expect(raw[0]).toBeCloseTo(1.2, 1);
    expect(raw[1]).toBeCloseTo(-0.8, 1);
    expect(Math.abs(raw[2]!)).toBeLessThan(0.1);
    expect(signalsProbability(m, [0, 0, 0])).toBeCloseTo(1 / (1 + Math.exp(-0.5)), 1);
  });

  it('on the logit of p alone is Platt scaling', () => {
    const rand = rng(3);
    const samples = Array.from({ length: 3000 }, () => {
      const p = 0.05 + 0.9 * rand();
      return { p, correct: rand() < calibrate({ slope: 0.6, intercept: 1.1 }, p) };
    });
    const logit = (p: number) => Math.log(p / (1 - p));
    const m = fitSignalsModel(['logit_p'], samples.map((s) => ({ x: [logit(s.p)], correct: s.correct })), 0);
    const platt = fitPlatt(samples);
    for (const p of [0.1, 0.4, 0.7, 0.95]) expect(signalsProbability(m, [logit(p)])).toBeCloseTo(calibrate(platt, p), 6);
  });

  it('keeps a constant feature and a separating one at finite weights (the ridge)', () => {
    const samples = Array.from({ length: 100 }, (_, i) => ({ x: [1, i < 50 ? 0 : 1], correct: i >= 50 }));
    const m = fitSignalsModel(['constant', 'separates'], samples);
    expect(m.weights.every(Number.isFinite)).toBe(true);
    expect(signalsProbability(m, [1, 1])).toBeGreaterThan(0.9);
    expect(signalsProbability(m, [1, 0])).toBeLessThan(0.1);
  });

  it('measures ranking: AUC, and the lowest tenth a curator would correct', () => {
    const s = [
      { p: 0.9, correct: true },
      { p: 0.2, correct: false },
      { p: 0.5, correct: true },
      { p: 0.6, correct: false },
      ...Array.from({ length: 16 }, () => ({ p: 0.95, correct: true })),
    ];
    // Right answers outrank wrong ones in 2·2 + 16·2 = 36 of 18·2 pairs, with one right (0.5) below one wrong (0.6).
    expect(auc(s)).toBeCloseTo(35 / 36, 12);
    // Lowest tenth of 20 = the two lowest: 0.2 (wrong) and 0.5 (right). Once corrected they cost
    // nothing in the scorer's Brier; the rest cost (1 − 0.9)² + 1 (the wrong 0.6) + 16·(1 − 0.95)².
    const tenth = lowestTenth(s);
    expect(tenth).toMatchObject({ n: 2, wrong: 1, correctedAccuracy: 19 / 20 });
    expect(tenth.correctedBrier).toBeCloseTo((0.01 + 1 + 16 * 0.0025) / 20, 12);
    expect(discrimination(s).wrong).toBe(2);
    expect(discrimination(s).brier_lowest_tenth_corrected).toBeCloseTo(0.0525, 4);
  });

  it('writes the answers file after review: the lowest tenth of the current answers by p becomes the truth at p = 1', () => {
    const truth = new Map<string, string | undefined>([
      ...Array.from({ length: 20 }, (_, i) => [`q${i}`, 'Lyon'] as [string, string]),
      ['v0', undefined],
    ]);
    const answers = [
      { id: 'v0', values: ['a', 'b'] },
      ...Array.from({ length: 20 }, (_, i) => ({ id: `q${i}`, value: i % 5 === 0 ? 'Porto' : 'Lyon', p: i === 7 ? 0.1 : i === 3 || i === 12 ? 0.4 : 0.9 })),
    ];
    const reviewed = correctLowestTenth(answers, truth);
    expect(reviewed).toHaveLength(answers.length);
    expect(reviewed[0]).toBe(answers[0]);
    // Two of twenty: q7 (p 0.1) and, of q3 and q12 at 0.4, the earlier in the file.
    const changed = reviewed.flatMap((a, i) => (a !== answers[i] ? [a] : []));
    expect(changed).toEqual([
      { id: 'q3', value: 'Lyon', p: 1 },
      { id: 'q7', value: 'Lyon', p: 1 },
    ]);
    // The wrong answers the curator did not reach stay wrong.
    expect(reviewed.filter((a) => 'value' in a && a.value === 'Porto').map((a) => a.id)).toEqual(['q0', 'q5', 'q10', 'q15']);
  });
});

describe('the fitted signals models', () => {
  it('exist for every profile and mode, and rank wrong answers lower than the calibration map, held out', () => {
    for (const profile of ['paper', 'nous-code']) {
      for (const mode of ['as-of', 'hindsight']) {
        const fitted = FITTED_SIGNALS[profile]?.[mode];
        expect(fitted, `${profile} ${mode}`).toBeDefined();
        expect(fitted!.model.features).toEqual(SIGNAL_FEATURES);
        const dev = fitted!.dev;
        expect(dev.signals_cv.auc).toBeGreaterThan(dev.calibrated_cv.auc + 0.05);
        expect(dev.signals_cv.wrong_in_lowest_tenth).toBeGreaterThan(dev.calibrated_cv.wrong_in_lowest_tenth);
        expect(dev.signals_cv.brier_binary).toBeLessThan(dev.calibrated_cv.brier_binary);
        // The repeats vary little: the figure is not one lucky deal of entities into folds.
        expect(dev.signals_cv_repeats.accuracy_lowest_tenth_corrected.sd).toBeLessThan(0.01);
      }
    }
  });

  it('in hindsight (the default answer mode): a curator correcting the lowest tenth reaches 0.92 held out, against 0.89 with the calibration map', () => {
    const dev = FITTED_SIGNALS.paper!.hindsight!.dev;
    expect(dev.calibrated_cv.accuracy_lowest_tenth_corrected).toBeLessThan(0.9);
    // 32 of the 60 reviewed answers are wrong held out, 31 before the supersession and rate-of-change
    // signals (0.920; over the 10 deals, 0.9207 on average and 0.915 at worst).
    expect(dev.signals_cv.accuracy_lowest_tenth_corrected).toBeGreaterThan(0.921);
    expect(dev.signals_cv_repeats.accuracy_lowest_tenth_corrected.mean).toBeGreaterThan(0.922);
    expect(dev.signals_cv_repeats.accuracy_lowest_tenth_corrected.min).toBeGreaterThan(0.916);
    expect(dev.signals_cv.ece).toBeLessThanOrEqual(0.05);
    expect(dev.signals.accuracy).toBe(dev.model.accuracy);
  });

  it('in hindsight, the scorer\'s Brier after that review is at most 0.10 held out, where the calibration map leaves it above', () => {
    const dev = FITTED_SIGNALS.paper!.hindsight!.dev;
    expect(dev.calibrated_cv.brier_lowest_tenth_corrected).toBeGreaterThan(0.1);
    expect(dev.signals_cv.brier_lowest_tenth_corrected).toBeLessThanOrEqual(0.1);
    expect(dev.signals_cv_repeats.brier_lowest_tenth_corrected.max).toBeLessThanOrEqual(0.1);
    // Below the floor of the unreviewed answers: a wrong answer costs 1 whatever its p.
    expect(dev.signals_cv.brier_lowest_tenth_corrected).toBeLessThan(1 - dev.model.accuracy);
  });

  it('apply only to a profile as shipped', () => {
    expect(signalsModelFor(PAPER_CONFIG, 'hindsight')).not.toBeNull();
    expect(fittedSignals({ ...PAPER_CONFIG, halfLifeDays: 7 }, 'hindsight')).toBeNull();
  });

  it('are what the script writes from the dev stream', { tags: ['external-data'] }, (ctx) => {
    const dev = beliefStreamDev();
    if (!dev.path) return ctx.skip(dev.missing);
    const committed = readFileSync(join(ROOT, 'core', 'beliefs', 'signals-fitted.ts'), 'utf8');
    expect(signalsFileText(fitSignals(readBeliefStream(dev.path)))).toBe(committed);
  });

  it('on the committed synthetic stream they never saw, a curator still finds more wrong answers than by the model p, though the ranking as a whole is worse', () => {
    // That stream's errors come from another process (a report is wrong at random, never hedged, and
    // values change every 300 days on average), so what the signals learned on dev carries over only
    // in part: docs/beliefs.md gives the figures.
    const stream = readBeliefStream(join(ROOT, 'test', 'fixtures', 'belief-stream-synthetic'));
    const samples = sampleSignals(stream, 'paper').hindsight;
    const shipped = signalsP(FITTED_SIGNALS.paper!.hindsight!.model, samples);
    const model = samples.map((s) => ({ p: s.p, correct: s.correct }));
    expect(lowestTenth(shipped).wrong).toBeGreaterThan(lowestTenth(model).wrong);
    expect(auc(shipped)).toBeLessThan(auc(model));
    expect(discrimination(shipped).ece).toBeLessThanOrEqual(0.12);
    // After that review, the scorer's Brier is lower with the signals' p than with the model's.
    expect(lowestTenth(shipped).correctedBrier).toBeLessThan(lowestTenth(model).correctedBrier);
  });

  it('give held-out answers that the curator\'s review scores as the held-out figures do', () => {
    const stream = readBeliefStream(join(ROOT, 'test', 'fixtures', 'belief-stream-synthetic'));
    const samples = sampleSignals(stream, 'paper').hindsight;
    const entities = [...new Set(samples.map((s) => s.entity))].sort();
    const answers = heldOutAnswers(samples, entities);
    const held = crossValidatedSignals(samples, entities);
    expect(answers.map((a) => a.p)).toEqual(held.map((h) => h.p));
    // Scoring the reviewed file the scorer's way gives the figures lowestTenth reports.
    const reviewed = correctLowestTenth(answers, stream.truth);
    let right = 0;
    let brier = 0;
    for (const a of reviewed) {
      const ok = a.value !== null && a.value === stream.truth.get(a.id);
      if (ok) right++;
      brier += ok ? (1 - a.p) ** 2 : 1;
    }
    const tenth = lowestTenth(held);
    expect(right / reviewed.length).toBeCloseTo(tenth.correctedAccuracy, 12);
    expect(brier / reviewed.length).toBeCloseTo(tenth.correctedBrier, 12);
  });
});

describe('a belief read', () => {
  let open: Engine[] = [];
  afterEach(() => {
    for (const e of open) e.close();
    open = [];
  });

  it('can rank an answer the model holds less likely above another, where the calibration map never reorders', () => {
    const f = freshEngine();
    open.push(f.engine);
    const T0 = NOW - 200 * DAY;
    // Ada: Lyon, four reports over 100 days and nothing else. Ben: Rome twice, long ago, then a lone
    // Lyon report two days ago. The model is surer of Ben's Lyon (its reports are recent); a lone
    // report of a new value is the kind of answer that is wrong more often.
    f.model.ingest(
      [
        obs('Ada Osei', 'city', 'Lyon', T0),
        obs('Ada Osei', 'city', 'Lyon', T0 + 30 * DAY),
        obs('Ada Osei', 'city', 'Lyon', T0 + 60 * DAY),
        obs('Ada Osei', 'city', 'Lyon', T0 + 100 * DAY),
        obs('Ben Park', 'city', 'Rome', T0),
        obs('Ben Park', 'city', 'Rome', T0 + 20 * DAY),
        obs('Ben Park', 'city', 'Lyon', NOW - 2 * DAY),
      ],
      NOW,
    );
    const read = (who: string, signals = true) => readBelief(f.model, who, 'city', NOW, 'hindsight', { signals });
    const ada = read('Ada Osei');
    const ben = read('Ben Park');
    expect([ada.value, ben.value]).toEqual(['Lyon', 'Lyon']);
    expect([ada.p_source, ben.p_source]).toEqual(['signals', 'signals']);
    expect(ada.signals).toMatchObject({ reports: 4, days_to_other_value: null });
    expect(ben.signals).toMatchObject({ reports: 1 });
    expect(ben.p_model).toBeGreaterThan(ada.p_model);
    expect(ada.p).toBeGreaterThan(ben.p);
    // The calibration map keeps the model's order.
    expect(read('Ben Park', false).p).toBeGreaterThan(read('Ada Osei', false).p);
    expect(ada.distribution.reduce((s, v) => s + v.p, 0)).toBeCloseTo(1, 12);
  });
});
