/**
 * Retention now × importance, one dot per memory (a deterministic sample on big stores). Drag a
 * rectangle to select a region: the memories in it (the exact set, from the engine) are listed
 * under the chart and open in the Memories list, as Anki's statistics drill down.
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import type { RetentionScatter as ScatterData } from '../../../core/api/contract/index.js';
import { call } from '../../api/client.js';
import { keys } from '../../api/keys.js';
import { EChart, escapeHtml, type ECharts, type EChartsOption } from '../../charts/EChart.js';
import { fmtNum } from '../../components/common.js';
import { TYPE_COLORS } from '../../graph/style.js';
import { memoryHref } from '../../state/router.js';
import { memoriesHref } from '../memories/filters.js';
import { plural } from '../../api/errors.js';

export interface Region {
  retention: { min: number; max: number };
  importance: { min: number; max: number };
}

const round = (v: number, d: number) => Number(v.toFixed(d));

function RegionList({ region }: { region: Region }) {
  const input = { retention: region.retention, importance: region.importance, sort: 'importance' as const, dir: 'desc' as const, limit: 8 };
  const q = useQuery({ queryKey: [...keys.all, 'region', input], queryFn: () => call('memory.list', input) });
  return (
    <div className="region-list" data-testid="scatter-region" data-total={q.data?.total ?? ''}>
      <div className="row">
        <strong>{q.data ? plural(q.data.total, 'memory', 'memories') : '… memories'}</strong>
        <span className="muted">
          with retention {fmtNum(region.retention.min, 3)}–{fmtNum(region.retention.max, 3)} and importance {fmtNum(region.importance.min, 2)}–{fmtNum(region.importance.max, 2)}
        </span>
        <a className="button" href={memoriesHref({ retention: region.retention, importance: region.importance })} data-testid="scatter-open">
          Open in Memories →
        </a>
      </div>
      <ul>
        {q.data?.rows.map((m) => (
          <li key={m.id}>
            <a href={memoryHref(m.id)}>
              <span className={`type-dot t-${m.type}`} /> {m.head}
            </a>{' '}
            <span className="muted small">importance {fmtNum(m.importance, 2)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function RetentionScatter({ data, dark }: { data: ScatterData; dark: boolean }) {
  const [region, setRegion] = useState<Region | null>(null);
  const option = useMemo<EChartsOption>(() => {
    const byType = new Map<string, [number, number, string][]>();
    for (const p of data.points) {
      const list = byType.get(p.type) ?? [];
      list.push([p.retention, p.importance, p.id]);
      byType.set(p.type, list);
    }
    return {
      animation: false,
      grid: { left: 52, right: 20, top: 36, bottom: 44 },
      legend: { top: 0, textStyle: { fontSize: 11 } },
      tooltip: {
        trigger: 'item',
        formatter: (p: { seriesName: string; value: [number, number, string] }) =>
          `${escapeHtml(p.seriesName)} ${escapeHtml(p.value[2].slice(0, 10))}<br/>retention ${fmtNum(p.value[0], 4)} · importance ${fmtNum(p.value[1], 2)}`,
      },
      xAxis: { type: 'value', name: 'retention now', nameLocation: 'middle', nameGap: 26, min: 0, max: 1 },
      yAxis: { type: 'value', name: 'importance', nameLocation: 'middle', nameGap: 30, min: 0, max: 10 },
      brush: { xAxisIndex: 0, yAxisIndex: 0, brushType: 'rect', brushMode: 'single', transformable: true, throttleType: 'debounce', throttleDelay: 150 },
      toolbox: { right: 10, feature: { brush: { type: ['rect', 'clear'] } } },
      series: [...byType].map(([type, pts], i) => ({
        name: type,
        type: 'scatter',
        data: pts,
        symbolSize: data.points.length > 3000 ? 3 : 6,
        large: data.points.length > 3000,
        itemStyle: { color: TYPE_COLORS[type] ?? '#888', opacity: 0.75 },
        ...(i === 0
          ? { markLine: { silent: true, symbol: 'none', lineStyle: { type: 'dashed', color: '#d62728' }, label: { formatter: 'prune threshold', position: 'insideEndTop', fontSize: 10 }, data: [{ xAxis: data.prune_threshold }] } }
          : {}),
      })),
    };
  }, [data]);
  const onReady = useCallback((c: ECharts) => {
    c.off('brushEnd');
    c.on('brushEnd', (e: unknown) => {
      const area = (e as { areas?: { coordRange?: [[number, number], [number, number]] }[] }).areas?.[0];
      if (!area?.coordRange) {
        setRegion(null);
        return;
      }
      const [[x0, x1], [y0, y1]] = area.coordRange;
      setRegion({ retention: { min: round(Math.max(0, x0), 4), max: round(Math.min(1.0001, x1), 4) }, importance: { min: round(Math.max(0, y0), 2), max: round(Math.min(10.0001, y1), 2) } });
    });
    // Dragging selects a region straight away (no toolbox click first).
    c.dispatchAction({ type: 'takeGlobalCursor', key: 'brush', brushOption: { brushType: 'rect', brushMode: 'single' } });
  }, []);
  return (
    <div className="panel" data-testid="retention-scatter" data-points={data.points.length}>
      <h3>
        Retention × importance{' '}
        <span className="muted small">
          {data.sampled ? `${data.points.length.toLocaleString()} of ${data.total.toLocaleString()} live memories (every ${Math.ceil(data.total / data.points.length)}th)` : `${data.total.toLocaleString()} live memories`} · drag to select a region
        </span>
      </h3>
      <EChart option={option} height={340} dark={dark} onReady={onReady} testId="scatter-chart" />
      {region ? <RegionList region={region} /> : <p className="muted small">Low retention and low importance (bottom left) is what pruning takes next; high importance is protected from 8 up.</p>}
    </div>
  );
}
