/**
 * Reading beliefs at a time T, two ways:
 * - `as-of` (time travel, Nous's query_at): the posterior of the last delta at or before T, decayed
 *   to T in dataset time. What the agent believed at T.
 * - `hindsight`: the forward–backward estimate of the value at T from the whole log. What the agent
 *   now believes was true at T.
 * Plus Eq. 7's observed values, and the views the API returns.
 */
import { aggregateValues, decay, entropy, modeOf, OTHER, type Dist } from './equations.js';
import { estimateAt } from './hindsight.js';
import type { BeliefReader } from './model.js';
import { calibrationFor, signalsModelFor } from './calibration-choice.js';
import { calibrate } from './calibration.js';
import { answerSignals, signalFeatures, type AnswerSignals } from './answer-signals.js';
import { signalsProbability } from './signals-model.js';
import type { DeltaRow } from '../store/port/port.js';

export type ReadMode = 'as-of' | 'hindsight';

export interface ValueP {
  value: string;
  p: number;
}

export interface BeliefView {
  entity: string;
  attribute: string;
  at: number;
  mode: ReadMode;
  /** Most probable value first; `<other>` is the mass of "a value not yet observed". */
  distribution: ValueP[];
  value: string | null;
  /** The probability that `value` is right: the model's, calibrated when a fitted map applies (`calibrated`). */
  p: number;
  /** The model's own probability of `value`, before calibration. */
  p_model: number;
  /** Whether `p` and the distribution went through a fitted map: the signals model or, failing that, the calibration map. */
  calibrated: boolean;
  /**
   * Where `p` comes from: `signals` (the answer's signals, signals-fitted.ts: it discriminates),
   * `calibration` (the model's p through the Platt map, calibration-fitted.ts), or `model`.
   */
  p_source: 'signals' | 'calibration' | 'model';
  /** What the delta log says about the answer besides its p (answer-signals.ts); null with no answer. */
  signals: AnswerSignals | null;
  /** Shannon entropy (bits) of `distribution`, the one shown: calibrated when `calibrated`. */
  entropy: number;
  /** log2 of the number of values in `distribution`. */
  max_entropy: number;
  /** The entropy of the model's own distribution (before calibration); equal to `entropy` when not calibrated. */
  entropy_model: number;
  /** Time of the last delta at or before `at` (null: nothing known yet). */
  t_last: number | null;
  deltas: number;
  /** Eq. 7: every value observed with surprise above θ_min (reliability-weighted), up to `at`. */
  values: string[];
}

export function sortedDistribution(p: Dist): ValueP[] {
  return Object.entries(p)
    .map(([value, q]) => ({ value, p: q }))
    .sort((a, b) => b.p - a.p || (a.value === OTHER ? 1 : b.value === OTHER ? -1 : a.value.localeCompare(b.value)));
}

function emptyView(entity: string, attribute: string, at: number, mode: ReadMode): BeliefView {
  return { entity, attribute, at, mode, distribution: [], value: null, p: 0, p_model: 0, calibrated: false, p_source: 'model', signals: null, entropy: 0, max_entropy: 0, entropy_model: 0, t_last: null, deltas: 0, values: [] };
}

/** Eq. 7 over a dimension's deltas (or just the mode, when aggregation is off). */
export function observedValues(model: BeliefReader, deltas: readonly DeltaRow[], mode: string | null): string[] {
  const c = model.config();
  if (!c.aggregation) return mode === null ? [] : [mode];
  return aggregateValues(
    deltas.map((d) => ({ value: d.value, surprise: d.surprise, reliability: 1 - d.epsilon })),
    c.thetaMinBits,
    c.aggregationWeighting,
  );
}

/**
 * The distribution with its mode's probability calibrated: the mode gets `p`, the other values share
 * the rest in their model proportions, so it still sums to 1 and keeps the model's order of the others.
 */
