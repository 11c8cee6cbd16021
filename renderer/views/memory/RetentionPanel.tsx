/**
 * The retention curve: R(t) from creation to now + 90 days, a marker per access (ring and event
 * table) coloured by channel with a tooltip, strength steps, the prune threshold and the prune ETA.
 * Under the time control (?at=), the curve as it stood then: "now" is the instant.
 * Drawn with echarts; a DOM strip of the same markers under it carries the tooltips for keyboard
 * and screen-reader users (and the test ids).
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CurveMarker, RetentionCurve } from '../../../core/api/contract/index.js';
import type { Memory } from '../../../core/model/memory.js';
import { call } from '../../api/client.js';
import { keys } from '../../api/keys.js';
import { EChart, escapeHtml, type EChartsOption } from '../../charts/EChart.js';
import { ErrorBox, fmtNum, fmtTime, Spinner } from '../../components/common.js';
import { useUi } from '../../state/ui.js';
import { useViewInstant } from '../../api/time-travel.js';
import { AccessFieldsLater } from './AccessFieldsLater.js';
import { CHANNEL_COLORS } from './channels.js';
import { loggedAccessesText, TOUCHING_HINT } from './access-words.js';

const GRID = { left: 56, right: 56, top: 36, bottom: 48 };

export function retentionLabel(r: number, threshold: number): string {
  if (r < threshold) return 'below prune threshold';
  if (r >= 0.75) return 'fresh';
  if (r >= 0.4) return 'fading';
  return 'faint';
}

/** The curve of the instant the view shows (live without ?at=); the past one is cached with the past. */
function useCurve(id: string) {
  const { at } = useViewInstant();
  return useQuery({
    queryKey: at === null ? keys.retention(id) : keys.pastRetention(id, at),
    queryFn: () => call('retention.curve', at === null ? { id, samples: 400 } : { id, samples: 400, at }),
  });
}

/** R at time t, read off the sampled curve (samples are sorted by t). */
export function rAt(samples: RetentionCurve['samples'], t: number): number {
  if (samples.length === 0) return 0;
  let lo = 0;
  let hi = samples.length - 1;
  if (t <= samples[0]!.t) return samples[0]!.r;
  if (t >= samples[hi]!.t) return samples[hi]!.r;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (samples[mid]!.t <= t) lo = mid;
    else hi = mid;
  }
  const a = samples[lo]!;
  const b = samples[hi]!;
  return b.t === a.t ? b.r : a.r + ((b.r - a.r) * (t - a.t)) / (b.t - a.t);
}

