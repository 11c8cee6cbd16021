/**
 * The belief layer on a belief-stream data set, scored by the shared scorer beside the
 * last-write-wins baselines, with the ablation (Bayesian / last-write-wins / no decay / no
 * aggregation) and the ingest speed for N observations.
 *
 *   npm run bench -- beliefs --data <belief-stream dir> [--scorer <score-beliefs.mjs>] [--speed-n 100000] [--runs 3] [--no-speed] [--json]
 *
 * The data set and its scorer are not part of the repository; both are given by path (the scorer
 * defaults to tools/score-beliefs.mjs three levels above the data directory, their usual layout).
 *
 * Every constant comes from the profiles in core/beliefs/config.ts; nothing here is tuned to the data.
 * Reading the truth file is the scorer's business (and the oracle baseline's); the system never sees it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { main as cli } from '../cli/main.js';
import { fixedClock } from '../core/clock.js';
import { Engine } from '../core/engine/engine.js';
import {
  answerQueries,
  applyAliasMerges,
  beliefJournalFollowUps,
  beliefsOf,
  mergeOf,
  parseObservationsJsonl,
  parseQueriesJsonl,
  planAliases,
  type BeliefConfigOverrides,
  type BeliefProfile,
  type BeliefQuery,
  type Observation,
  type ReadMode,
} from '../core/beliefs/index.js';
import { tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import Database from 'better-sqlite3';
import { expectedCalibrationError } from '../core/beliefs/calibration.js';
import { lowestTenth } from '../support/belief-signals-fit.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    scorer: { type: 'string' },
    'speed-n': { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
    'no-speed': { type: 'boolean' },
    json: { type: 'boolean' },
  },
});
if (!args.data) {
  console.error('usage: npm run bench -- beliefs --data <belief-stream dir with observations.jsonl, queries.jsonl, truth.jsonl> [--scorer <score-beliefs.mjs>]');
  process.exit(2);
}
const dataDir = resolve(args.data);
const scorer = resolve(args.scorer ?? join(dataDir, '..', '..', '..', 'tools', 'score-beliefs.mjs'));
const work = mkdtempSync(join(tmpdir(), 'mnemo-bench-beliefs-'));
const observationsText = readFileSync(join(dataDir, 'observations.jsonl'), 'utf8');
const observations = parseObservationsJsonl(observationsText);
const queries = parseQueriesJsonl(readFileSync(join(dataDir, 'queries.jsonl'), 'utf8'));
const now = Math.max(...queries.map((q) => q.at ?? 0), ...observations.map((o) => o.t));
const log = (s: string) => {
  if (!args.json) console.log(s);
};

interface Score {
  /** Expected calibration error of the current answers' p (10 bins), computed here from the truth file. */
  current_ece?: number;
  /** Accuracy once the lowest tenth of the current answers by p is corrected by a curator (from the truth file). */
  current_accuracy_lowest_tenth_corrected?: number;
  current_accuracy: number;
  current_accuracy_lww: number;
  current_accuracy_lww_alias: number;
  current_brier: number | null;
  values_f1: number;
  values_f1_union: number;
  aliases_f1: number | null;
}

/** The truth of each current query, read only to measure calibration (the scorer has no ECE). */
let truthValues: Map<string, string | undefined> | null = null;
function currentSamples(answers: readonly object[]): { p: number; correct: boolean }[] {
  truthValues ??= new Map(
    readFileSync(join(dataDir, 'truth.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => {
        const t = JSON.parse(l) as { id: string; value?: string };
        return [t.id, t.value];
      }),
  );
  return (answers as { id: string; value?: string | null; p?: number }[]).flatMap((a) =>
    typeof a.p === 'number' && truthValues!.has(a.id) ? [{ p: a.p, correct: a.value !== null && a.value === truthValues!.get(a.id) }] : [],
  );
}

