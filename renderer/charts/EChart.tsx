/** A React wrapper around one echarts instance (tree-shaken: only the charts and components we use). */
import { BarChart, LineChart, ScatterChart } from 'echarts/charts';
import {
  BrushComponent,
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  ToolboxComponent,
  TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([
  LineChart,
  ScatterChart,
  BarChart,
  GridComponent,
  TooltipComponent,
  MarkLineComponent,
  MarkAreaComponent,
  LegendComponent,
  DataZoomComponent,
  BrushComponent,
  ToolboxComponent,
  VisualMapComponent,
  CanvasRenderer,
]);

export type ECharts = echarts.ECharts;
export type EChartsOption = echarts.EChartsCoreOption;

/** Escapes text for echarts' HTML tooltips: memory content and queries must never become markup. */
export function escapeHtml(s: unknown): string {
  return String(s ?? '').replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function EChart({ option, height = 320, onReady, testId, dark }: { option: EChartsOption; height?: number; onReady?: (c: ECharts) => void; testId?: string; dark: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  useEffect(() => {
    const c = echarts.init(ref.current!, dark ? 'dark' : undefined, { renderer: 'canvas' });
    chart.current = c;
    const ro = new ResizeObserver(() => c.resize());
    ro.observe(ref.current!);
    return () => {
      ro.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, [dark]);
  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    c.setOption({ backgroundColor: 'transparent', ...option }, true);
    onReady?.(c);
  }, [option, dark, onReady]);
  return <div ref={ref} style={{ height, width: '100%' }} data-testid={testId} />;
}
