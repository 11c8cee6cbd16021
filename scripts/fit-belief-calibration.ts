/**
 * Fits the belief calibration maps (core/beliefs/calibration.ts) on a belief-stream dev set and
 * writes them, with the dev figures, to core/beliefs/calibration-fitted.ts:
 *
 *   node --import tsx scripts/fit-belief-calibration.ts --data <belief-stream dev dir>
 *
 * One map per belief profile and read mode (as-of and hindsight are different estimators). The
 * figures written beside each map are honest ones: 5-fold cross-validation by entity (the map used on
 * an entity never saw that entity's answers). The truth file is read here, offline, and never by
 * the system.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fixedClock } from '../core/clock.js';
import { Engine } from '../core/engine/engine.js';
import {
  applyAliasMerges,
  beliefJournalFollowUps,
  beliefsOf,
  mergeOf,
  parseObservationsJsonl,
  parseQueriesJsonl,
  planAliases,
  readBelief,
  type BeliefProfile,
  type ReadMode,
} from '../core/beliefs/index.js';
import { answerBrier, calibrate, expectedCalibrationError, fitIsotonic, reliabilityBins, type CalibrationSample } from '../core/beliefs/calibration.js';
import { BELIEF_PROFILES } from '../core/beliefs/config.js';

const { values: args } = parseArgs({ options: { data: { type: 'string' }, out: { type: 'string' } } });
if (!args.data) {
  console.error('usage: node --import tsx scripts/fit-belief-calibration.ts --data <belief-stream dev dir> [--out core/beliefs/calibration-fitted.ts]');
  process.exit(2);
}
const dir = resolve(args.data);
const out = resolve(args.out ?? 'core/beliefs/calibration-fitted.ts');
const observations = parseObservationsJsonl(readFileSync(join(dir, 'observations.jsonl'), 'utf8'));
const queries = parseQueriesJsonl(readFileSync(join(dir, 'queries.jsonl'), 'utf8'));
const truth = new Map<string, { value?: string }>(
  readFileSync(join(dir, 'truth.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const t = JSON.parse(l) as { id: string; value?: string };
      return [t.id, t];
    }),
);
const now = Math.max(...queries.map((q) => q.at ?? 0), ...observations.map((o) => o.t));
const MODES: ReadMode[] = ['as-of', 'hindsight'];
const FOLDS = 5;

interface Sampled extends CalibrationSample {
  entity: string;
}

function samplesOf(profile: BeliefProfile): Record<ReadMode, Sampled[]> {
  const work = mkdtempSync(join(tmpdir(), 'mnemo-fit-calibration-'));
  const engine = Engine.open(join(work, 'beliefs.sqlite'), { create: true, clock: fixedClock(now), journalFollowUps: beliefJournalFollowUps });
  try {
    const model = beliefsOf(engine);
    model.configure(profile, {});
    model.ingest(observations, now);
    const plan = planAliases(model, now);
    if (plan.proposals.length) applyAliasMerges(model, plan.proposals.map(mergeOf), plan.basis, now);
    const result = {} as Record<ReadMode, Sampled[]>;
    for (const mode of MODES) {
      result[mode] = queries.flatMap((q) => {
        if (q.kind !== 'current') return [];
        const view = readBelief(model, q.entity, q.attribute, q.at, mode, { calibrated: false });
        return [{ entity: q.entity, p: view.p, correct: view.value !== null && view.value === truth.get(q.id)?.value }];
      });
    }
    return result;
  } finally {
    engine.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Every answer calibrated by a map fitted without its entity's answers (entities dealt into folds in name order). */
function crossValidated(samples: readonly Sampled[]): CalibrationSample[] {
  const entities = [...new Set(samples.map((s) => s.entity))].sort();
  const foldOf = new Map(entities.map((e, i) => [e, i % FOLDS]));
  const maps = Array.from({ length: FOLDS }, (_, f) => fitIsotonic(samples.filter((s) => foldOf.get(s.entity) !== f)));
  return samples.map((s) => ({ p: calibrate(maps[foldOf.get(s.entity)!]!, s.p), correct: s.correct }));
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;
const figures = (s: readonly CalibrationSample[]) => ({
  accuracy: round(s.filter((x) => x.correct).length / s.length),
  brier: round(answerBrier(s)),
  ece: round(expectedCalibrationError(s)),
  bins: reliabilityBins(s).map((b) => ({ lo: round(b.lo), hi: round(b.hi), n: b.n, mean_p: round(b.mean_p), accuracy: round(b.accuracy) })),
});

/** Objects indented, arrays of numbers and small records on one line: the file stays readable and short. */
function compactJson(value: unknown, indent = ''): string {
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

const fitted: Record<string, unknown> = {};
for (const profile of BELIEF_PROFILES) {
  const byMode = samplesOf(profile);
  const entry: Record<string, unknown> = {};
  for (const mode of MODES) {
    const samples = byMode[mode];
    const knots = fitIsotonic(samples).map(([x, y]) => [round(x), round(y)]);
    const raw = figures(samples);
    const cv = figures(crossValidated(samples));
    entry[mode] = { knots, dev: { answers: samples.length, model: raw, calibrated_cv: cv } };
    console.error(`${profile} ${mode}: accuracy ${raw.accuracy}; Brier ${raw.brier} → ${cv.brier}; ECE ${raw.ece} → ${cv.ece} (5-fold by entity)`);
  }
  fitted[profile] = entry;
}

writeFileSync(
  out,
  `/**
 * Generated by scripts/fit-belief-calibration.ts on the belief-stream dev set; do not edit by hand.
 * Per belief profile and read mode: the isotonic calibration map (knots: model p → calibrated p),
 * and the dev figures without calibration ("model") and with it under 5-fold cross-validation by
 * entity ("calibrated_cv"): accuracy, the scorer's Brier term, expected calibration error, and the
 * reliability bins the Beliefs view draws.
 */
import type { FittedCalibrations } from './calibration-types.js';

export const FITTED_CALIBRATIONS: FittedCalibrations = ${compactJson(fitted)};
`,
);
console.error(`wrote ${out}`);
