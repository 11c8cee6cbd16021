/**
 * Fitting and measuring the signals model (core/beliefs/signals-model.ts) on a belief-stream data set:
 * answer every current query under each profile and read mode, take each answer's signals
 * (answer-signals.ts) and whether it was right, fit one model per profile and mode, and measure it
 * in-sample, under 5-fold cross-validation by entity (the model used on an entity never saw that
 * entity's answers), and over repeated cross-validations with the entities dealt anew, beside the
 * model's own p and the calibration map. Used by scripts/fit-belief-signals.ts, which writes
 * core/beliefs/signals-fitted.ts, and by its tests. The truth file is read here, offline, and never
 * by the system.
 */
import { BELIEF_PROFILES, readBelief, type BeliefProfile, type ReadMode } from '../core/beliefs/index.js';
import { calibrate, fitPlatt, type CalibrationSample } from '../core/beliefs/calibration.js';
import type { DiscriminationFigures, Spread, StoredSignals, StoredSignalsModels } from '../core/beliefs/calibration-types.js';
import { SIGNAL_FEATURES, signalFeatures } from '../core/beliefs/answer-signals.js';
import { fitSignalsModel, signalsProbability, type SignalsModel } from '../core/beliefs/signals-model.js';
import { rng } from '../core/demo/generate.js';
import { compactJson, figures, FOLDS, READ_MODES, withIngestedStream, type BeliefStream } from './belief-calibration-fit.js';

export interface SignalSample {
  entity: string;
  /** The model's own p of its answer (0: no answer). */
  p: number;
  /** The answer's features, in SIGNAL_FEATURES order (null: no answer). */
  x: number[] | null;
  correct: boolean;
}

/** Each current query answered under `profile`, per read mode, with its signals. */
export function sampleSignals(stream: BeliefStream, profile: BeliefProfile): Record<ReadMode, SignalSample[]> {
  return withIngestedStream(stream, profile, (model) => {
    const out = {} as Record<ReadMode, SignalSample[]>;
    for (const mode of READ_MODES) {
      out[mode] = stream.queries.flatMap((q) => {
        if (q.kind !== 'current') return [];
        const view = readBelief(model, q.entity, q.attribute, q.at, mode, { calibrated: false });
        return [{ entity: q.entity, p: view.p, x: view.signals && signalFeatures(view.signals), correct: view.value !== null && view.value === stream.truth.get(q.id) }];
      });
    }
    return out;
  });
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/** The chance a right answer outranks a wrong one by p (ties count half). */
export function auc(samples: readonly CalibrationSample[]): number {
  const right = samples.filter((s) => s.correct).map((s) => s.p);
  const wrong = samples.filter((s) => !s.correct).map((s) => s.p);
  if (!right.length || !wrong.length) return 1;
  let wins = 0;
  for (const r of right) for (const w of wrong) wins += r > w ? 1 : r === w ? 0.5 : 0;
  return wins / (right.length * wrong.length);
}

/** The lowest tenth by p (⌊n/10⌋ answers; among equal p, the earlier queries first) and what correcting it gives. */
export function lowestTenth(samples: readonly CalibrationSample[]): { n: number; wrong: number; correctedAccuracy: number } {
  const n = Math.floor(samples.length / 10);
  const order = samples.map((s, i) => ({ s, i })).sort((a, b) => a.s.p - b.s.p || a.i - b.i);
  const lowest = order.slice(0, n);
  const wrong = lowest.filter((o) => !o.s.correct).length;
  const right = samples.filter((s) => s.correct).length;
  return { n, wrong, correctedAccuracy: samples.length ? (right + wrong) / samples.length : 0 };
}

export function discrimination(samples: readonly CalibrationSample[]): DiscriminationFigures {
  const tenth = lowestTenth(samples);
  return {
    ...figures(samples),
    auc: round(auc(samples)),
    wrong: samples.filter((s) => !s.correct).length,
    lowest_tenth: tenth.n,
    wrong_in_lowest_tenth: tenth.wrong,
    accuracy_lowest_tenth_corrected: round(tenth.correctedAccuracy),
  };
}

/** The signals model's p of each answer; 0 for no answer (it stays unanswered). */
export function signalsP(model: SignalsModel, samples: readonly SignalSample[]): CalibrationSample[] {
  return samples.map((s) => ({ p: s.x ? signalsProbability(model, s.x) : 0, correct: s.correct }));
}

/**
 * The ridge penalty on the standardised weights. Chosen on the dev stream by repeated 5-fold
 * cross-validation (10 deals of entities) over 0.3, 1, 3, 10, 20, 50 and 100, by the proper (binary)
 * Brier score, which was lowest at 3 in hindsight (0.0815) and as-of (0.1362). More shrinkage lowers
 * the scorer's one-sided Brier term a little further (0.1521 at 3, 0.1464 at 100 in hindsight) by
 * squeezing the probabilities together, at the cost of ranking (AUC 0.867 → 0.851).
 */
export const SIGNALS_RIDGE = 3;

export function fitOn(samples: readonly SignalSample[]): SignalsModel {
  return fitSignalsModel(
    SIGNAL_FEATURES,
    samples.flatMap((s) => (s.x ? [{ x: s.x, correct: s.correct }] : [])),
    SIGNALS_RIDGE,
  );
}

/** Every answer scored by a model fitted without its entity's answers; `order` deals entities into folds. */
export function crossValidatedSignals(samples: readonly SignalSample[], order: readonly string[], folds = FOLDS): CalibrationSample[] {
  const foldOf = new Map(order.map((e, i) => [e, i % folds]));
  const models = Array.from({ length: folds }, (_, f) => fitOn(samples.filter((s) => foldOf.get(s.entity) !== f)));
  return samples.map((s) => ({ p: s.x ? signalsProbability(models[foldOf.get(s.entity)!]!, s.x) : 0, correct: s.correct }));
}

/** The Platt map, cross-validated the same way (the baseline the signals model has to beat). */
function crossValidatedPlatt(samples: readonly SignalSample[], order: readonly string[], folds = FOLDS): CalibrationSample[] {
  const foldOf = new Map(order.map((e, i) => [e, i % folds]));
  const maps = Array.from({ length: folds }, (_, f) => fitPlatt(samples.filter((s) => foldOf.get(s.entity) !== f)));
  return samples.map((s) => ({ p: calibrate(maps[foldOf.get(s.entity)!]!, s.p), correct: s.correct }));
}

function spread(xs: readonly number[]): Spread {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / Math.max(1, xs.length - 1));
  return { mean: round(mean), sd: round(sd), min: round(Math.min(...xs)), max: round(Math.max(...xs)) };
}

