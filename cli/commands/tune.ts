/**
 * `mnemo tune`: fits a profile's numeric knobs (core/tune) from labelled queries, either LoCoMo's
 * questions with their evidence (`tune locomo`, fit on the tuning five only) or a store's own
 * access log (`tune log`). Writes <out>/profile.json (readable by `mnemo bench locomo
 * --profile-file`) and <out>/fit-report.json; progress goes to stderr.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadLocomo } from '../../bench/locomo/dataset.js';
import { locomoLabels } from '../../bench/locomo/tune-labels.js';
import { Engine } from '../../core/engine/engine.js';
import { badInput } from '../../core/errors.js';
import { profileFor } from '../../core/recall/profile.js';
import type { ProfileName } from '../../core/store/port/port.js';
import { fitProfile, FIT_DEFAULTS, MAX_EVALUATIONS_LIMIT, type FitReport } from '../../core/tune/fit.js';
import type { LabelledSet } from '../../core/tune/labels.js';
import { checkFittedName, selectKnobs } from '../../core/tune/knob-space.js';
import { logLabels, loggedSessions, MIN_LABELLED_SESSIONS } from '../../core/tune/log-labels.js';
import { TUNE_METRICS, type TuneMetric } from '../../core/tune/metrics.js';
import { profileFileJson } from '../../core/tune/profile-file.js';
import { intOpt, numOpt, requirePositional, str, type Command, type CommandContext } from '../command.js';
import { fitSummary } from '../tune-summary.js';
import { defaultProfile } from '../../core/store/queries/saved-profiles.js';

const COMMON = '[--metric recall|mrr|ndcg] [--k 10] [--seed N] [--max-evals N] [--knobs a,b,…] [--name NAME] [--json]';
const USAGE = [
  `mnemo tune locomo --data <locomo10.json> --out <dir> [--profile mnemo|nooa-0.0.9] ${COMMON}`,
  `mnemo tune log <db> --out <dir> [--profile mnemo|nooa-0.0.9] [--held-out-share 0.3] [--min-sessions ${MIN_LABELLED_SESSIONS}] [--max-sessions 200] [--windows 4] ${COMMON}`,
].join('\n       ');
const PROFILES: readonly ProfileName[] = ['mnemo', 'nooa-0.0.9'];

interface FitArgs {
  out: string;
  metric: TuneMetric;
  k: number;
  seed: number;
  maxEvaluations: number;
  name: string | undefined;
  /** Only these knobs (dotted names); default every tunable knob of the profile. */
  knobs: string[] | undefined;
}

function fitArgs(ctx: CommandContext): FitArgs {
  const out = str(ctx, 'out');
  if (!out) throw badInput(`missing --out <directory for profile.json and fit-report.json>\nusage: ${USAGE}`, { field: 'out' });
  const metric = (str(ctx, 'metric') ?? FIT_DEFAULTS.metric) as TuneMetric;
  if (!TUNE_METRICS.includes(metric)) throw badInput(`--metric must be one of ${TUNE_METRICS.join(', ')}, got ${JSON.stringify(metric)}`, { field: 'metric' });
  const name = str(ctx, 'name');
  // Checked before any label is built: a bad name must not cost a LoCoMo ingest first.
  if (name !== undefined) checkFittedName(name);
  return {
    out,
    metric,
    k: intOpt(ctx, 'k', FIT_DEFAULTS.k, [1, 1000]),
    seed: intOpt(ctx, 'seed', FIT_DEFAULTS.seed, [0, 2 ** 32 - 1]),
    maxEvaluations: intOpt(ctx, 'max-evals', FIT_DEFAULTS.maxEvaluations, [1, MAX_EVALUATIONS_LIMIT]),
    name,
    knobs: knobList(str(ctx, 'knobs')),
  };
}

/** `--knobs a,b`: names are checked against the profile's knob space when the fit starts. */
function knobList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = [...new Set(value.split(',').map((n) => n.trim()).filter(Boolean))];
  if (names.length === 0 || names.length > 40) throw badInput(`--knobs takes 1 to 40 comma-separated knob names, got ${JSON.stringify(value)}`, { field: 'knobs' });
  // Checked before any label is built, against the widest knob space (mnemo's; the fit checks the base's own).
  selectKnobs(profileFor('mnemo'), names);
  return names;
}

function baseProfile(ctx: CommandContext, fallback: ProfileName): ProfileName {
  const name = (str(ctx, 'profile') ?? fallback) as ProfileName;
  if (!PROFILES.includes(name)) throw badInput(`--profile must be one of ${PROFILES.join(', ')}, got ${JSON.stringify(name)}`, { field: 'profile' });
  return name;
}

