/** The readable summary `mnemo tune` prints: metrics beside the starting profile, the ablation, the objective's path. */
import type { FitReport, SplitComparison } from '../core/tune/fit.js';
import { table } from './format.js';

const pct = (x: number) => (100 * x).toFixed(1);
const delta = (a: number, b: number) => `${b >= a ? '+' : ''}${(100 * (b - a)).toFixed(1)}`;

function comparison(title: string, s: SplitComparison, k: number, baseName: string, fittedName: string): string[] {
  const rows = [
    { metric: `R@${k}`, a: s.base.recall, b: s.fitted.recall },
    { metric: 'MRR', a: s.base.mrr, b: s.fitted.mrr },
    { metric: `nDCG@${k}`, a: s.base.ndcg, b: s.fitted.ndcg },
  ].map((r) => ({ metric: r.metric, [baseName]: pct(r.a), [fittedName]: pct(r.b), change: delta(r.a, r.b) }));
  return [`${title} (${s.queries} queries, %)`, table(rows, ['metric', baseName, fittedName, 'change'])];
}

/** At most `points` entries of the objective's path: the first, the last and evenly spaced ones between. */
export function objectivePath(objective: readonly number[], points = 12): string {
  if (objective.length === 0) return '(no evaluation)';
  const idx = new Set<number>();
  for (let i = 0; i < points; i++) idx.add(Math.round((i * (objective.length - 1)) / Math.max(1, points - 1)));
  return [...idx].map((i) => `${i + 1}: ${pct(objective[i]!)}`).join('  ');
}

export function fitSummary(r: FitReport): string {
  const fittedName = r.name === r.base_profile ? `${r.name} (fitted)` : r.name;
  const lines = [
    `fitted ${r.name} from ${r.base_profile}: ${r.metric}${r.metric === 'mrr' ? '' : `@${r.k}`}, seed ${r.seed}, ${r.evaluations} of at most ${r.max_evaluations} evaluations (${r.stopped}), ${r.seconds.toFixed(1)} s`,
    '',
    ...(r.held_out ? comparison('held out', r.held_out, r.k, r.base_profile, fittedName) : ['held out: no held-out queries']),
    '',
    ...comparison('train', r.train, r.k, r.base_profile, fittedName),
    '',
  ];
  const moved = r.knobs.filter((k) => k.base !== k.fitted);
  lines.push(moved.length === 0 ? 'no knob moved' : 'knobs moved');
  if (moved.length > 0) lines.push(table(moved.map((k) => ({ knob: k.name, from: fmt(k.base), to: fmt(k.fitted) })), ['knob', 'from', 'to']));
  if (r.ablation.length > 0) {
    const where = r.held_out ? 'held out' : 'train';
    const full = r.held_out?.fitted ?? r.train.fitted;
    lines.push(
      '',
      `ablation: each knob set back to its starting value alone (${where}, %)`,
      table(
        [
          { knob: '(fitted, every knob)', [`R@${r.k}`]: pct(full.recall), MRR: pct(full.mrr), [`nDCG@${r.k}`]: pct(full.ndcg) },
          ...r.ablation.map((a) => ({ knob: `${a.knob} = ${fmt(a.base)}`, [`R@${r.k}`]: pct(a.held_out.recall), MRR: pct(a.held_out.mrr), [`nDCG@${r.k}`]: pct(a.held_out.ndcg) })),
        ],
        ['knob', `R@${r.k}`, 'MRR', `nDCG@${r.k}`],
      ),
    );
  }
  lines.push('', `objective (train ${r.metric}, best so far, %) by evaluation: ${objectivePath(r.objective)}`);
  return lines.join('\n');
}

function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 10000) / 10000);
}
