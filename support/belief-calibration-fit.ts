/**
 * Fitting and measuring the belief calibration (core/beliefs/calibration.ts) on a belief-stream data
 * set: read the stream, answer its current queries under each profile and read mode with the model's
 * own p, fit one map per profile and mode, and measure it in-sample and under 5-fold cross-validation
 * by entity (the map used on an entity never saw that entity's answers). Used by
 * scripts/fit-belief-calibration.ts, which writes core/beliefs/calibration-fitted.ts, and by its
 * tests. The truth file is read here, offline, and never by the system.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixedClock } from '../core/clock.js';
import { Engine } from '../core/engine/engine.js';
import {
  applyAliasMerges,
  beliefJournalFollowUps,
  beliefsOf,
  BELIEF_PROFILES,
  mergeOf,
  parseObservationsJsonl,
  parseQueriesJsonl,
  planAliases,
  readBelief,
  type BeliefModel,
  type BeliefProfile,
  type BeliefQuery,
  type Observation,
  type ReadMode,
} from '../core/beliefs/index.js';
import { answerBrier, binaryBrier, calibrate, expectedCalibrationError, fitPlatt, reliabilityBins, type CalibrationMap, type CalibrationSample } from '../core/beliefs/calibration.js';
import type { CalibrationFigures, StoredCalibrations } from '../core/beliefs/calibration-types.js';

export interface BeliefStream {
  observations: Observation[];
  queries: BeliefQuery[];
  /** The true value of each current query, by query id. */
  truth: Map<string, string | undefined>;
  /** The latest time in the stream: the clock the stores are opened with. */
  now: number;
}

export function parseBeliefStream(files: { observations: string; queries: string; truth: string }): BeliefStream {
  const observations = parseObservationsJsonl(files.observations);
  const queries = parseQueriesJsonl(files.queries);
  const truth = new Map(
    files.truth
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => {
        const t = JSON.parse(l) as { id: string; value?: string };
        return [t.id, t.value] as const;
      }),
  );
  const now = Math.max(...queries.map((q) => q.at ?? 0), ...observations.map((o) => o.t));
  return { observations, queries, truth, now };
}

export function readBeliefStream(dir: string): BeliefStream {
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  return parseBeliefStream({ observations: read('observations.jsonl'), queries: read('queries.jsonl'), truth: read('truth.jsonl') });
}

export const READ_MODES: readonly ReadMode[] = ['as-of', 'hindsight'];
export const FOLDS = 5;

export interface Sampled extends CalibrationSample {
  entity: string;
}

