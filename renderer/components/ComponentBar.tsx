/**
 * A stacked bar of what made a recall score: relevance, recency, importance and spread, each drawn
 * as its weighted share (1.0·rel + 0.5·rec + 0.5·imp + spread, spread already scaled by γ). The raw
 * stored values ride on data attributes so tests and tooltips show exactly what the engine stored.
 */
export interface Components {
  rel: number;
  rec: number;
  imp: number;
  spread: number;
}

export const COMPONENT_WEIGHTS = { rel: 1.0, rec: 0.5, imp: 0.5, spread: 1.0 } as const;
const ORDER = ['rel', 'rec', 'imp', 'spread'] as const;
export const COMPONENT_LABEL = { rel: 'relevance', rec: 'recency', imp: 'importance', spread: 'spread' } as const;

export function ComponentBar({ c, scale = 2.5, compact = false }: { c: Components | null; scale?: number; compact?: boolean }) {
  if (!c) return <span className="muted">no components</span>;
  const title = ORDER.map((k) => `${COMPONENT_LABEL[k]} ${c[k].toFixed(4)}`).join(' · ');
  return (
    <div
      className={`cbar${compact ? ' compact' : ''}`}
      data-testid="component-bar"
      data-rel={c.rel}
      data-rec={c.rec}
      data-imp={c.imp}
      data-spread={c.spread}
      title={title}
      // An image of the four numbers: a plain div may not carry a label (axe: aria-prohibited-attr).
      role="img"
      aria-label={title}
    >
      {ORDER.map((k) => {
        const w = Math.max(0, c[k] * COMPONENT_WEIGHTS[k]);
        return <span key={k} className={`cseg c-${k}`} style={{ width: `${Math.min(100, (w / scale) * 100)}%` }} />;
      })}
    </div>
  );
}

export function ComponentLegend() {
  return (
    <div className="legend">
      {ORDER.map((k) => (
        <span key={k}>
          <i className={`swatch c-${k}`} /> {COMPONENT_LABEL[k]}
          {COMPONENT_WEIGHTS[k] !== 1 ? ` ×${COMPONENT_WEIGHTS[k]}` : ''}
        </span>
      ))}
    </div>
  );
}
