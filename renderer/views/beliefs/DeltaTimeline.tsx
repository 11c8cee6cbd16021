/**
 * The entity's delta log: surprise over time (a chart; click a delta to travel to it), and the
 * deltas as rows with prior → posterior mode, evidence and the memory that caused each one.
 */
import { useCallback, useMemo } from 'react';
import type { DeltaView } from '../../../core/api/contract/index.js';
import { EChart, escapeHtml, type ECharts, type EChartsOption } from '../../charts/EChart.js';
import { fmtNum, fmtTime } from '../../components/common.js';
import { MemoryLink } from '../../components/MemoryLink.js';

const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

export function DeltaTimeline({
  deltas,
  attribute,
  at,
  dark,
  onTravel,
}: {
  deltas: DeltaView[];
  attribute: string | null;
  at: number | null;
  dark: boolean;
  onTravel: (t: number) => void;
}) {
  const shown = attribute ? deltas.filter((d) => d.attribute === attribute) : deltas;
  const option = useMemo<EChartsOption>(() => {
    const attrs = [...new Set(deltas.map((d) => d.attribute))].sort();
    return {
      animation: false,
      grid: { left: 46, right: 16, top: 30, bottom: 40 },
      legend: { top: 0, type: 'scroll', textStyle: { fontSize: 11 } },
      tooltip: {
        trigger: 'item',
        formatter: (p: { value: [number, number, string, string, string] }) =>
          `${escapeHtml(fmtTime(p.value[0]))}<br/>${escapeHtml(p.value[3])} = ${escapeHtml(p.value[2])}<br/>surprise ${fmtNum(p.value[1], 3)} bits<br/>${escapeHtml(p.value[4])}`,
      },
      xAxis: { type: 'time', axisLabel: { hideOverlap: true } },
      yAxis: { type: 'value', name: 'surprise (bits)', nameTextStyle: { align: 'left' } },
      series: attrs.map((a, i) => ({
        name: a,
        type: 'scatter',
        data: deltas.filter((d) => d.attribute === a).map((d) => ({ value: [d.t * 1000, d.surprise, d.value, d.attribute, d.evidence.slice(0, 120)], symbolSize: d.moved ? 11 : 6 })),
        itemStyle: { color: PALETTE[i % PALETTE.length], opacity: attribute && attribute !== a ? 0.15 : 0.85 },
        ...(i === 0 && at !== null ? { markLine: { silent: true, symbol: 'none', lineStyle: { color: '#d62728' }, label: { formatter: 'T' }, data: [{ xAxis: at * 1000 }] } } : {}),
      })),
    };
  }, [deltas, attribute, at]);
  const onReady = useCallback(
    (c: ECharts) => {
      c.off('click');
      c.on('click', (e: unknown) => {
        const v = (e as { value?: [number] }).value;
        if (v) onTravel(Math.round(v[0] / 1000));
      });
    },
    [onTravel],
  );
  return (
    <div className="panel" data-testid="belief-timeline" data-deltas={deltas.length}>
      <h3>
        Deltas {attribute ? <span className="muted">of {attribute}</span> : null} <span className="muted small">big dots moved the most probable value · click one to travel to it</span>
      </h3>
      <EChart option={option} height={220} dark={dark} onReady={onReady} testId="belief-chart" />
      <table className="mini-table wide deltas">
        <thead>
          <tr>
            <th>when</th>
            <th>attribute</th>
            <th>observed</th>
            <th>surprise</th>
            <th>mode</th>
            <th>evidence</th>
            <th>memory</th>
          </tr>
        </thead>
        <tbody>
          {shown.slice(0, 200).map((d) => (
            <tr key={d.id} data-testid="belief-delta" data-delta-id={d.id} className={at !== null && d.t > at ? 'future' : ''}>
              <td className="nowrap">
                <button className="link" onClick={() => onTravel(d.t)} title="Show the beliefs right after this delta">
                  {fmtTime(d.t)}
                </button>
              </td>
              <td>{d.attribute}</td>
              <td>
                {d.value}
                {d.observed_entity !== d.entity ? <span className="muted small"> (as {d.observed_entity})</span> : null}
                {d.reliability !== null ? <span className="muted small"> r {d.reliability}</span> : null}
              </td>
              <td>
                <span className="surprise" style={{ width: `${Math.min(60, d.surprise * 12)}px` }} /> {fmtNum(d.surprise, 2)}
              </td>
              <td className="small">{d.moved ? `${d.mode_before ?? '—'} → ${d.mode_after}` : <span className="muted">{d.mode_after}</span>}</td>
              <td className="small evidence">{d.evidence}</td>
              <td className="small">
                {d.memory_id ? <MemoryLink id={d.memory_id} head={d.memory_exists ? d.memory_head : null} /> : <span className="muted">—</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length > 200 ? <p className="muted small">The newest 200 of {shown.length} deltas.</p> : null}
    </div>
  );
}