/** Runs `fn` on a belief model that has ingested the stream under `profile` and applied the stream's alias plan. */
export function withIngestedStream<R>(stream: BeliefStream, profile: BeliefProfile, fn: (model: BeliefModel) => R): R {
  const work = mkdtempSync(join(tmpdir(), 'mnemo-fit-calibration-'));
  const engine = Engine.open(join(work, 'beliefs.sqlite'), { create: true, clock: fixedClock(stream.now), journalFollowUps: beliefJournalFollowUps });
  try {
    const model = beliefsOf(engine);
    model.configure(profile, {});
    model.ingest(stream.observations, stream.now);
    const plan = planAliases(model, stream.now);
    if (plan.proposals.length) applyAliasMerges(model, plan.proposals.map(mergeOf), plan.basis, stream.now);
    return fn(model);
  } finally {
    engine.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Each current query answered with the model's own p, per read mode, after the stream's alias plan is applied. */
export function sampleStream(stream: BeliefStream, profile: BeliefProfile): Record<ReadMode, Sampled[]> {
  return withIngestedStream(stream, profile, (model) => {
    const result = {} as Record<ReadMode, Sampled[]>;
    for (const mode of READ_MODES) {
      result[mode] = stream.queries.flatMap((q) => {
        if (q.kind !== 'current') return [];
        const view = readBelief(model, q.entity, q.attribute, q.at, mode, { calibrated: false });
        return [{ entity: q.entity, p: view.p, correct: view.value !== null && view.value === stream.truth.get(q.id) }];
      });
    }
    return result;
  });
}

export const calibrated = (map: CalibrationMap, samples: readonly CalibrationSample[]): CalibrationSample[] => samples.map((s) => ({ p: calibrate(map, s.p), correct: s.correct }));

/** Every answer calibrated by a map fitted without its entity's answers (entities dealt into folds in name order). */
export function crossValidated(samples: readonly Sampled[], folds = FOLDS): CalibrationSample[] {
  const entities = [...new Set(samples.map((s) => s.entity))].sort();
  const foldOf = new Map(entities.map((e, i) => [e, i % folds]));
  const maps = Array.from({ length: folds }, (_, f) => fitPlatt(samples.filter((s) => foldOf.get(s.entity) !== f)));
  return samples.map((s) => ({ p: calibrate(maps[foldOf.get(s.entity)!]!, s.p), correct: s.correct }));
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

export function figures(s: readonly CalibrationSample[]): CalibrationFigures {
  return {
    accuracy: round(s.filter((x) => x.correct).length / s.length),
    brier: round(answerBrier(s)),
    brier_binary: round(binaryBrier(s)),
    ece: round(expectedCalibrationError(s)),
    bins: reliabilityBins(s).map((b) => ({ lo: round(b.lo), hi: round(b.hi), n: b.n, mean_p: round(b.mean_p), accuracy: round(b.accuracy) })),
  };
}

/** One map per profile and read mode, with the model's, the in-sample and the cross-validated figures. */
export function fitCalibrations(stream: BeliefStream, log: (line: string) => void = () => {}): StoredCalibrations {
  const fitted: StoredCalibrations = {};
  for (const profile of BELIEF_PROFILES) {
    const byMode = sampleStream(stream, profile);
    const entry: StoredCalibrations[string] = {};
    for (const mode of READ_MODES) {
      const samples = byMode[mode];
      const fit = fitPlatt(samples);
      const map = { slope: round(fit.slope), intercept: round(fit.intercept) };
      const raw = figures(samples);
      const inSample = figures(calibrated(map, samples));
      const cv = figures(crossValidated(samples));
      entry[mode] = { map, dev: { answers: samples.length, model: raw, calibrated: inSample, calibrated_cv: cv } };
      log(`${profile} ${mode}: accuracy ${raw.accuracy}; Brier ${raw.brier} → ${inSample.brier} (held out ${cv.brier}); ECE ${raw.ece} → ${inSample.ece} (held out ${cv.ece})`);
    }
    fitted[profile] = entry;
  }
  return fitted;
}

/** Objects indented, arrays of numbers and small records on one line: the file stays readable and short. */
export function compactJson(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    const items = value.map((v) => compactJson(v, indent + '  '));
    return value.every((v) => typeof v !== 'object' || v === null || Array.isArray(v)) || items.join(', ').length < 100
      ? `[${items.join(', ')}]`
      : `[\n${items.map((i) => `${indent}  ${i}`).join(',\n')}\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${compactJson(v, indent + '  ')}`);
    const flat = `{ ${entries.join(', ')} }`;
    return flat.length < 100 ? flat : `{\n${entries.map((e) => `${indent}  ${e}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** The text of core/beliefs/calibration-fitted.ts for these calibrations. */
export function fittedFileText(fitted: StoredCalibrations): string {
  return `/**
 * Generated by scripts/fit-belief-calibration.ts on the belief-stream dev set; do not edit by hand.
 * Per belief profile and read mode: the calibration map (Platt: calibrated p = σ(slope · logit(p) +
 * intercept)), and the dev figures without calibration ("model"), with the stored map on the stream it
 * was fitted on ("calibrated", in-sample) and under 5-fold cross-validation by entity
 * ("calibrated_cv", held out): accuracy, the scorer's Brier term, the proper (binary) Brier score,
 * expected calibration error, and the reliability bins the Beliefs view draws.
 */
import type { StoredCalibrations } from './calibration-types.js';

export const FITTED_CALIBRATIONS: StoredCalibrations = ${compactJson(fitted)};
`;
}
