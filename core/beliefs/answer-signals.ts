/**
 * What the delta log says about one answer besides its probability: how many reports back it, how
 * recent reports agree with it, how long since the value last changed, how reliable its sources
 * were, and how surprising the dimension's history has been. The Bayesian p is sharp about *which*
 * value is current but blind to these: an answer held at p = 0.6 by four agreeing reports a week
 * apart and one held at p = 0.6 by a single report right after a change are equally likely under
 * it, and they are not (signals-model.ts turns the signals into the probability the answer is right).
 *
 * Everything here reads the deltas the read mode may see: as-of, those at or before T; hindsight,
 * the whole log.
 */
import { OTHER } from './equations.js';
import { estimateAt } from './hindsight.js';

export interface SignalDelta {
  value: string;
  t: number;
  epsilon: number;
  surprise: number;
}

/** A report whose reliability is below this counts against its value (Eq. 7's log-odds weighting is negative there). */
export const HEDGED_BELOW = 0.5;
/** How many reports nearest to T "recent observations" means. */
export const RECENT_REPORTS = 4;
/**
 * The time scales the answer is re-estimated at, as factors of the profile's half-life: values that
 * change this many times more slowly, and more quickly. An answer that holds at both does not hang on
 * the assumed rate of change; one that flips (a lone new report against an older run, a T between two
 * runs) does.
 */
export const SLOWER_CHANGE = 4;
export const FASTER_CHANGE = 3;
/** A gap longer than any stream holds, for "no such report". */
const NEVER_DAYS = 400;
const DAY = 86_400;

/** The signals in the units people read them in; `features` turns them into the model's inputs. */
export interface AnswerSignals {
  /** Reliable reports (reliability ≥ ½) of the answer. */
  reports: number;
  /** Of the reliable reports nearest to T (up to 4), how many give the answer. */
  recent_agreeing: number;
  recent_total: number;
  /** Days from T to the nearest reliable report of the answer (null: none). */
  days_to_report: number | null;
  /** Days from T to the nearest reliable report of another value: how long since (or until) the value changed (null: none). */
  days_to_other_value: number | null;
  /** Hindsight: the last reliable report before T and the first after it give different values. */
  split_around_t: boolean;
  /** Mean surprise of the dimension's deltas, in bits: how often it has been caught out. */
  mean_surprise_bits: number;
  /** Changes of value between consecutive reliable reports, per report. */
  volatility: number;
  /** Reports of the answer with reliability below ½ ("someone said", "maybe"). */
  hedged_reports: number;
  /** Mean reliability of the answer's reliable reports (0: none). */
  mean_reliability: number;
  /** The model's p of the answer and of the runner-up (the best other observed value). */
  p_model: number;
  p_runner_up: number;
  /** The latest reliable report this read may see gives the answer: nothing has superseded it since. */
  latest_agrees: boolean;
  /** The answer's probability from the same reports if values changed SLOWER_CHANGE times more slowly, and FASTER_CHANGE times more quickly. */
  p_slower: number;
  p_faster: number;
}

/** The answer's probability at `at` from these reports under retention `lambda` per second (the forward–backward estimate; with no report after `at`, the filter). */
function pAtRate(deltas: readonly SignalDelta[], at: number, answer: string, lambda: number): number {
  return estimateAt(deltas, at, lambda)[answer] ?? 0;
}

/**
 * The signals of `answer` at time `at`, from the deltas this read may see, in log order; `lambda` is
 * the profile's retention per second (Eq. 4).
 */
