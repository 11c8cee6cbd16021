/** One dimension (entity, attribute) as of T: the distribution as bars, the mode, the entropy against its maximum. */
import type { BeliefView } from '../../../core/api/contract/index.js';
import { fmtNum, fmtTime } from '../../components/common.js';
import { plural } from '../../api/errors.js';

/** What the headline p is, in words, with the signals behind it when they set it. */
function pTitle(b: BeliefView): string {
  const own = `the model's own probability is ${fmtNum(b.p_model * 100, 1)}%`;
  if (b.p_source === 'model') return "the model's own probability (no fitted model applies)";
  if (b.p_source === 'calibration' || !b.signals) return `calibrated; ${own}`;
  const s = b.signals;
  const since = s.days_to_other_value === null ? 'no other value reported' : `another value reported ${fmtNum(s.days_to_other_value, 0)} days from then`;
  const latest = s.latest_agrees ? 'the latest reliable report gives it' : 'the latest reliable report gives another value';
  const rates = `${fmtNum(s.p_slower * 100, 0)}% if values changed more slowly, ${fmtNum(s.p_faster * 100, 0)}% if more quickly`;
  return `from the answer's signals: ${plural(s.reports, 'reliable report')} of it, ${s.recent_agreeing} of the ${s.recent_total} nearest agree, ${since}, ${latest}; the model's p would be ${rates}; ${own}`;
}

export function DimensionCard({ b, onPick }: { b: BeliefView; onPick: (attribute: string) => void }) {
  const dist = [...b.distribution].sort((x, y) => y.p - x.p);
  return (
    <div
      className="dimension"
      data-testid="belief-dimension"
      data-attribute={b.attribute}
      data-at={b.at}
      data-value={b.value ?? ''}
      data-p={b.p}
      data-distribution={JSON.stringify(b.distribution)}
    >
      <div className="dim-head">
        <button className="link" onClick={() => onPick(b.attribute)} title="Show this dimension's deltas">
          <strong>{b.attribute}</strong>
        </button>
        <span className="dim-mode">{b.value ?? <span className="muted">nothing observed</span>}</span>
        {b.value ? (
          <span className="muted" title={pTitle(b)} data-testid="belief-p">
            {fmtNum(b.p * 100, 1)}%
          </span>
        ) : null}
      </div>
      <div className="dist">
        {b.calibrated ? <div className="muted small dist-note">bars: calibrated p</div> : null}
        {dist.map((v) => (
          <div key={v.value} className={`dist-row${v.value === b.value ? ' mode' : ''}${v.value === '<other>' ? ' other' : ''}`} title={`${v.value}: p = ${v.p}`}>
            <span className="dist-label">{v.value}</span>
            <span className="dist-bar">
              <span style={{ width: `${v.p * 100}%` }} />
            </span>
            <span className="dist-p">{fmtNum(v.p, 3)}</span>
          </div>
        ))}
      </div>
      <div className="dim-foot muted small">
        <span data-testid="belief-entropy" data-entropy={b.entropy} data-entropy-model={b.entropy_model}>
          entropy {fmtNum(b.entropy, 3)} of {fmtNum(b.max_entropy, 3)} bit{fmtNum(b.max_entropy, 3) === '1' ? '' : 's'}{b.calibrated ? ` (of the calibrated bars; the model's own: ${fmtNum(b.entropy_model, 3)})` : ''}
        </span>
        <span className="entropy-meter">
          <span style={{ width: `${b.max_entropy > 0 ? (b.entropy / b.max_entropy) * 100 : 0}%` }} />
        </span>
        · {plural(b.deltas, 'delta')} · last update {fmtTime(b.t_last)}
        {b.values.length ? ` · observed: ${b.values.join(', ')}` : ''}
      </div>
    </div>
  );
}
