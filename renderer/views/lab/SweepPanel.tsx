/**
 * A sweep of one knob of profile B: the metric (and the overlap with B's own ranking) against the
 * knob's value over a range, the profile's current value marked. One call per point, so the plot
 * fills in as the points arrive and Cancel stops between them.
 */
import { useMemo, useState } from 'react';
import type { LabelSourceName, LabQuery, LabSweepResult, SweepKnob } from '../../../core/api/contract/lab.js';
import { sweepChunks, useChunkedRun, useLabKnobs } from '../../api/lab.js';
import { EChart, type EChartsOption } from '../../charts/EChart.js';
import { ErrorBox } from '../../components/common.js';
import { useUi } from '../../state/ui.js';
import { RunProgress } from './RunProgress.js';

const POINTS = 11;

export function SweepPanel({ queries, profile, k, knob, labels, onKnob }: { queries: LabQuery[]; profile: string; k: number; knob: string; labels: LabelSourceName | null; onKnob: (knob: string) => void }) {
  const dark = useUi((s) => s.theme) === 'dark';
  const knobs: SweepKnob[] = useLabKnobs().data?.knobs ?? [];
  const spec = knobs.find((s) => s.path === knob);
  const [picked, setRange] = useState<{ min: number; max: number } | null>(null);
  const range = picked ?? { min: spec?.min ?? 0, max: spec?.max ?? 1 };
  const run = useChunkedRun<LabSweepResult>();
  const values = useMemo(() => Array.from({ length: POINTS }, (_, i) => range.min + ((range.max - range.min) * i) / (POINTS - 1)), [range]);
  const points = run.results.flatMap((r) => r.points);
  const current = run.results[0]?.current ?? null;
  const option: EChartsOption = useMemo(
    () => ({
      grid: { left: 48, right: 16, top: 28, bottom: 36 },
      legend: { top: 0 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'value', name: knob.split('.').pop(), nameLocation: 'middle', nameGap: 24, min: range.min, max: range.max },
      yAxis: { type: 'value', min: 0, max: 1 },
      series: [
        {
          name: `recall@${k}`,
          type: 'line',
          data: points.map((p) => [p.value, p.recall]),
          markLine: current === null ? undefined : { symbol: 'none', label: { formatter: `current ${current}` }, data: [{ xAxis: current }] },
        },
        { name: 'MRR', type: 'line', data: points.map((p) => [p.value, p.mrr]) },
        { name: 'overlap with B', type: 'line', lineStyle: { type: 'dashed' }, data: points.map((p) => [p.value, p.overlap]) },
      ],
    }),
    [points, current, k, knob, range],
  );
  const start = () => void run.start(sweepChunks(values, { queries, profile, knob, k, ...(labels ? { labels } : {}) }));
  return (
    <section className="panel" data-testid="lab-sweep">
      <h3>Sweep one knob of B ({profile})</h3>
      <div className="row">
        <label>
          knob{' '}
          <select
            value={knob}
            onChange={(e) => {
              setRange(null);
              onKnob(e.target.value);
            }}
            data-testid="lab-sweep-knob"
          >
            {knobs.map((s) => (
              <option key={s.path}>{s.path}</option>
            ))}
          </select>
        </label>
        <label>
          from <input type="number" step="any" value={range.min} onChange={(e) => setRange({ ...range, min: Number(e.target.value) })} style={{ width: 72 }} />
        </label>
        <label>
          to <input type="number" step="any" value={range.max} onChange={(e) => setRange({ ...range, max: Number(e.target.value) })} style={{ width: 72 }} />
        </label>
        <button onClick={start} disabled={run.running || queries.length === 0} data-testid="lab-sweep-run">
          Sweep {POINTS} points
        </button>
        <RunProgress run={run} unit="points" />
      </div>
      <ErrorBox error={run.error} />
      {points.length ? <EChart option={option} height={240} dark={dark} testId="lab-sweep-chart" /> : <p className="muted small">Metric against the knob's value over {queries.length} queries (first 50), the current value marked.</p>}
    </section>
  );
}
