/**
 * Draws a fit's objective over its evaluations (the best training value after each one) from the
 * fit-report.json that `mnemo tune` writes, with the held-out value of the starting and of the
 * fitted profile as dashed lines. echarts renders the SVG on the server (no DOM, no browser). Only
 * the report's numbers go in: nothing of the labelled queries' text.
 *
 *   npx tsx scripts/tune-plot.ts <out>/fit-report.json docs/img/tune-objective.svg
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as echarts from 'echarts';

interface Split {
  queries: number;
  base: Record<string, number>;
  fitted: Record<string, number>;
}
interface Report {
  base_profile: string;
  name: string;
  metric: 'recall' | 'mrr' | 'ndcg';
  k: number;
  seed: number;
  evaluations: number;
  objective: number[];
  train: Split;
  held_out: Split | null;
}

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: npx tsx scripts/tune-plot.ts <fit-report.json> <out.svg>');
  process.exit(2);
}
const report = JSON.parse(readFileSync(input, 'utf8')) as Report;
const label = report.metric === 'recall' ? `R@${report.k}` : report.metric === 'mrr' ? 'MRR' : `nDCG@${report.k}`;
const pct = (v: number) => Math.round(1000 * v) / 10;
const heldOut = report.held_out;
const dashed = (name: string, value: number, color: string) => ({
  name,
  type: 'line',
  showSymbol: false,
  lineStyle: { type: 'dashed', color },
  itemStyle: { color },
  data: [
    [1, pct(value)],
    [report.objective.length, pct(value)],
  ],
});

const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 760, height: 420 });
chart.setOption({
  animation: false,
  backgroundColor: '#ffffff',
  textStyle: { fontFamily: 'DejaVu Sans, Arial, sans-serif' },
  title: { text: `Fitting ${report.base_profile}: ${label}, seed ${report.seed}, ${report.evaluations} evaluations`, left: 'center', textStyle: { fontSize: 14 } },
  legend: { bottom: 4, itemGap: 24 },
  grid: { left: 56, right: 24, top: 48, bottom: 80 },
  xAxis: { type: 'value', name: 'evaluation', nameLocation: 'middle', nameGap: 26, min: 1, max: report.objective.length },
  yAxis: { type: 'value', scale: true, name: `${label} (%)` },
  series: [
    { name: `train (${report.train.queries}), best so far`, type: 'line', step: 'end', showSymbol: false, data: report.objective.map((v, i) => [i + 1, pct(v)]) },
    ...(heldOut
      ? [dashed(`held out (${heldOut.queries}), ${report.base_profile}: ${pct(heldOut.base[report.metric]!)}`, heldOut.base[report.metric]!, '#888888'), dashed(`held out, fitted: ${pct(heldOut.fitted[report.metric]!)}`, heldOut.fitted[report.metric]!, '#d97706')]
      : []),
  ],
});
writeFileSync(output, chart.renderToSVGString());
chart.dispose();
console.log(output);