export function answerSignals(deltas: readonly SignalDelta[], at: number, answer: string, distribution: readonly { value: string; p: number }[], lambda: number): AnswerSignals {
  const reliable = deltas.filter((d) => 1 - d.epsilon >= HEDGED_BELOW);
  const mine = reliable.filter((d) => d.value === answer);
  const others = reliable.filter((d) => d.value !== answer);
  const nearest = [...reliable].sort((a, b) => Math.abs(a.t - at) - Math.abs(b.t - at)).slice(0, RECENT_REPORTS);
  const gap = (list: readonly SignalDelta[]) => (list.length ? Math.min(...list.map((d) => Math.abs(d.t - at))) / DAY : null);
  const before = reliable.filter((d) => d.t <= at);
  const after = reliable.filter((d) => d.t > at);
  let changes = 0;
  for (let i = 1; i < reliable.length; i++) if (reliable[i]!.value !== reliable[i - 1]!.value) changes++;
  const modelP = distribution.find((v) => v.value === answer)?.p ?? 0;
  const runnerUp = distribution.find((v) => v.value !== answer && v.value !== OTHER)?.p ?? 0;
  return {
    reports: mine.length,
    recent_agreeing: nearest.filter((d) => d.value === answer).length,
    recent_total: nearest.length,
    days_to_report: gap(mine),
    days_to_other_value: gap(others),
    split_around_t: before.length > 0 && after.length > 0 && before[before.length - 1]!.value !== after[0]!.value,
    mean_surprise_bits: deltas.length ? deltas.reduce((s, d) => s + d.surprise, 0) / deltas.length : 0,
    volatility: reliable.length > 1 ? changes / (reliable.length - 1) : 0,
    hedged_reports: deltas.filter((d) => d.value === answer && 1 - d.epsilon < HEDGED_BELOW).length,
    mean_reliability: mine.length ? mine.reduce((s, d) => s + (1 - d.epsilon), 0) / mine.length : 0,
    p_model: modelP,
    p_runner_up: runnerUp,
    latest_agrees: reliable.length > 0 && reliable[reliable.length - 1]!.value === answer,
    p_slower: pAtRate(deltas, at, answer, Math.pow(lambda, 1 / SLOWER_CHANGE)),
    p_faster: pAtRate(deltas, at, answer, Math.pow(lambda, FASTER_CHANGE)),
  };
}

/** The model's p is taken within [0.01, 0.99], its prune floor (calibration.ts says why). */
const EDGE = 0.01;
const logit = (p: number) => {
  const q = Math.min(1 - EDGE, Math.max(EDGE, p));
  return Math.log(q / (1 - q));
};

/** The model's inputs, by name, in a fixed order (the fitted weights follow it). */
export const SIGNAL_FEATURES = [
  'logit_p',
  'margin',
  'recent_agreement',
  'log_reports',
  'log_days_to_report',
  'log_days_to_other_value',
  'split_around_t',
  'mean_surprise_bits',
  'hedged',
  'mean_reliability',
  'volatility',
  'latest_agrees',
  'logit_p_slower',
  'logit_p_faster',
] as const;
export type SignalFeature = (typeof SIGNAL_FEATURES)[number];

export function signalFeatures(s: AnswerSignals): number[] {
  const byName: Record<SignalFeature, number> = {
    logit_p: logit(s.p_model),
    // Over the runner-up; an answer with no rival gets the widest margin the prune floor allows.
    margin: s.p_runner_up > 0 ? logit(s.p_model) - logit(s.p_runner_up) : logit(1 - EDGE) - logit(EDGE),
    recent_agreement: s.recent_total ? s.recent_agreeing / s.recent_total : 0,
    log_reports: Math.log1p(s.reports),
    log_days_to_report: Math.log1p(s.days_to_report ?? NEVER_DAYS),
    log_days_to_other_value: Math.log1p(s.days_to_other_value ?? NEVER_DAYS),
    split_around_t: s.split_around_t ? 1 : 0,
    mean_surprise_bits: s.mean_surprise_bits,
    hedged: s.hedged_reports > 0 ? 1 : 0,
    mean_reliability: s.mean_reliability,
    volatility: s.volatility,
    latest_agrees: s.latest_agrees ? 1 : 0,
    logit_p_slower: logit(s.p_slower),
    logit_p_faster: logit(s.p_faster),
  };
  return SIGNAL_FEATURES.map((f) => byName[f]);
}
