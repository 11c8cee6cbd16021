/**
 * Renders the LoCoMo figures of docs/benchmarks/locomo.md from a run's summary.json (a run with
 * --ablation, so the nooa-0.0.9 reference row is there): echarts draws each chart as SVG on the
 * server (no DOM), and Chromium (through playwright-core) rasterises it to PNG. Prints the
 * markdown tables of the same run, so the page and the pictures come from one summary.
 *
 *   npx tsx scripts/locomo-plots.ts <run>/summary.json docs/img [--chromium <path>]
 * (without --chromium it uses the same browser as the e2e tests: a system Chromium, else the packaged one)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as echarts from 'echarts';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../support/browser.js';
import { resolveChromium } from '../support/chromium.js';

interface Figures {
  n: number;
  recall: Record<string, number>;
  recall_all_at_10: number;
  session_recall_at_10: number;
}
interface Summary {
  profile: string;
  ks: number[];
  results: Record<'all' | 'tuning' | 'held_out', { overall: Figures; by_category: Record<string, Figures> }>;
  bm25: Summary['results'];
  ablation?: { variant: string; change: string; all: Figures; tuning: Figures; held_out: Figures }[];
  dataset: { questions: number; unscored_questions: number; evidence_dropped: number };
  timing: Record<string, number>;
}

/** The LoCoMo paper's DRAGON dense retriever over dialog turns (Table 3; all five categories). */
const DRAGON: [number, number][] = [
  [5, 56.7],
  [10, 66.2],
  [25, 76.7],
  [50, 82.7],
];
const CATEGORIES = ['multi-hop', 'temporal', 'open-domain', 'single-hop'];
const SPLITS = ['all', 'tuning', 'held_out'] as const;
const pct = (x: number | undefined) => (x === undefined ? NaN : Math.round(1000 * x) / 10);
const FONT = { fontFamily: 'DejaVu Sans, Arial, sans-serif' };

function svg(option: echarts.EChartsCoreOption, width = 760, height = 420): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  chart.setOption({ animation: false, backgroundColor: '#ffffff', textStyle: FONT, ...option });
  const out = chart.renderToSVGString();
  chart.dispose();
  return out;
}

function recallCurve(s: Summary): string {
  const nooa = s.ablation?.find((a) => a.variant === 'nooa-0.0.9');
  const line = (name: string, f: Figures | undefined) => ({
    name,
    type: 'line',
    symbolSize: 7,
    data: f ? s.ks.map((k) => [k, pct(f.recall[`R@${k}`])]) : [],
  });
  return svg({
    title: { text: 'LoCoMo turn-level evidence recall@k (categories 1-4, all ten conversations)', left: 'center', textStyle: { fontSize: 14 } },
    legend: { top: 32, itemGap: 36 },
    grid: { left: 60, right: 30, top: 90, bottom: 50 },
    xAxis: { type: 'log', logBase: 10, name: 'k', nameLocation: 'middle', nameGap: 28, min: 1, max: 60 },
    yAxis: { type: 'value', name: 'R@k (%)', min: 0, max: 100 },
    series: [
      line(`${s.profile} profile`, s.results.all.overall),
      line('BM25 baseline (same run)', s.bm25.all.overall),
      ...(nooa ? [line('nooa-0.0.9 profile', nooa.all)] : []),
      { name: 'DRAGON, LoCoMo paper (all 5 categories)', type: 'line', lineStyle: { type: 'dashed' }, symbol: 'diamond', symbolSize: 8, data: DRAGON },
    ],
  });
}

function categoryBars(s: Summary): string {
  const bars = (name: string, r: Summary['results']) => ({
    name,
    type: 'bar',
    label: { show: true, position: 'top', fontSize: 10 },
    data: [...CATEGORIES.map((c) => pct(r.all.by_category[c]?.recall['R@10'])), pct(r.all.overall.recall['R@10'])],
  });
  return svg({
    title: { text: 'R@10 by category (all ten conversations)', left: 'center', textStyle: { fontSize: 14 } },
    legend: { top: 32, itemGap: 36 },
    grid: { left: 60, right: 30, top: 90, bottom: 40 },
    xAxis: { type: 'category', data: [...CATEGORIES, 'overall 1-4'] },
    yAxis: { type: 'value', name: 'R@10 (%)', min: 0, max: 100 },
    series: [bars(`${s.profile} profile`, s.results), bars('BM25 baseline', s.bm25)],
  });
}

