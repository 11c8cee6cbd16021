/** Rows vs reads per memory type: the share of the store each type holds against the share of reads it gets. */
import { useMemo } from 'react';
import type { RowsVsReads } from '../../../core/api/contract/index.js';
import { EChart, type EChartsOption } from '../../charts/EChart.js';
import { fmtNum } from '../../components/common.js';
import { plural } from '../../api/errors.js';

export function RowsReadsChart({ data, dark }: { data: RowsVsReads; dark: boolean }) {
  const option = useMemo<EChartsOption>(() => {
    const rows = [...data.rows].sort((a, b) => b.rows - a.rows);
    return {
      animation: false,
      grid: { left: 80, right: 20, top: 30, bottom: 28 },
      legend: { top: 0 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      yAxis: { type: 'category', data: rows.map((r) => r.type), inverse: true },
      xAxis: { type: 'value', axisLabel: { formatter: (v: number) => `${Math.round(v * 100)}%` }, max: 1 },
      series: [
        { name: 'share of rows', type: 'bar', data: rows.map((r) => r.row_share), itemStyle: { color: '#9aa5b1' } },
        { name: 'share of reads', type: 'bar', data: rows.map((r) => r.read_share), itemStyle: { color: '#2f6fde' } },
      ],
    };
  }, [data]);
  return (
    <div className="panel" data-testid="rows-vs-reads">
      <h3>
        Rows vs reads per type{' '}
        <span className="muted small">
          {plural(data.total_rows, 'row')} · {plural(data.total_reads, 'read')}
        </span>
      </h3>
      <EChart option={option} height={Math.max(160, 40 + data.rows.length * 34)} dark={dark} testId="rows-reads-chart" />
      <table className="mini-table">
        <thead>
          <tr>
            <th>type</th>
            <th>rows</th>
            <th>reads</th>
            <th title="share of reads ÷ share of rows">read ratio</th>
          </tr>
        </thead>
        <tbody>
          {data.rows.map((r) => (
            <tr key={r.type}>
              <td>{r.type}</td>
              <td>{r.rows.toLocaleString()}</td>
              <td>{r.reads.toLocaleString()}</td>
              <td>{r.read_ratio === null ? '—' : fmtNum(r.read_ratio, 2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
