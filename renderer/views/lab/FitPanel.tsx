/**
 * Fit a profile to the lab's query set: `mnemo tune`'s search (lab.fit) starting from the profile in
 * slot A or B, scored against the chosen label source. While it runs: n of N evaluations, the best
 * objective so far as a line, and Cancel. At the end: the fitted profile's metrics beside the
 * start's (train and held out), each knob the fit moved, and Save as… (profiles.save, journalled),
 * which shows the saved profile's diff against the profile the fit started from.
 */
import { useMemo, useState } from 'react';
import type { LabelSourceName, LabFitResult, LabQuery } from '../../../core/api/contract/lab.js';
import { useLabFit, useSaveProfile } from '../../api/lab.js';
import { EChart, type EChartsOption } from '../../charts/EChart.js';
import { ErrorBox } from '../../components/common.js';
import { etaText } from '../../components/job-words.js';
import { useUi } from '../../state/ui.js';
import { SavedDiff } from './SavedDiff.js';

const MAX_FIT_QUERIES = 200;
const pct = (v: number) => (100 * v).toFixed(1);

function ObjectivePlot({ objective, of, k }: { objective: number[]; of: number; k: number }) {
  const dark = useUi((s) => s.theme) === 'dark';
  const option: EChartsOption = useMemo(
    () => ({
      grid: { left: 48, right: 16, top: 30, bottom: 36 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'value', name: 'evaluation', nameLocation: 'middle', nameGap: 24, min: 1, max: Math.max(of, 2) },
      // Scaled to the values: the gains a fit finds are a few points, invisible on a 0–1 axis.
      yAxis: { type: 'value', scale: true, name: `best recall@${k} (train)` },
      series: [{ name: 'best so far', type: 'line', step: 'end', showSymbol: false, data: objective.map((v, i) => [i + 1, v]) }],
    }),
    [objective, of, k],
  );
  return <EChart option={option} height={180} dark={dark} testId="lab-fit-chart" />;
}

function FitMetrics({ result, k }: { result: LabFitResult; k: number }) {
  const r = result.report;
  const rows = [
    ['train', r.train] as const,
    ...(r.held_out ? ([['held out', r.held_out]] as const) : []),
  ];
  return (
    <table className="results" data-testid="lab-fit-metrics">
      <thead>
        <tr>
          <th>queries</th>
          <th>metric</th>
          <th>{r.base_profile}</th>
          <th>fitted</th>
        </tr>
      </thead>
      <tbody>
        {rows.flatMap(([split, c]) =>
          (['recall', 'mrr', 'ndcg'] as const).map((m) => (
            <tr key={`${split}-${m}`}>
              <td>
                {split} ({c.queries})
              </td>
              <td>{m === 'recall' ? `R@${k}` : m === 'mrr' ? 'MRR' : `nDCG@${k}`}</td>
              <td className="num">{pct(c.base[m])}</td>
              <td className="num">{pct(c.fitted[m])}</td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}

export function FitPanel({ queries, slots, k, labels, onSaved }: { queries: LabQuery[]; slots: { a: string; b: string }; k: number; labels: LabelSourceName | null; onSaved: (name: string) => void }) {
  const [slot, setSlot] = useState<'a' | 'b'>('b');
  const [evaluations, setEvaluations] = useState(60);
  const [name, setName] = useState('');
  const { fit, progress, cancel } = useLabFit();
  const save = useSaveProfile();
  const from = slots[slot];
  const result = fit.data;
  const start = () => {
    save.reset();
    cancel.reset();
    fit.mutate({ queries: queries.slice(0, MAX_FIT_QUERIES), from, name: 'lab-fit', k, max_evaluations: evaluations, ...(labels ? { labels } : {}) });
  };
  const submit = (e: { preventDefault(): void }) => {
    e.preventDefault();
    if (!result) return;
    save.mutate({ name: name.trim(), base: result.report.base_profile, ...result.config } as Parameters<typeof save.mutate>[0], { onSuccess: (r) => onSaved(r.name) });
  };
  const moved = result?.report.knobs.filter((knob) => knob.base !== knob.fitted) ?? [];
  return (
    <section className="panel" data-testid="lab-fit-panel">
      <h3>Fit a profile to these queries</h3>
      <div className="row">
        <label>
          start from{' '}
          <select value={slot} onChange={(e) => setSlot(e.target.value as 'a' | 'b')} data-testid="lab-fit-from">
            <option value="a">A ({slots.a})</option>
            <option value="b">B ({slots.b})</option>
          </select>
        </label>
        <label>
          evaluations <input type="number" min={1} max={500} value={evaluations} onChange={(e) => setEvaluations(Number(e.target.value))} style={{ width: 64 }} data-testid="lab-fit-evals" />
        </label>
        <button className="primary" onClick={start} disabled={fit.isPending || queries.length === 0} data-testid="lab-fit">
          Fit…
        </button>
        {fit.isPending ? (
          <span className="lab-progress" data-testid="lab-fit-progress">
            <progress max={progress?.of || evaluations} value={progress?.evaluation ?? 0} /> {progress?.evaluation ?? 0} of {progress?.of || evaluations} evaluations
            {progress?.best != null ? `, best ${pct(progress.best)}` : ''}
            {progress?.eta_s != null && !progress.cancelling ? ` · ${etaText(progress.eta_s)}` : ''}{' '}
            <button onClick={() => cancel.mutate()} disabled={progress?.cancelling || cancel.isPending || cancel.data?.cancelled === true} data-testid="lab-fit-cancel">
              {progress?.cancelling || cancel.isPending || cancel.data?.cancelled === true ? 'Cancelling…' : 'Cancel'}
            </button>
          </span>
        ) : null}
      </div>
      <ErrorBox error={fit.error} />
      {fit.isPending && progress?.objective.length ? <ObjectivePlot objective={progress.objective} of={progress.of} k={k} /> : null}
      {!fit.isPending && result ? (
        <div data-testid="lab-fit-result">
          <p className="muted small">
            {result.report.evaluations} evaluations ({result.report.stopped}), {result.labelled.train} training and {result.labelled.held_out} held-out queries labelled by {result.label_source}
            {result.labelled.unlabelled ? `; ${result.labelled.unlabelled} without labels left out` : ''}.
          </p>
          <ObjectivePlot objective={result.report.objective} of={result.report.evaluations} k={k} />
          <div className="two-col">
            <FitMetrics result={result} k={k} />
            <table className="results" data-testid="lab-fit-knobs">
              <thead>
                <tr>
                  <th>knob</th>
                  <th>{result.report.base_profile}</th>
                  <th>fitted</th>
                </tr>
              </thead>
              <tbody>
                {moved.map((knob) => (
                  <tr key={knob.name}>
                    <td className="mono">{knob.name}</td>
                    <td className="mono">{knob.base}</td>
                    <td className="mono">{knob.fitted}</td>
                  </tr>
                ))}
                {moved.length === 0 ? (
                  <tr>
                    <td colSpan={3} className="muted">
                      no knob moved
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
          <form className="row" onSubmit={submit}>
            <input required placeholder="save as (a-z 0-9 . _ -)" pattern="[a-z0-9][a-z0-9._\-]{0,63}" value={name} onChange={(e) => setName(e.target.value)} data-testid="lab-fit-name" />
            <button type="submit" className="primary" disabled={save.isPending} data-testid="lab-fit-save">
              Save as…
            </button>
          </form>
          <ErrorBox error={save.error} />
          {save.data ? <SavedDiff saved={save.data} testId="lab-fit-saved" /> : null}
        </div>
      ) : null}
    </section>
  );
}