function ablationBars(s: Summary): string {
  const rows = (s.ablation ?? []).slice(1).filter((a) => a.variant !== 'nooa-0.0.9');
  const full = s.ablation![0]!;
  const delta = (split: (typeof SPLITS)[number]) => rows.map((a) => Math.round(10 * (pct(a[split].recall['R@10']) - pct(full[split].recall['R@10']))) / 10);
  return svg(
    {
      title: { text: `Ablation: change in R@10 (points) against the full ${s.profile} profile`, left: 'center', textStyle: { fontSize: 14 } },
      legend: { top: 32, itemGap: 36 },
      grid: { left: 150, right: 40, top: 90, bottom: 40 },
      xAxis: { type: 'value', name: 'Δ R@10', nameLocation: 'middle', nameGap: 26 },
      yAxis: { type: 'category', data: rows.map((a) => a.variant), inverse: true },
      series: [
        { name: 'all ten', type: 'bar', data: delta('all') },
        { name: 'tuning five', type: 'bar', data: delta('tuning') },
        { name: 'held-out five', type: 'bar', data: delta('held_out') },
      ],
    },
    760,
    140 + rows.length * 42,
  );
}

function tables(s: Summary): string {
  const pct = (x: number | undefined) => (x === undefined ? '' : (100 * x).toFixed(1));
  const lines: string[] = [];
  const head = ['split', 'retriever', ...s.ks.map((k) => `R@${k}`), 'recall_all@10', 'session R@10'];
  lines.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
  for (const split of SPLITS) {
    for (const [name, r] of [[s.profile, s.results], ['BM25', s.bm25]] as const) {
      const f = r[split].overall;
      lines.push(`| ${split.replace('_', '-')} | ${name} | ${[...s.ks.map((k) => pct(f.recall[`R@${k}`])), pct(f.recall_all_at_10), pct(f.session_recall_at_10)].join(' | ')} |`);
    }
  }
  lines.push('', '| category | n | ' + `${s.profile} R@10 | BM25 R@10 | ${s.profile} recall_all@10 | BM25 recall_all@10 |`, '|---|---|---|---|---|---|');
  for (const c of CATEGORIES) {
    const m = s.results.all.by_category[c]!;
    const b = s.bm25.all.by_category[c]!;
    lines.push(`| ${c} | ${m.n} | ${pct(m.recall['R@10'])} | ${pct(b.recall['R@10'])} | ${pct(m.recall_all_at_10)} | ${pct(b.recall_all_at_10)} |`);
  }
  if (s.ablation) {
    const full = s.ablation[0]!;
    lines.push('', '| variant | change | R@10 all ten | tuning five | held-out five | Δ all |', '|---|---|---|---|---|---|');
    for (const a of s.ablation) {
      const d = 100 * (a.all.recall['R@10']! - full.all.recall['R@10']!);
      lines.push(`| ${a.variant} | ${a.change} | ${pct(a.all.recall['R@10'])} | ${pct(a.tuning.recall['R@10'])} | ${pct(a.held_out.recall['R@10'])} | ${a === full ? '' : (d > 0 ? '+' : '') + d.toFixed(1)} |`);
    }
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { chromium: { type: 'string' } } });
  const [summaryPath, outDir] = positionals;
  if (!summaryPath || !outDir) {
    process.stderr.write('usage: npx tsx scripts/locomo-plots.ts <run>/summary.json <out dir> [--chromium <path>]\n');
    process.exit(2);
  }
  const s = JSON.parse(readFileSync(summaryPath, 'utf8')) as Summary;
  mkdirSync(outDir, { recursive: true });
  const charts: [string, string][] = [
    ['locomo-recall-at-k', recallCurve(s)],
    ['locomo-categories', categoryBars(s)],
  ];
  if (s.ablation) charts.push(['locomo-ablation', ablationBars(s)]);
  const executablePath = values.chromium ?? (await resolveChromium()).executablePath;
  const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 2 });
    for (const [name, markup] of charts) {
      writeFileSync(join(outDir, `${name}.svg`), markup);
      await page.setContent(`<html><body style="margin:0;background:#fff">${markup}</body></html>`);
      await page.locator('svg').first().screenshot({ path: join(outDir, `${name}.png`) });
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(`${tables(s)}\n`);
}

await main();
