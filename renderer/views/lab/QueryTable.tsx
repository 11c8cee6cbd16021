/** Per-query deltas (metric under A and B, their difference, rank overlap) and the means over the set. */
import type { LabMetrics, LabQueryResult } from '../../../core/api/contract/lab.js';
import { fmtNum } from '../../components/common.js';

type MetricKey = keyof LabMetrics;
const METRICS: MetricKey[] = ['recall', 'mrr', 'ndcg'];

function mean(xs: (number | null)[]): number | null {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? v.reduce((s, x) => s + x, 0) / v.length : null;
}

const delta = (a: number | null, b: number | null) => (a === null || b === null ? null : b - a);
const signed = (v: number | null) => (v === null ? '—' : `${v > 0 ? '+' : ''}${fmtNum(v, 3)}`);

export function MetricsTable({ results, a, b, k }: { results: LabQueryResult[]; a: string; b: string; k: number }) {
  const labelled = results.filter((r) => r.labels.length > 0).length;
  return (
    <table className="results lab-metrics" data-testid="lab-metrics">
      <thead>
        <tr>
          <th>metric (k = {k})</th>
          <th>A: {a}</th>
          <th>B: {b}</th>
          <th>Δ</th>
        </tr>
      </thead>
      <tbody>
        {METRICS.map((m) => {
          const ma = mean(results.map((r) => r.a.metrics[m]));
          const mb = mean(results.map((r) => r.b.metrics[m]));
          return (
            <tr key={m}>
              <td>{m === 'recall' ? `recall@${k}` : m === 'ndcg' ? `nDCG@${k}` : 'MRR'}</td>
              <td className="mono">{fmtNum(ma, 3)}</td>
              <td className="mono">{fmtNum(mb, 3)}</td>
              <td className="mono">{signed(delta(ma, mb))}</td>
            </tr>
          );
        })}
        <tr>
          <td>rank overlap</td>
          <td colSpan={3} className="mono">
            {fmtNum(mean(results.map((r) => r.overlap)), 3)} <span className="muted small">over {results.length} queries, {labelled} with labels</span>
          </td>
        </tr>
      </tbody>
    </table>
  );
}

export function QueryTable({ results, selected, onSelect, k }: { results: LabQueryResult[]; selected: string | null; onSelect: (q: string) => void; k: number }) {
  return (
    <table className="results lab-queries" data-testid="lab-query-table">
      <thead>
        <tr>
          <th>query</th>
          <th>recall@{k} A</th>
          <th>recall@{k} B</th>
          <th>Δ</th>
          <th>overlap</th>
        </tr>
      </thead>
      <tbody>
        {results.map((r) => (
          <tr key={`${r.query}\u0000${r.owner ?? ''}`} className={r.query === selected ? 'selected' : ''} onClick={() => onSelect(r.query)} data-testid="lab-query-row">
            <td className="head">
              {r.query}
              {r.owner ? <span className="muted small"> · {r.owner}</span> : null}
            </td>
            <td className="mono">{fmtNum(r.a.metrics.recall, 3)}</td>
            <td className="mono">{fmtNum(r.b.metrics.recall, 3)}</td>
            <td className="mono">{signed(delta(r.a.metrics.recall, r.b.metrics.recall))}</td>
            <td className="mono">{fmtNum(r.overlap, 2)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