async function fitAndWrite(ctx: CommandContext, args: FitArgs, baseName: ProfileName, train: LabelledSet, heldOut: LabelledSet, source: Record<string, unknown>): Promise<void> {
  const report = await fitProfile({
    base: profileFor(baseName),
    name: args.name ?? `${baseName === 'nooa-0.0.9' ? 'nooa' : baseName}-tuned`,
    train,
    heldOut,
    metric: args.metric,
    k: args.k,
    seed: args.seed,
    maxEvaluations: args.maxEvaluations,
    knobs: args.knobs,
    // The CLI's stores are its own for the fit (LoCoMo's are in memory; tune log ranks a store
    // nobody is expected to write meanwhile), so each query's candidates are gathered once.
    cacheCandidates: true,
    onProgress: (p) => ctx.io.err(`evaluation ${p.evaluation}/${p.of}: ${p.current.toFixed(4)} (best ${p.best.toFixed(4)})`),
  });
  const files = write(args.out, report, source);
  if (ctx.json) ctx.io.out(JSON.stringify({ ...reportJson(report, source), files }));
  else ctx.io.out(`${fitSummary(report)}\n\nwrote ${files.join(', ')}`);
}

function reportJson(report: FitReport, source: Record<string, unknown>) {
  return { source, ...report, profile: profileFileJson(report.profile) };
}

function write(out: string, report: FitReport, source: Record<string, unknown>): string[] {
  mkdirSync(out, { recursive: true });
  const files = [join(out, 'profile.json'), join(out, 'fit-report.json')];
  writeFileSync(files[0]!, `${JSON.stringify(profileFileJson(report.profile), null, 2)}\n`);
  writeFileSync(files[1]!, `${JSON.stringify(reportJson(report, source), null, 2)}\n`);
  return files;
}

async function tuneLocomo(ctx: CommandContext): Promise<void> {
  const data = str(ctx, 'data');
  if (!data) throw badInput(`missing --data <path to locomo10.json>\nusage: ${USAGE}`, { field: 'data' });
  const args = fitArgs(ctx);
  const base = baseProfile(ctx, 'mnemo');
  const labels = locomoLabels(loadLocomo(data));
  try {
    ctx.io.err(`LoCoMo: ${labels.train.length} tuning conversations, ${labels.heldOut.length} held out`);
    await fitAndWrite(ctx, args, base, labels.train, labels.heldOut, { kind: 'locomo', split: 'train on the tuning conversations, held out: the others' });
  } finally {
    labels.close();
  }
}

async function tuneLog(ctx: CommandContext): Promise<void> {
  const db = requirePositional(ctx, 1, 'db', USAGE);
  const args = fitArgs(ctx);
  const heldOutShare = numOpt(ctx, 'held-out-share') ?? 0.3;
  if (!(heldOutShare > 0 && heldOutShare < 1)) throw badInput(`--held-out-share must be within (0, 1), got ${heldOutShare}`, { field: 'held-out-share' });
  const minSessions = intOpt(ctx, 'min-sessions', MIN_LABELLED_SESSIONS, [2, 100_000]);
  const maxSessions = intOpt(ctx, 'max-sessions', 200, [2, 10_000]);
  const reader = Engine.open(db, { readonly: true });
  let sessions;
  let storeProfile: ProfileName;
  try {
    sessions = loggedSessions(reader.store);
    storeProfile = defaultProfile(reader.store);
  } finally {
    reader.close();
  }
  const windows = intOpt(ctx, 'windows', 4, [1, 64]);
  const labels = logLabels(db, sessions, { heldOutShare, minSessions, maxSessions, windows });
  try {
    const count = (set: LabelledSet) => set.reduce((n, s) => n + s.queries.length, 0);
    ctx.io.err(
      `access log: ${labels.sessions} labelled sessions; ${count(labels.train)} train and ${count(labels.heldOut)} held-out queries (the latest sessions), in ${labels.train.length} + ${labels.heldOut.length} time windows`,
    );
    if (labels.onPresentStore > 0) ctx.io.err(`warning: the store's history does not reach back to ${labels.onPresentStore} window(s); they are ranked on the store as it is now, so later accesses raise the recency of what they label`);
    if (labels.droppedQueries > 0) ctx.io.err(`${labels.droppedQueries} labelled recall(s) dropped: their used memories did not exist yet at their window's start`);
    await fitAndWrite(ctx, args, baseProfile(ctx, storeProfile), labels.train, labels.heldOut, {
      kind: 'access-log',
      rule: 'a recalled memory later dereferenced or reinforced in the same session counts as used',
      labelled_sessions: labels.sessions,
      windows_on_present_store: labels.onPresentStore,
      dropped_queries: labels.droppedQueries,
    });
  } finally {
    labels.close();
  }
}

export const tuneCommand: Command = {
  name: 'tune',
  summary: "fit a profile's numeric knobs from labelled queries (LoCoMo's questions, or the store's own access log)",
  usage: USAGE,
  options: {
    data: { type: 'string' },
    out: { type: 'string' },
    profile: { type: 'string' },
    metric: { type: 'string' },
    k: { type: 'string' },
    seed: { type: 'string' },
    'max-evals': { type: 'string' },
    name: { type: 'string' },
    knobs: { type: 'string' },
    'held-out-share': { type: 'string' },
    'min-sessions': { type: 'string' },
    'max-sessions': { type: 'string' },
    windows: { type: 'string' },
  },
  async run(ctx) {
    const which = requirePositional(ctx, 0, 'source', USAGE);
    if (which === 'locomo') await tuneLocomo(ctx);
    else if (which === 'log') await tuneLog(ctx);
    else throw badInput(`unknown label source ${JSON.stringify(which)}; available: locomo, log\nusage: ${USAGE}`);
  },
};
