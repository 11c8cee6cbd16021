/**
 * fitProfile: fits a profile's numeric knobs to labelled queries. The objective is the mean of one
 * metric (recall@k, MRR or nDCG@k) over the training queries, each ranked by the real recall
 * pipeline under the candidate profile; the search is optimiser.ts's seeded coordinate search.
 * The report puts the held-out metrics of the starting and the fitted profile side by side, and an
 * ablation: each knob the fit moved, set back to its starting value alone, on the held-out set.
 */
import { badInput } from '../errors.js';
import type { RecallProfile } from '../recall/profile.js';
import { evaluateProfile, type Evaluation } from './evaluate.js';
import { checkFittedName, knobValue, selectKnobs, withKnobs, type KnobKind } from './knob-space.js';
import { queryCount, type LabelledSet } from './labels.js';
import type { TuneMetric } from './metrics.js';
import { maximise } from './optimiser.js';
import { RankCache } from './rank-cache.js';

export interface FitProgress {
  evaluation: number;
  of: number;
  best: number;
  current: number;
}

export interface FitOptions {
  base: RecallProfile;
  /** The fitted profile's name (never nooa-0.0.9). */
  name: string;
  train: LabelledSet;
  heldOut: LabelledSet;
  metric?: TuneMetric;
  k?: number;
  seed?: number;
  maxEvaluations?: number;
  /** Only these knobs (dotted names, knob-space.ts); default every tunable knob. */
  knobs?: readonly string[];
  signal?: AbortSignal;
  onProgress?: (p: FitProgress) => void;
  /**
   * Gather each query's candidates once and re-score them (rank-cache.ts): the same ranks, several
   * times faster, but only while no other process writes the stores during the fit. Default off.
   */
  cacheCandidates?: boolean;
}

export interface FittedKnob {
  name: string;
  kind: KnobKind;
  min: number;
  max: number;
  base: number;
  fitted: number;
}

export interface SplitComparison {
  queries: number;
  base: Evaluation;
  fitted: Evaluation;
}

export interface AblationRow {
  /** The knob set back to its starting value (every other knob stays fitted). */
  knob: string;
  base: number;
  fitted: number;
  held_out: Evaluation;
}

export interface FitReport {
  name: string;
  base_profile: string;
  metric: TuneMetric;
  k: number;
  seed: number;
  max_evaluations: number;
  evaluations: number;
  stopped: 'budget' | 'converged';
  profile: RecallProfile;
  /** Every knob searched, with its start and fitted value. */
  knobs: FittedKnob[];
  /** The best objective (train) after each evaluation; index 0 is the starting profile. */
  objective: number[];
  train: SplitComparison;
  /** Null when no held-out queries were given. */
  held_out: SplitComparison | null;
  /** One row per knob the fit moved (held-out metrics; train when no held-out set). */
  ablation: AblationRow[];
  seconds: number;
}

export const FIT_DEFAULTS = { metric: 'recall' as TuneMetric, k: 10, seed: 1, maxEvaluations: 200 };
export const MAX_EVALUATIONS_LIMIT = 100_000;

/**
 * One evaluation after a macrotask turn: a server answers the lab's progress polls and its cancel
 * between evaluations (the search's and the report's alike), and the CLI's progress reaches stderr.
 */
async function evaluateAfterATurn(set: LabelledSet, profile: RecallProfile, k: number, signal: AbortSignal | undefined, cache: RankCache | undefined): Promise<Evaluation> {
  await new Promise((resolve) => setImmediate(resolve));
  return evaluateProfile(set, profile, k, signal, cache);
}

export async function fitProfile(opts: FitOptions): Promise<FitReport> {
  const started = performance.now();
  const metric = opts.metric ?? FIT_DEFAULTS.metric;
  const k = opts.k ?? FIT_DEFAULTS.k;
  const seed = opts.seed ?? FIT_DEFAULTS.seed;
  const maxEvaluations = opts.maxEvaluations ?? FIT_DEFAULTS.maxEvaluations;
  checkFittedName(opts.name);
  if (!Number.isInteger(k) || k < 1 || k > 1000) throw badInput(`k must be an integer within [1, 1000], got ${k}`, { field: 'k' });
  if (!Number.isInteger(maxEvaluations) || maxEvaluations < 1 || maxEvaluations > MAX_EVALUATIONS_LIMIT) {
    throw badInput(`maxEvaluations must be an integer within [1, ${MAX_EVALUATIONS_LIMIT}], got ${maxEvaluations}`, { field: 'max_evaluations' });
  }
  if (!Number.isInteger(seed)) throw badInput(`seed must be an integer, got ${seed}`, { field: 'seed' });
  if (queryCount(opts.train) === 0) throw badInput('no training queries: a fit needs at least one labelled query', { field: 'train' });
  const specs = selectKnobs(opts.base, opts.knobs);
  const start = specs.map((s) => knobValue(opts.base, s.name));
  const cache = opts.cacheCandidates ? new RankCache() : undefined;
  const at = (x: readonly number[]) => withKnobs(opts.base, specs, x, opts.name);
  const result = await maximise({
    specs,
    start,
    seed,
    maxEvaluations,
    signal: opts.signal,
    objective: async (x) => (await evaluateAfterATurn(opts.train, at(x), k, opts.signal, cache))[metric],
    onEvaluation: (e) => opts.onProgress?.({ evaluation: e.evaluation, of: maxEvaluations, best: e.best, current: e.value }),
  });
  const fitted = at(result.best);
  const base = { ...opts.base };
  const compare = async (set: LabelledSet): Promise<SplitComparison> => ({
    queries: queryCount(set),
    base: await evaluateAfterATurn(set, base, k, opts.signal, cache),
    fitted: await evaluateAfterATurn(set, fitted, k, opts.signal, cache),
  });
  const heldOut = queryCount(opts.heldOut) > 0 ? await compare(opts.heldOut) : null;
  const knobs: FittedKnob[] = specs.map((s, i) => ({ name: s.name, kind: s.kind, min: s.min, max: s.max, base: start[i]!, fitted: result.best[i]! }));
  const ablationSet = heldOut ? opts.heldOut : opts.train;
  const ablation: AblationRow[] = [];
  for (const [i, knob] of knobs.entries()) {
    if (knob.base === knob.fitted) continue;
    const x = result.best.slice();
    x[i] = start[i]!;
    ablation.push({ knob: knob.name, base: knob.base, fitted: knob.fitted, held_out: await evaluateAfterATurn(ablationSet, at(x), k, opts.signal, cache) });
  }
  const train = await compare(opts.train);
  return {
    name: opts.name,
    base_profile: opts.base.name,
    metric,
    k,
    seed,
    max_evaluations: maxEvaluations,
    evaluations: result.evaluations,
    stopped: result.stopped,
    profile: fitted,
    knobs,
    objective: result.trace,
    train,
    held_out: heldOut,
    ablation,
    seconds: (performance.now() - started) / 1000,
  };
}
