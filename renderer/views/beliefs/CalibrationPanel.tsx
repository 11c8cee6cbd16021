/**
 * How far the belief probabilities can be taken at face value: the reliability diagram of the
 * fitted calibration on the dev stream (answers binned by stated probability, against how often
 * they were right), the model's own probabilities beside the calibrated ones, and the map between
 * them. A point on the diagonal means "p = 0.8" was right 80 % of the time.
 */
import { useMemo, useState } from 'react';
import type { CalibrationFigures, DiscriminationFigures, FittedCalibration, StoredSignals } from '../../../core/api/contract/index.js';
import { useBeliefConfig } from '../../api/beliefs.js';
import { EChart, type EChartsOption } from '../../charts/EChart.js';
import { fmtNum } from '../../components/common.js';
import { plural } from '../../api/errors.js';

type Mode = 'as-of' | 'hindsight';

const points = (f: CalibrationFigures) => f.bins.map((b) => [b.mean_p, b.accuracy, b.n]);

function reliabilityOption(fitted: FittedCalibration, signals: StoredSignals | null): EChartsOption {
  const size = (v: number[]) => Math.max(5, Math.min(22, Math.sqrt(v[2] ?? 0) * 1.6));
  return {
    animation: false,
    // The side panel is narrow: the legend goes under the axis so it never covers the points.
    grid: { left: 44, right: 12, top: 12, bottom: 84 },
    legend: { bottom: 0, itemWidth: 14, itemGap: 8 },
    tooltip: {
      trigger: 'item',
      formatter: (p: unknown) => {
        const { seriesName, value } = p as { seriesName: string; value: number[] };
        return value.length > 2 ? `${seriesName}<br/>stated ${fmtNum(value[0]! * 100, 0)}% · right ${fmtNum(value[1]! * 100, 0)}% · ${plural(value[2]!, 'answer')}` : `${seriesName}`;
      },
    },
    xAxis: { type: 'value', min: 0, max: 1, name: 'stated p', nameLocation: 'middle', nameGap: 24 },
    yAxis: { type: 'value', min: 0, max: 1, name: 'right', nameLocation: 'middle', nameGap: 34 },
    series: [
      { name: 'perfect', type: 'line', data: [[0, 0], [1, 1]], symbol: 'none', lineStyle: { type: 'dashed', color: '#9aa5b1' }, itemStyle: { color: '#9aa5b1' } },
      { name: 'model', type: 'scatter', data: points(fitted.dev.model), symbolSize: size, itemStyle: { color: '#d9822b' } },
      { name: 'calibrated', type: 'scatter', data: points(fitted.dev.calibrated_cv), symbolSize: size, itemStyle: { color: '#2f6fde' } },
      ...(signals ? [{ name: 'signals', type: 'scatter' as const, data: points(signals.dev.signals_cv), symbolSize: size, itemStyle: { color: '#1f9d55' } }] : []),
      { name: 'map', type: 'line', data: fitted.curve.map(([x, y]) => [x, y]), symbol: 'none', lineStyle: { color: '#2f6fde', width: 1 }, itemStyle: { color: '#2f6fde' } },
    ],
  };
}

export function CalibrationPanel({ dark }: { dark: boolean }) {
  const config = useBeliefConfig();
  const [mode, setMode] = useState<Mode>('as-of');
  const fitted = config.data?.calibration[mode] ?? null;
  const signals = config.data?.signals[mode] ?? null;
  const option = useMemo(() => (fitted ? reliabilityOption(fitted, signals) : null), [fitted, signals]);
  if (!config.data) return null;
  return (
    <details className="panel calibration" data-testid="belief-calibration" data-mode={mode} data-map={fitted ? JSON.stringify(fitted.map) : undefined}>
      <summary className="calibration-title">Calibration</summary>
      <div className="calibration-modes" role="radiogroup" aria-label="read mode">
        {(['as-of', 'hindsight'] as const).map((m) => (
          <label key={m}>
            <input type="radio" name="calibration-mode" checked={mode === m} onChange={() => setMode(m)} /> {m}
          </label>
        ))}
      </div>
      {fitted && option ? (
        <>
          <EChart option={option} height={290} dark={dark} testId="belief-reliability" />
          <table className="mini-table" data-testid="belief-calibration-figures">
            <thead>
              <tr>
                <th />
                <th>right</th>
                <th title="The scorer's Brier term: (1 − p of the true value)², never below 1 − accuracy">Brier</th>
                <th title="Expected calibration error: the mean gap between stated p and how often it was right">ECE</th>
              </tr>
            </thead>
            <tbody>
              {(
                [
                  ['model', fitted.dev.model],
                  ['calibrated, fitted here', fitted.dev.calibrated],
                  ['calibrated, held out', fitted.dev.calibrated_cv],
                ] as const
              ).map(([name, f]) => (
                <tr key={name}>
                  <td>{name}</td>
                  <td>{fmtNum(f.accuracy * 100, 1)}%</td>
                  <td>{fmtNum(f.brier, 3)}</td>
                  <td>{fmtNum(f.ece, 3)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted small">
            Fitted on the belief-stream dev set ({plural(fitted.dev.answers, 'answer')}) with two parameters (a logistic curve on the model&apos;s logit); the held-out figures and the diagram calibrate each entity by a map fitted without it.
          </p>
          {signals ? <SignalsFigures signals={signals} /> : null}
          <p className="muted small">
            Probabilities shown in this view are {signals ? "the signals model's" : 'calibrated'}; hover a value for the model&apos;s own.
          </p>
        </>
      ) : (
        <p className="muted small">This store&apos;s belief constants differ from a shipped profile, so no fitted calibration applies: probabilities are the model&apos;s own.</p>
      )}
    </details>
  );
}

/**
 * How well the headline p ranks answers: the signals model (the answer's reports, their agreement,
 * time since the value changed, source reliability, surprise history) against the calibration map,
 * both held out by entity.
 */
function SignalsFigures({ signals }: { signals: StoredSignals }) {
  const d = signals.dev;
  const rows: [string, DiscriminationFigures][] = [
    ['calibration map, held out', d.calibrated_cv],
    ['signals, fitted here', d.signals],
    ['signals, held out', d.signals_cv],
  ];
  return (
    <table className="mini-table" data-testid="belief-signals-figures">
      <caption className="muted small">Finding the wrong answers ({plural(d.model.wrong, 'wrong answer')} of {d.answers})</caption>
      <thead>
        <tr>
          <th />
          <th title="The chance a right answer gets a higher p than a wrong one">AUC</th>
          <th title="Wrong answers among the lowest tenth of answers by p">wrong in lowest tenth</th>
          <th title="Accuracy once a curator corrects the lowest tenth of answers by p">right after review</th>
          <th title="The scorer's Brier term: (1 − p of the true value)², never below 1 − accuracy">Brier</th>
          <th title="Expected calibration error">ECE</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([name, f]) => (
          <tr key={name}>
            <td>{name}</td>
            <td>{fmtNum(f.auc, 3)}</td>
            <td>
              {f.wrong_in_lowest_tenth} of {f.lowest_tenth}
            </td>
            <td>{fmtNum(f.accuracy_lowest_tenth_corrected * 100, 1)}%</td>
            <td>{fmtNum(f.brier, 3)}</td>
            <td>{fmtNum(f.ece, 3)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