export function markerText(m: CurveMarker): string {
  return [
    `${m.channel} at ${fmtTime(m.ts)}`,
    m.reader_owner ? `reader ${m.reader_owner}` : null,
    m.query ? `query “${m.query}”` : null,
    m.rank !== null ? `rank #${m.rank + 1}` : null, // people read ranks 1-based; the stored rank is nooa's 0-based
    m.score !== null ? `score ${fmtNum(m.score, 4)}` : null,
    m.strength_after !== null ? `strength after ${m.strength_after}` : null,
    `from ${m.origin === 'both' ? 'ring + event table' : m.origin === 'ring' ? 'ring' : 'event table'}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

function curveOption(c: RetentionCurve, dark: boolean, past: boolean): EChartsOption {
  const channels = [...new Set(c.markers.map((m) => m.channel))];
  const text = dark ? '#ddd' : '#333';
  const steps = [...c.strength_steps.map((s) => [s.t * 1000, s.strength]), [c.until * 1000, c.strength_steps.at(-1)?.strength ?? 0]];
  return {
    animation: false,
    grid: GRID,
    legend: { top: 4, textStyle: { color: text }, data: ['retention', 'strength', ...channels] },
    tooltip: {
      trigger: 'item',
      confine: true,
      formatter: (p: { seriesName: string; data: unknown }) => {
        const d = p.data as { marker?: CurveMarker; value: [number, number] } | [number, number];
        if (!Array.isArray(d) && d.marker) return escapeHtml(markerText(d.marker)).replace(/ · /g, '<br/>');
        const v = Array.isArray(d) ? d : d.value;
        return `${escapeHtml(p.seriesName)}<br/>${escapeHtml(fmtTime(v[0] / 1000))}: ${escapeHtml(fmtNum(v[1], 4))}`;
      },
    },
    xAxis: { type: 'time', min: c.created_at * 1000, max: c.until * 1000, axisLabel: { color: text } },
    yAxis: [
      { type: 'value', name: 'R(t)', min: 0, max: 1, axisLabel: { color: text }, nameTextStyle: { color: text } },
      { type: 'value', name: 'strength', min: 0, axisLabel: { color: text }, nameTextStyle: { color: text }, splitLine: { show: false } },
    ],
    series: [
      {
        name: 'retention',
        type: 'line',
        showSymbol: false,
        data: c.samples.map((s) => [s.t * 1000, s.r]),
        lineStyle: { width: 2, color: '#4e79a7' },
        itemStyle: { color: '#4e79a7' },
        areaStyle: { opacity: 0.08 },
        markLine: {
          symbol: 'none',
          silent: false,
          data: [
            { yAxis: c.threshold, name: 'prune threshold', lineStyle: { color: '#d62728', type: 'dashed' }, label: { formatter: `prune threshold ${c.threshold}`, color: '#d62728', position: 'insideStartTop' } },
            { xAxis: c.now * 1000, name: past ? 'then' : 'now', lineStyle: { color: text, type: 'dotted' }, label: { formatter: past ? 'as of' : 'now', color: text } },
            ...(c.prune_eta !== null && c.prune_eta <= c.until
              ? [{ xAxis: c.prune_eta * 1000, name: 'prune ETA', lineStyle: { color: '#d62728' }, label: { formatter: `prune ETA ${fmtTime(c.prune_eta).slice(0, 10)}`, color: '#d62728' } }]
              : []),
          ],
        },
      },
      { name: 'strength', type: 'line', step: 'end', yAxisIndex: 1, showSymbol: false, data: steps, lineStyle: { width: 1, color: '#aaa', type: 'dashed' }, itemStyle: { color: '#aaa' } },
      ...channels.map((ch) => ({
        name: ch,
        type: 'scatter',
        symbolSize: 9,
        itemStyle: { color: CHANNEL_COLORS[ch] ?? '#888', borderColor: dark ? '#111' : '#fff', borderWidth: 1 },
        data: c.markers.filter((m) => m.channel === ch).map((m) => ({ value: [m.ts * 1000, rAt(c.samples, m.ts)], marker: m })),
      })),
    ],
  };
}

function MarkerStrip({ c }: { c: RetentionCurve }) {
  const span = Math.max(c.until - c.created_at, 1);
  return (
    <div className="marker-strip" style={{ marginLeft: GRID.left, marginRight: GRID.right }} data-marker-count={c.markers.length}>
      {c.markers.map((m, i) => (
        <span
          key={`${m.ts}-${m.channel}-${i}`}
          className="marker"
          data-testid="retention-marker"
          data-channel={m.channel}
          data-ts={m.ts}
          data-event-id={m.event_id ?? ''}
          title={markerText(m)}
          tabIndex={0}
          style={{ left: `${((m.ts - c.created_at) / span) * 100}%`, background: CHANNEL_COLORS[m.channel] ?? '#888' }}
        />
      ))}
    </div>
  );
}

function Score({ id }: { id: string }) {
  const q = useCurve(id);
  const { at } = useViewInstant();
  const c = q.data;
  return (
    <div
      className="score-card"
      data-testid="score-retention"
      data-at={c?.now ?? ''}
      title={`Ebbinghaus retention ${at === null ? 'now' : `as of ${fmtTime(at)}`}: exp(−Δt/S), S = 336 h · (1 + ln(1 + strength))`}
    >
      <div className="score-name">retention{at === null ? '' : ' then'}</div>
      <div className="score-value">
        {c ? fmtNum(c.retention_now, 3) : '…'} <span className="score-label">{c ? retentionLabel(c.retention_now, c.threshold).toUpperCase() : ''}</span>
      </div>
      <div className="meter">
        <span style={{ width: `${(c?.retention_now ?? 0) * 100}%` }} />
      </div>
    </div>
  );
}

export function RetentionPanel({ id }: { id: string; memory: Memory }) {
  const q = useCurve(id);
  const dark = useUi((s) => s.theme === 'dark');
  const { at } = useViewInstant();
  const option = useMemo(() => (q.data ? curveOption(q.data, dark, at !== null) : null), [q.data, dark, at]);
  const c = q.data;
  return (
    <section className="panel" data-testid="retention-curve" data-marker-count={c?.markers.length ?? ''} data-at={c?.now ?? ''}>
      <h3>
        Retention curve{at === null ? null : <span className="muted"> as of {fmtTime(at)}</span>}
      </h3>
      <AccessFieldsLater />
      <ErrorBox error={q.error} />
      {q.isLoading ? <Spinner label="Computing the curve…" /> : null}
      {c && option ? (
        <>
          <p className="muted small">
            R {at === null ? 'now' : 'then'} {fmtNum(c.retention_now, 4)} · stability {fmtNum(c.stability_hours_now, 1)} h ·{' '}
            {c.protected ? `protected (${c.protection_reason})` : c.prune_eta !== null ? `prune ETA ${fmtTime(c.prune_eta)}` : 'no prune ETA'} · {c.prune_reason} ·{' '}
            <span data-testid="curve-accesses" data-logged={c.accesses.logged} data-touching={c.accesses.touching} title={TOUCHING_HINT}>
              {loggedAccessesText(c.accesses)}
            </span>
          </p>
          <EChart option={option} height={300} dark={dark} />
          <MarkerStrip c={c} />
        </>
      ) : null}
    </section>
  );
}

RetentionPanel.Score = Score;
