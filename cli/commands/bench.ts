/**
 * `mnemo bench locomo`: retrieval quality on the LoCoMo benchmark, without any model. The data
 * file is read from the path given (it is CC BY-NC and never shipped with the project).
 */
import { badInput } from '../../core/errors.js';
import { ablationVariants } from '../../bench/locomo/ablation.js';
import { runLocomoBench } from '../../bench/locomo/bench.js';
import { profileRecall } from '../../bench/locomo/engine-recall.js';
import { readFileSync } from 'node:fs';
import { profileConfig, profileFor, type RecallProfile } from '../../core/recall/profile.js';
import { parseProfileFile, PROFILE_FILE_MAX_BYTES } from '../../core/tune/profile-file.js';
import { flag, requirePositional, str, type Command, type CommandContext } from '../command.js';
import { table } from '../format.js';
import type { ProfileName } from '../../core/store/port/port.js';

const USAGE =
  'mnemo bench locomo --data <locomo10.json> --out <dir> [--profile mnemo|nooa-0.0.9 | --profile-file <profile.json>] [--k 1,5,10,20,50] [--ablation] [--extract-entities] [--json]';
const PROFILES: readonly ProfileName[] = ['mnemo', 'nooa-0.0.9'];

export function parseKs(raw: string | undefined): number[] {
  if (raw === undefined) return [1, 5, 10, 20, 50];
  const ks = raw.split(',').map((p) => p.trim());
  const out: number[] = [];
  for (const p of ks) {
    const k = Number(p);
    if (p === '' || !Number.isInteger(k) || k < 1 || k > 1000) throw badInput(`--k takes a comma-separated list of integers within [1, 1000], got ${JSON.stringify(raw)}`, { field: 'k' });
    if (!out.includes(k)) out.push(k);
  }
  if (!out.includes(10)) out.push(10); // recall_all@10 and session recall@10 are always reported
  return out.sort((a, b) => a - b);
}

function pct(x: number | undefined): string {
  return x === undefined ? '' : (100 * x).toFixed(1);
}

/** The built-in profile named by --profile, or the fitted one in --profile-file (validated; errors name the file and field). */
function benchProfile(ctx: CommandContext): RecallProfile {
  const file = str(ctx, 'profile-file');
  if (file !== undefined) {
    if (str(ctx, 'profile') !== undefined) throw badInput('give --profile or --profile-file, not both', { field: 'profile-file' });
    let text: string;
    try {
      const buf = readFileSync(file);
      if (buf.length > PROFILE_FILE_MAX_BYTES) throw badInput(`${file}: a profile file is at most ${PROFILE_FILE_MAX_BYTES} bytes`, { file });
      text = buf.toString('utf8');
    } catch (err) {
      if ((err as { code?: string }).code === 'ENOENT') throw badInput(`${file}: no such file`, { field: 'profile-file' });
      throw err;
    }
    return parseProfileFile(text, file);
  }
  const name = (str(ctx, 'profile') ?? 'mnemo') as ProfileName;
  if (!PROFILES.includes(name)) throw badInput(`--profile must be one of ${PROFILES.join(', ')}, got ${JSON.stringify(name)}`, { field: 'profile' });
  return profileFor(name);
}

async function runLocomo(ctx: CommandContext): Promise<void> {
  const data = str(ctx, 'data');
  const out = str(ctx, 'out');
  if (!data) throw badInput(`missing --data <path to locomo10.json>\nusage: ${USAGE}`, { field: 'data' });
  if (!out) throw badInput(`missing --out <directory for retrieved.jsonl and summary.json>\nusage: ${USAGE}`, { field: 'out' });
  const profile = benchProfile(ctx);
  const profileName = profile.name;
  const ks = parseKs(str(ctx, 'k'));
  const { summary, files } = await runLocomoBench({
    data,
    out,
    // The ingested store's own profile; a fitted profile is always a variant of mnemo's features.
    storeProfile: PROFILES.includes(profileName as ProfileName) ? (profileName as ProfileName) : 'mnemo',
    profile: profileName,
    ks,
    recall: profileRecall(profile),
    config: profileConfig(profile),
    ingest: { extractEntities: flag(ctx, 'extract-entities') },
    ablation: flag(ctx, 'ablation') ? ablationVariants(profile).map((v) => ({ name: v.name, change: v.change, recall: profileRecall(v.profile), ...(v.ingest ? { ingest: v.ingest } : {}) })) : [],
    onProgress: (m) => {
      if (!ctx.json) ctx.io.err(m);
    },
  });
  if (ctx.json) {
    const { dataset, ...rest } = summary;
    ctx.io.out(JSON.stringify({ ...rest, dataset: { ...dataset, dropped: undefined }, files }));
    return;
  }
  const rows = (['all', 'tuning', 'held_out'] as const).flatMap((split) => [
    { split, retriever: profileName, ...recallCells(summary.results[split].overall) },
    { split, retriever: 'bm25', ...recallCells(summary.bm25[split].overall) },
  ]);
  const lines = [
    `LoCoMo retrieval, categories 1-4 (${summary.dataset.questions} questions, ${summary.dataset.unscored_questions} without evidence, ${summary.dataset.evidence_dropped} evidence ids dropped)`,
    table(rows, ['split', 'retriever', ...ks.map((k) => `R@${k}`), 'all@10', 'sess@10']),
  ];
  if (summary.ablation) {
    lines.push(
      '',
      'ablation (R@10, %)',
      table(
        summary.ablation.map((a) => ({ variant: a.variant, all: pct(a.all.recall['R@10']), tuning: pct(a.tuning.recall['R@10']), held_out: pct(a.held_out.recall['R@10']) })),
        ['variant', 'all', 'tuning', 'held_out'],
      ),
    );
  }
  lines.push('', `${summary.timing.total_s} s (ingest ${summary.timing.ingest_s} s, recall ${summary.timing.recall_s} s, bm25 ${summary.timing.bm25_s} s); wrote ${files.join(', ')}`);
  ctx.io.out(lines.join('\n'));

  function recallCells(f: { recall: Record<string, number>; recall_all_at_10: number; session_recall_at_10: number }): Record<string, string> {
    const cells: Record<string, string> = {};
    for (const k of ks) cells[`R@${k}`] = pct(f.recall[`R@${k}`]);
    cells['all@10'] = pct(f.recall_all_at_10);
    cells['sess@10'] = pct(f.session_recall_at_10);
    return cells;
  }
}

export const benchCommand: Command = {
  name: 'bench',
  summary: 'quality benchmarks: `bench locomo` measures retrieval recall on LoCoMo (no model needed)',
  usage: USAGE,
  options: {
    data: { type: 'string' },
    out: { type: 'string' },
    profile: { type: 'string' },
    'profile-file': { type: 'string' },
    k: { type: 'string' },
    ablation: { type: 'boolean' },
    'extract-entities': { type: 'boolean' },
  },
  async run(ctx) {
    const which = requirePositional(ctx, 0, 'benchmark', USAGE);
    if (which !== 'locomo') throw badInput(`unknown benchmark ${JSON.stringify(which)}; available: locomo\nusage: ${USAGE}`);
    await runLocomo(ctx);
  },
};