function calibratedDistribution(sorted: ValueP[], mode: string | null, pModel: number, p: number): ValueP[] {
  if (mode === null || pModel === p) return sorted;
  const rest = sorted.filter((v) => v.value !== mode);
  const restMass = 1 - pModel;
  const others = restMass > 0 ? rest.map((v) => ({ value: v.value, p: (v.p / restMass) * (1 - p) })) : p < 1 ? [{ value: OTHER, p: 1 - p }] : [];
  return [{ value: mode, p }, ...others];
}

export interface ReadOptions {
  /** Use a fitted map when one applies (default). Retrieval's thresholds read the model's own p. */
  calibrated?: boolean;
  /** With `calibrated`, prefer the signals model to the calibration map (default true). */
  signals?: boolean;
}

/** The answer's probability: the signals model's, else the calibration map's, else the model's own. */
function headlineP(model: BeliefReader, mode: ReadMode, pModel: number, signals: AnswerSignals | null, opts: ReadOptions): { p: number; source: BeliefView['p_source'] } {
  if (opts.calibrated === false || signals === null) return { p: pModel, source: 'model' };
  const fitted = opts.signals === false ? null : signalsModelFor(model.config(), mode);
  if (fitted) return { p: signalsProbability(fitted, signalFeatures(signals)), source: 'signals' };
  const map = calibrationFor(model.config(), mode);
  return map ? { p: calibrate(map, pModel), source: 'calibration' } : { p: pModel, source: 'model' };
}

/** The belief about (entity, attribute) at `at`; the entity may be an alias. */
export function readBelief(model: BeliefReader, entityName: string, attribute: string, at: number, mode: ReadMode = 'as-of', opts: ReadOptions = {}): BeliefView {
  const entity = model.resolve(entityName);
  const all = model.tables.deltasOf(entity, attribute);
  const upto = all.filter((d) => d.t <= at);
  if (upto.length === 0 && (mode === 'as-of' || all.length === 0)) return emptyView(entity, attribute, at, mode);
  let dist: Dist;
  if (mode === 'hindsight' && model.config().update === 'bayes') {
    dist = estimateAt(all.map((d) => ({ value: d.value, t: d.t, epsilon: d.epsilon })), at, model.lambda());
  } else {
    const last = upto[upto.length - 1];
    if (!last) return emptyView(entity, attribute, at, mode);
    dist = decay(last.posterior, model.lambda(), at - last.t);
  }
  const m = modeOf(dist);
  const sorted = sortedDistribution(dist);
  const signals = m.value === null ? null : answerSignals(mode === 'hindsight' ? all : upto, at, m.value, sorted, model.lambda());
  const { p, source } = headlineP(model, mode, m.p, signals, opts);
  // The entropy is of the distribution shown (its bars): 0.857 / 0.143 is 0.59 bits, whatever the model's own was.
  const shown = calibratedDistribution(sorted, m.value, m.p, p);
  const n = shown.length;
  return {
    entity,
    attribute,
    at,
    mode,
    distribution: shown,
    value: m.value,
    p,
    p_model: m.p,
    calibrated: source !== 'model',
    p_source: source,
    signals,
    entropy: entropy(Object.fromEntries(shown.map((v) => [v.value, v.p]))),
    max_entropy: n > 1 ? Math.log2(n) : 0,
    entropy_model: entropy(dist),
    t_last: upto.length ? upto[upto.length - 1]!.t : null,
    deltas: upto.length,
    values: observedValues(model, upto, m.value),
  };
}

/** Every dimension of an entity at `at`. */
export function readEntity(model: BeliefReader, entityName: string, at: number, mode: ReadMode = 'as-of', opts: ReadOptions = {}): BeliefView[] {
  const entity = model.resolve(entityName);
  return model.tables
    .dimensionsOf(entity)
    .map((d) => readBelief(model, entity, d.attribute, at, mode, opts))
    .filter((v) => v.deltas > 0 || mode === 'hindsight');
}