function score(answers: readonly object[], name: string): Score {
  const path = join(work, `${name}.jsonl`);
  writeFileSync(path, answers.map((a) => JSON.stringify(a)).join('\n') + '\n');
  const r = spawnSync(process.execPath, [scorer, dataDir, path, '--json'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`scorer failed: ${r.stderr}`);
  const samples = currentSamples(answers);
  return {
    ...(JSON.parse(r.stdout.trim().split('\n').pop()!) as Score),
    current_ece: Math.round(expectedCalibrationError(samples) * 1e4) / 1e4,
    current_accuracy_lowest_tenth_corrected: Math.round(lowestTenth(samples).correctedAccuracy * 1e4) / 1e4,
  };
}

// ------------------------------------------------------------------ the system and its ablations

interface Variant {
  name: string;
  profile: BeliefProfile;
  overrides: BeliefConfigOverrides;
  aliases: boolean;
}

function runVariant(v: Variant): { asOf: Score; hindsight: Score; modelAsOf: Score; modelHindsight: Score; plattHindsight: Score; merges: number; ingestMs: number } {
  const engine = Engine.open(join(work, `${v.name.replace(/\W+/g, '-')}.sqlite`), { create: true, clock: fixedClock(now), journalFollowUps: beliefJournalFollowUps });
  try {
    const model = beliefsOf(engine);
    model.configure(v.profile, v.overrides);
    const t0 = performance.now();
    model.ingest(observations, now);
    const ingestMs = performance.now() - t0;
    let merges = 0;
    if (v.aliases) {
      const plan = planAliases(model, now);
      if (plan.proposals.length) merges = applyAliasMerges(model, plan.proposals.map(mergeOf), plan.basis, now).merged.length;
    }
    const run = (mode: ReadMode, calibrated = true, signals = true) =>
      score(answerQueries(model, queries, mode, { calibrated, signals }), `${v.name}-${mode}-${calibrated}-${signals}`.replace(/\W+/g, '-'));
    return { asOf: run('as-of'), hindsight: run('hindsight'), modelAsOf: run('as-of', false), modelHindsight: run('hindsight', false), plattHindsight: run('hindsight', true, false), merges, ingestMs };
  } finally {
    engine.close();
  }
}

// ------------------------------------------------------------------ baselines (p = 1 on every answer)

function byName(list: readonly Observation[]): Map<string, Observation[]> {
  const m = new Map<string, Observation[]>();
  for (const o of list) {
    const k = `${o.entity}\u0001${o.attribute}`;
    let l = m.get(k);
    if (!l) m.set(k, (l = []));
    l.push(o);
  }
  return m;
}

function baselineAnswers(pick: (list: Observation[], q: BeliefQuery & { at: number }) => Observation | null): object[] {
  const idx = byName(observations);
  return queries.map((q) => {
    if (q.kind === 'aliases') return { id: q.id, aliases: [] };
    const list = idx.get(`${q.entity}\u0001${q.attribute}`) ?? [];
    if (q.kind === 'values') return { id: q.id, values: [...new Set(list.filter((o) => o.t <= q.at).map((o) => o.value))] };
    const o = pick(list, q);
    return { id: q.id, value: o?.value ?? null, p: 1 };
  });
}

const lastWriteWins = baselineAnswers((list, q) => {
  let best: Observation | null = null;
  for (const o of list) if (o.t <= q.at && (!best || o.t >= best.t)) best = o;
  return best;
});
/** The hindsight counterpart of last-write-wins: the observation nearest in time to T, before or after. */
const nearestInTime = baselineAnswers((list, q) => {
  let best: Observation | null = null;
  for (const o of list) if (!best || Math.abs(o.t - q.at) < Math.abs(best.t - q.at)) best = o;
  return best;
});

// ------------------------------------------------------------------ speed

function synthetic(n: number): Observation[] {
  const out: Observation[] = [];
  for (let copy = 0; out.length < n; copy++) {
    for (const o of observations) {
      if (out.length >= n) break;
      out.push({ ...o, entity: `${o.entity} #${copy}`, evidence: o.evidence.replace(/^/, `#${copy} `), line: out.length + 1 });
    }
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function speed(n: number, runs: number): Promise<{ n: number; cli_ms: number[]; ingest_ms: number[]; baseline_ms: number[] }> {
  const list = synthetic(n);
  const file = join(work, `synthetic-${n}.jsonl`);
  writeFileSync(file, list.map((o) => JSON.stringify({ entity: o.entity, attribute: o.attribute, value: o.value, t: o.t, reliability: o.reliability, evidence: o.evidence, id: o.id })).join('\n') + '\n');
  const cliMs: number[] = [];
  const ingestMs: number[] = [];
  const baselineMs: number[] = [];
  const silent = { out: () => {}, err: () => {} };
  for (let r = 0; r < runs; r++) {
    // the user's path: mnemo beliefs ingest <db> <file> (read, validate, write, index)
    const db = join(work, `speed-cli-${r}.sqlite`);
    let t0 = performance.now();
    const code = await cli(['beliefs', 'ingest', db, file, '--now', String(now)], silent);
    cliMs.push(performance.now() - t0);
    if (code !== 0) throw new Error(`mnemo beliefs ingest exited ${code}`);
    // the engine alone, on parsed observations
    const engine = Engine.open(join(work, `speed-core-${r}.sqlite`), { create: true, clock: fixedClock(now), journalFollowUps: beliefJournalFollowUps });
    const model = beliefsOf(engine);
    engine.store.transaction(() => model.tables.prepareWrite());
    t0 = performance.now();
    model.ingest(list, now);
    ingestMs.push(performance.now() - t0);
    engine.close();
    // baseline: the same rows inserted into a bare table in one transaction (no belief math, no index)
    const bare = new Database(join(work, `speed-bare-${r}.sqlite`));
    bare.pragma('journal_mode = WAL');
    bare.exec('CREATE TABLE obs (entity TEXT, attribute TEXT, value TEXT, t REAL, reliability REAL, evidence TEXT)');
    const ins = bare.prepare('INSERT INTO obs VALUES (?, ?, ?, ?, ?, ?)');
    t0 = performance.now();
    bare.transaction(() => {
      for (const o of list) ins.run(o.entity, o.attribute, o.value, o.t, o.reliability, o.evidence);
    })();
    baselineMs.push(performance.now() - t0);
    bare.close();
  }
  return { n, cli_ms: cliMs, ingest_ms: ingestMs, baseline_ms: baselineMs };
}

// ------------------------------------------------------------------ run and print

const fmt = (x: number | null | undefined) => (x === null || x === undefined ? '   -  ' : x.toFixed(4));
const variants: Variant[] = [
  { name: 'Bayesian (paper profile)', profile: 'paper', overrides: {}, aliases: true },
  { name: 'last-write-wins (flat update)', profile: 'paper', overrides: { update: 'flat' }, aliases: true },
  { name: 'no decay', profile: 'paper', overrides: { halfLifeDays: null }, aliases: true },
  { name: 'no aggregation', profile: 'paper', overrides: { aggregation: false }, aliases: true },
  { name: 'no alias merge', profile: 'paper', overrides: {}, aliases: false },
  { name: 'nous-code profile', profile: 'nous-code', overrides: {}, aliases: true },
];

const results = variants.map((v) => ({ variant: v, ...runVariant(v) }));
const lww = score(lastWriteWins, 'baseline-lww');
const nearest = score(nearestInTime, 'baseline-nearest');
const system = results[0]!;

log(`belief-stream: ${dataDir}`);
log(`${observations.length} observations, ${queries.length} queries; ${system.merges} alias merges applied from the plan`);
log('');
log('Scores (shared scorer). "as-of" answers from the delta log at T (time travel: only what was known at T);');
log('"hindsight" estimates the value at T from the whole log (forward-backward over Eqs. 2-4).');
log('');
log('system / baseline                               current acc   Brier    ECE      values F1  aliases F1  acc. after correcting lowest tenth');
log(`Bayesian, as-of (time travel)                   ${fmt(system.asOf.current_accuracy)}      ${fmt(system.asOf.current_brier)}   ${fmt(system.asOf.current_ece)}   ${fmt(system.asOf.values_f1)}     ${fmt(system.asOf.aliases_f1)}`);
log(`  the model's own p (no calibration)            ${fmt(system.modelAsOf.current_accuracy)}      ${fmt(system.modelAsOf.current_brier)}   ${fmt(system.modelAsOf.current_ece)}`);
log(`Bayesian, hindsight                             ${fmt(system.hindsight.current_accuracy)}      ${fmt(system.hindsight.current_brier)}   ${fmt(system.hindsight.current_ece)}   ${fmt(system.hindsight.values_f1)}     ${fmt(system.hindsight.aliases_f1)}     ${fmt(system.hindsight.current_accuracy_lowest_tenth_corrected)}`);
log(`  calibration map only (no signals)             ${fmt(system.plattHindsight.current_accuracy)}      ${fmt(system.plattHindsight.current_brier)}   ${fmt(system.plattHindsight.current_ece)}                          ${fmt(system.plattHindsight.current_accuracy_lowest_tenth_corrected)}`);
log(`  the model's own p (no calibration)            ${fmt(system.modelHindsight.current_accuracy)}      ${fmt(system.modelHindsight.current_brier)}   ${fmt(system.modelHindsight.current_ece)}                          ${fmt(system.modelHindsight.current_accuracy_lowest_tenth_corrected)}`);
log('The headline p is the signals model fitted on the dev stream (core/beliefs/signals-fitted.ts; calibration map: calibration-fitted.ts):');
log('on dev itself these figures are in-sample; the cross-validated dev figures are in those files and in the Beliefs view.');
log('Other streams use the same fits unchanged.');
log(`last-write-wins (scorer baseline, p = 1)        ${fmt(lww.current_accuracy_lww)}      ${fmt(lww.current_brier)}   ${fmt(lww.current_ece)}   ${fmt(lww.values_f1_union)}     ${fmt(0)}`);
log(`last-write-wins, oracle aliases (scorer)        ${fmt(lww.current_accuracy_lww_alias)}      ${fmt(1 - lww.current_accuracy_lww_alias)}   ${fmt(1 - lww.current_accuracy_lww_alias)}      -          -`);
log(`nearest observation in time (hindsight LWW)     ${fmt(nearest.current_accuracy)}      ${fmt(nearest.current_brier)}   ${fmt(nearest.current_ece)}      -          -`);
log('targets: current >= 0.80, values F1 >= 0.92, aliases F1 >= 0.80, Brier below last-write-wins');
log('');
log('Ablation (each row ingests the same stream under the paper profile with one change)');
log('variant                          acc as-of  acc hindsight  Brier as-of  Brier hindsight  values F1  aliases F1  merges');
for (const r of results) {
  log(
    `${r.variant.name.padEnd(32)} ${fmt(r.asOf.current_accuracy)}     ${fmt(r.hindsight.current_accuracy)}         ${fmt(r.asOf.current_brier)}       ${fmt(r.hindsight.current_brier)}           ${fmt(r.asOf.values_f1)}     ${fmt(r.asOf.aliases_f1)}      ${r.merges}`,
  );
}

let speedResult: Awaited<ReturnType<typeof speed>> | null = null;
if (!args['no-speed']) {
  const n = Number(args['speed-n']);
  const runs = Number(args.runs);
  speedResult = await speed(n, runs);
  log('');
  log(`Ingest speed, ${n} observations (${runs} runs, median; the dev stream replicated under renamed entities):`);
  log(`  mnemo beliefs ingest <db> <file>    ${(median(speedResult.cli_ms) / 1000).toFixed(2)} s   (target <= 10 s)`);
  log(`  engine ingest (parsed input)        ${(median(speedResult.ingest_ms) / 1000).toFixed(2)} s`);
  log(`  baseline: bare INSERT of the rows   ${(median(speedResult.baseline_ms) / 1000).toFixed(2)} s   ratio engine/baseline ${(median(speedResult.ingest_ms) / median(speedResult.baseline_ms)).toFixed(1)}x`);
}

if (args.json) {
  console.log(
    JSON.stringify({
      data: dataDir,
      system: {
        as_of: system.asOf,
        hindsight: system.hindsight,
        calibration_only: { hindsight: system.plattHindsight },
        model_p: { as_of: system.modelAsOf, hindsight: system.modelHindsight },
        merges: system.merges,
      },
      baselines: {
        lww_accuracy: lww.current_accuracy_lww,
        lww_alias_accuracy: lww.current_accuracy_lww_alias,
        lww_brier: lww.current_brier,
        union_values_f1: lww.values_f1_union,
        nearest_accuracy: nearest.current_accuracy,
        nearest_brier: nearest.current_brier,
      },
      ablation: results.map((r) => ({ variant: r.variant.name, overrides: r.variant.overrides, profile: r.variant.profile, as_of: r.asOf, hindsight: r.hindsight, merges: r.merges })),
      speed: speedResult && {
        n: speedResult.n,
        cli_median_ms: median(speedResult.cli_ms),
        ingest_median_ms: median(speedResult.ingest_ms),
        baseline_median_ms: median(speedResult.baseline_ms),
        runs: speedResult.cli_ms.length,
      },
    }),
  );
}
