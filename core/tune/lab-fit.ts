/**
 * The Scorer lab's "Fit…": fitProfile on the lab's query set, labelled by the lab's label source,
 * starting from the profile in one of its slots. One fit at a time per engine; while it runs, its
 * progress (n of N evaluations, the best objective so far and its trace) is readable and a cancel
 * stops it before the next evaluation (fit.ts yields to the event loop between evaluations, so a
 * server answers both while the fit runs). The fit only reads: saving its profile is a separate,
 * journalled profiles.save.
 */
import { extensionKey, type EngineReader } from '../engine/engine.js';
import { callCancelled, jobNews } from '../engine/job-signals.js';
import { badInput, MnemoError } from '../errors.js';
import { ThroughputMeter } from '../model/throughput.js';
import { labelsFor } from '../recall/lab/labels.js';
import type { LabQuery } from '../recall/lab/types.js';
import { profileConfig, type RecallProfile } from '../recall/profile.js';
import { diffProfiles } from '../recall/saved-profiles.js';
import type { ProfileDiffRow } from '../recall/types.js';
import { fitProfile, type FitReport } from './fit.js';
import type { LabelledQuery } from './labels.js';
import type { TuneMetric } from './metrics.js';

export interface LabFitInput {
  queries: readonly LabQuery[];
  /** A label source's name; absent: the store's default (recall/lab/labels.ts). */
  labels?: string | undefined;
  /** The profile the search starts from (slot A or B of the lab). */
  from: RecallProfile;
  name: string;
  k: number;
  metric: TuneMetric;
  seed: number;
  maxEvaluations: number;
  /** Share of the labelled queries held out, spread evenly over the set (0: none). */
  heldOutShare: number;
  knobs?: readonly string[] | undefined;
}

export interface LabFitProgress {
  running: boolean;
  evaluation: number;
  of: number;
  /** The best objective so far (train), null before the first evaluation. */
  best: number | null;
  /** The best objective after each evaluation (index 0: the starting profile). */
  objective: number[];
  started_at: number | null;
  cancelling: boolean;
  /** Seconds left at the pace of the last evaluations (model/throughput.ts); null until there is one, and once cancelling. */
  eta_s: number | null;
}

export interface LabFitResult {
  label_source: string;
  /** Queries with labels, and how many of them trained and were held out. */
  labelled: { train: number; held_out: number; unlabelled: number };
  report: FitReport;
  /** The fitted profile as profiles.save takes it (full knobs and features). */
  config: ReturnType<typeof profileConfig>;
  /** Every knob where the fitted profile differs from the one it started from. */
  diff: ProfileDiffRow[];
}

const IDLE: LabFitProgress = { running: false, evaluation: 0, of: 0, best: null, objective: [], started_at: null, cancelling: false, eta_s: null };

class LabFit {
  progress: LabFitProgress = IDLE;
  controller: AbortController | null = null;
  meter = new ThroughputMeter();
}

/** Milliseconds of a monotonic timer: the pace of the fit, not an instant it records. */
const monotonic = () => performance.now();

const LAB_FIT = extensionKey('lab.fit', () => new LabFit());

/** Every labelled query, the held-out ones spread evenly (query i is held out when ⌊(i+1)·share⌋ > ⌊i·share⌋). */
export function splitHeldOut<T>(items: readonly T[], share: number): { train: T[]; heldOut: T[] } {
  const train: T[] = [];
  const heldOut: T[] = [];
  items.forEach((item, i) => (items.length > 1 && Math.floor((i + 1) * share) > Math.floor(i * share) ? heldOut : train).push(item));
  return { train, heldOut };
}

function labelledQueries(engine: EngineReader, input: LabFitInput): { source: string; queries: LabelledQuery[]; unlabelled: number } {
  const { source, labels } = labelsFor(engine, input.labels, input.queries.map((q) => q.query), input.k);
  const asOf = engine.now();
  const queries: LabelledQuery[] = [];
  input.queries.forEach((q, i) => {
    const relevant = labels.get(q.query) ?? [];
    if (relevant.length > 0) queries.push({ id: `lab:${i}`, query: q.query, owner: q.owner, asOf, relevant });
  });
  return { source: source.name, queries, unlabelled: input.queries.length - queries.length };
}

export async function runLabFit(engine: EngineReader, input: LabFitInput): Promise<LabFitResult> {
  const st = engine.get(LAB_FIT);
  if (st.progress.running) throw new MnemoError('busy', `a fit is already running on this store (${st.progress.evaluation} of ${st.progress.of} evaluations); wait for it or cancel it with lab.fitCancel`);
  const { source, queries, unlabelled } = labelledQueries(engine, input);
  if (queries.length === 0) {
    throw badInput(`none of the ${input.queries.length} queries has labels under ${source}: a fit needs queries whose relevant memories are known (pick another label source or query set)`, { field: 'queries', label_source: source });
  }
  const { train, heldOut } = splitHeldOut(queries, input.heldOutShare);
  const controller = new AbortController();
  st.controller = controller;
  st.progress = { ...IDLE, running: true, of: input.maxEvaluations, started_at: engine.now() };
  st.meter = new ThroughputMeter();
  st.meter.note(0, input.maxEvaluations, monotonic());
  jobNews();
  const trace: number[] = [];
  try {
    const report = await fitProfile({
      base: input.from,
      name: input.name,
      train: [{ engine, queries: train }],
      heldOut: heldOut.length ? [{ engine, queries: heldOut }] : [],
      metric: input.metric,
      k: input.k,
      seed: input.seed,
      maxEvaluations: input.maxEvaluations,
      knobs: input.knobs,
      signal: controller.signal,
      onProgress: (p) => {
        trace.push(p.best);
        st.meter.note(p.evaluation, p.of, monotonic());
        st.progress = { ...st.progress, evaluation: p.evaluation, of: p.of, best: p.best, objective: trace.slice() };
        // The host's cancel (its caller went away, or lab.fitCancel reached the host first) stops it before the next evaluation.
        if (callCancelled()) controller.abort();
        jobNews();
      },
    });
    return {
      label_source: source,
      labelled: { train: train.length, held_out: heldOut.length, unlabelled },
      report,
      config: profileConfig(report.profile),
      diff: diffProfiles(input.from, report.profile),
    };
  } catch (err) {
    if (controller.signal.aborted) {
      throw new MnemoError('conflict', `the fit was cancelled after ${st.progress.evaluation} of ${st.progress.of} evaluations; nothing was saved`, { cancelled: true, evaluations: st.progress.evaluation });
    }
    throw err;
  } finally {
    st.progress = IDLE;
    st.controller = null;
    jobNews();
  }
}

export function labFitProgress(engine: EngineReader): LabFitProgress {
  const st = engine.get(LAB_FIT);
  if (!st.progress.running || st.progress.cancelling) return st.progress;
  return { ...st.progress, eta_s: st.meter.etaSeconds(monotonic()) };
}

/** Asks the running fit to stop before its next evaluation; false when none is running. */
export function cancelLabFit(engine: EngineReader): { cancelled: boolean } {
  const st = engine.get(LAB_FIT);
  if (!st.progress.running || !st.controller) return { cancelled: false };
  st.controller.abort();
  st.progress = { ...st.progress, cancelling: true };
  return { cancelled: true };
}