/** Entities dealt by a seeded shuffle, so the repeats are the same on every run. */
function shuffled(entities: readonly string[], seed: number): string[] {
  const rand = rng(seed);
  const out = [...entities];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export const CV_REPEATS = 10;

export function fitSignalsFor(samples: readonly SignalSample[]): StoredSignals {
  const fitted = fitOn(samples);
  const model: SignalsModel = {
    features: fitted.features,
    mean: fitted.mean.map(round),
    scale: fitted.scale.map(round),
    weights: fitted.weights.map(round),
    intercept: round(fitted.intercept),
  };
  const byName = [...new Set(samples.map((s) => s.entity))].sort();
  const repeats = Array.from({ length: CV_REPEATS }, (_, r) => discrimination(crossValidatedSignals(samples, shuffled(byName, r + 1))));
  const pick = (k: keyof DiscriminationFigures) => spread(repeats.map((f) => f[k] as number));
  return {
    model,
    dev: {
      answers: samples.length,
      model: discrimination(samples),
      calibrated_cv: discrimination(crossValidatedPlatt(samples, byName)),
      signals: discrimination(signalsP(model, samples)),
      signals_cv: discrimination(crossValidatedSignals(samples, byName)),
      signals_cv_repeats: {
        repeats: CV_REPEATS,
        accuracy_lowest_tenth_corrected: pick('accuracy_lowest_tenth_corrected'),
        wrong_in_lowest_tenth: pick('wrong_in_lowest_tenth'),
        brier: pick('brier'),
        brier_binary: pick('brier_binary'),
        auc: pick('auc'),
        ece: pick('ece'),
      },
    },
  };
}

/** One signals model per profile and read mode, with its dev figures. */
export function fitSignals(stream: BeliefStream, log: (line: string) => void = () => {}): StoredSignalsModels {
  const out: StoredSignalsModels = {};
  for (const profile of BELIEF_PROFILES) {
    const byMode = sampleSignals(stream, profile);
    out[profile] = {};
    for (const mode of READ_MODES) {
      const s = fitSignalsFor(byMode[mode]);
      out[profile][mode] = s;
      const d = s.dev;
      log(
        `${profile} ${mode}: accuracy ${d.model.accuracy}; lowest tenth corrected: model p ${d.model.accuracy_lowest_tenth_corrected}, calibrated ${d.calibrated_cv.accuracy_lowest_tenth_corrected}, ` +
          `signals ${d.signals.accuracy_lowest_tenth_corrected} (held out ${d.signals_cv.accuracy_lowest_tenth_corrected}, repeats ${d.signals_cv_repeats.accuracy_lowest_tenth_corrected.mean} ± ${d.signals_cv_repeats.accuracy_lowest_tenth_corrected.sd}); ` +
          `Brier ${d.calibrated_cv.brier} → ${d.signals_cv.brier}; binary Brier ${d.calibrated_cv.brier_binary} → ${d.signals_cv.brier_binary}; AUC ${d.calibrated_cv.auc} → ${d.signals_cv.auc}`,
      );
    }
  }
  return out;
}

/** The text of core/beliefs/signals-fitted.ts. */
export function signalsFileText(fitted: StoredSignalsModels): string {
  return `/**
 * Generated by scripts/fit-belief-signals.ts on the belief-stream dev set; do not edit by hand.
 * Per belief profile and read mode: the signals model (signals-model.ts: logistic regression on the
 * answer's standardised signals, answer-signals.ts) and the dev figures for the model's own p
 * ("model"), the calibration map held out ("calibrated_cv"), the signals model in-sample ("signals"),
 * held out by entity in 5 folds ("signals_cv"), and over ${CV_REPEATS} repeats with the entities dealt anew
 * ("signals_cv_repeats"): accuracy, the scorer's Brier term, the binary Brier score, ECE, AUC, and
 * the accuracy once the lowest tenth of answers by p is corrected.
 */
import type { StoredSignalsModels } from './calibration-types.js';

export const FITTED_SIGNALS: StoredSignalsModels = ${compactJson(fitted)};
`;
}
