/**
 * A stacked bar of what made a recall score: one segment per named term (relevance, recency,
 * importance, the BM25 keyword term and the entity boost under mnemo, spread), each already
 * weighted, so the segments add up to the score. The numbers are written beside the bar, not
 * only in the hover; the exact terms ride on data attributes for tests.
 */
import type { ScoreTerms } from '../../core/api/contract/index.js';
import { barSegments, segmentsSum, TERM_LABEL, TERM_ORDER, type TermKey } from './score-terms.js';

export function ComponentBar({ terms, scale = 2.5, compact = false }: { terms: ScoreTerms | null; scale?: number; compact?: boolean }) {
  if (!terms) return <span className="muted">no components</span>;
  const segments = barSegments(terms);
  const sum = segmentsSum(segments);
  const title = `${segments.map((s) => `${s.label} ${s.value.toFixed(4)}`).join(' + ')} = ${sum.toFixed(4)}`;
  const width = Math.max(scale, sum);
  return (
    <div className={`cbar-row${compact ? ' compact' : ''}`} data-testid="component-bar" data-terms={JSON.stringify(terms)} data-sum={sum} title={title}>
      <div className={`cbar${compact ? ' compact' : ''}`} role="img" aria-label={title}>
        {segments.map((s) => (
          <span key={s.key} className={`cseg c-${s.key}`} style={{ width: `${(Math.max(0, s.value) / width) * 100}%` }} />
        ))}
      </div>
      {compact ? null : (
        <span className="cbar-nums small mono">
          {segments
            .filter((s) => s.value !== 0)
            .map((s, i) => (
              <span key={s.key} className={`cnum n-${s.key}`}>
                {i > 0 ? ' + ' : ''}
                {s.key} {s.value.toFixed(2)}
              </span>
            ))}
        </span>
      )}
    </div>
  );
}

/** The legend for the terms a result set has (nooa's four, or mnemo's six). */
export function ComponentLegend({ keys = ['rel', 'rec', 'imp', 'spread'] }: { keys?: readonly string[] }) {
  const shown = TERM_ORDER.filter((k): k is TermKey => keys.includes(k));
  return (
    <div className="legend">
      {shown.map((k) => (
        <span key={k}>
          <i className={`swatch c-${k}`} /> {TERM_LABEL[k]}
        </span>
      ))}
      <span>· each already weighted; they add up to the score</span>
    </div>
  );
}
