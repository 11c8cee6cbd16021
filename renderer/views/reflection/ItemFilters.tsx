/**
 * Finding one's way through a step of hundreds of thousands of items: sort (plan order, cosine,
 * type, owner), filter (text, owner, type, cosine band, identical texts) and a repeatable random
 * sample, all done by the engine (review.items); the list then pages through what matched.
 */
import { useDeferredValue, useEffect, useState } from 'react';
import type { ItemQuery } from '../../api/reflect.js';

const SORTS: [NonNullable<ItemQuery['sort']>, string][] = [
  ['plan', 'plan order'],
  ['cos_desc', 'cosine, high first'],
  ['cos_asc', 'cosine, low first'],
  ['type', 'type'],
  ['owner', 'owner'],
];

const num = (s: string): number | undefined => (s.trim() === '' || !Number.isFinite(Number(s)) ? undefined : Number(s));

export function ItemFilters({ op, query, onChange, total, matched }: { op: string; query: ItemQuery; onChange: (q: ItemQuery) => void; total: number; matched: number }) {
  const [text, setText] = useState('');
  const [owner, setOwner] = useState('');
  const [type, setType] = useState('');
  const [cosMin, setCosMin] = useState('');
  const [cosMax, setCosMax] = useState('');
  const [sample, setSample] = useState('');
  const typed = useDeferredValue({ text, owner, type, cosMin, cosMax, sample });
  const hasCos = op === 'merge' || op === 'link';
  useEffect(() => {
    const cos_min = hasCos ? num(typed.cosMin) : undefined;
    const cos_max = hasCos ? num(typed.cosMax) : undefined;
    const n = num(typed.sample);
    onChange({
      ...query,
      text: typed.text.trim() || undefined,
      owner: typed.owner.trim() || undefined,
      type: typed.type.trim() || undefined,
      cos_min: cos_min !== undefined && cos_max !== undefined && cos_min > cos_max ? cos_max : cos_min,
      cos_max,
      sample: n !== undefined && n >= 1 ? Math.floor(n) : undefined,
    });
    // Only the typed fields drive this effect; sort, seed and the checkbox change the query directly.
  }, [typed.text, typed.owner, typed.type, typed.cosMin, typed.cosMax, typed.sample, hasCos]);
  const set = (patch: Partial<ItemQuery>) => onChange({ ...query, ...patch });
  return (
    <div className="item-filters" data-testid="reflection-filters">
      <label>
        sort{' '}
        <select value={query.sort ?? 'plan'} onChange={(e) => set({ sort: e.target.value as ItemQuery['sort'] })} data-testid="reflection-sort">
          {SORTS.filter(([k]) => hasCos || !k.startsWith('cos')).map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <input type="search" placeholder="text in either memory" value={text} onChange={(e) => setText(e.target.value)} aria-label="filter by text" data-testid="reflection-filter-text" />
      <input placeholder="owner" value={owner} onChange={(e) => setOwner(e.target.value)} aria-label="filter by owner" size={10} data-testid="reflection-filter-owner" />
      <input placeholder="type" value={type} onChange={(e) => setType(e.target.value)} aria-label="filter by memory type" size={8} data-testid="reflection-filter-type" />
      {hasCos ? (
        <span className="cos-band">
          cos{' '}
          <input type="number" step="0.01" min={-1} max={1} placeholder="min" value={cosMin} onChange={(e) => setCosMin(e.target.value)} aria-label="lowest cosine" data-testid="reflection-filter-cos-min" />
          –
          <input type="number" step="0.01" min={-1} max={1} placeholder="max" value={cosMax} onChange={(e) => setCosMax(e.target.value)} aria-label="highest cosine" data-testid="reflection-filter-cos-max" />
        </span>
      ) : null}
      {op === 'link' ? (
        <label title="Links whose two memories carry the same (or nearly the same) text, each saying why they were not merged">
          <input type="checkbox" checked={query.not_merged ?? false} onChange={(e) => set({ not_merged: e.target.checked || undefined })} data-testid="reflection-filter-identical" /> identical texts
        </label>
      ) : null}
      <label>
        sample{' '}
        <input type="number" min={1} placeholder="all" value={sample} onChange={(e) => setSample(e.target.value)} aria-label="random sample size" size={6} data-testid="reflection-sample" />
      </label>
      {query.sample ? (
        <button onClick={() => set({ seed: ((query.seed ?? 0) + 1) % 2 ** 31 })} title="Draw another random sample" data-testid="reflection-resample">
          ↻ another sample
        </button>
      ) : null}
      <span className="muted small" data-testid="reflection-matched" data-matched={matched}>
        {matched === total ? `${total.toLocaleString()} items` : `${matched.toLocaleString()} of ${total.toLocaleString()} items`} · keys: j / k move, a / r accept / reject
      </span>
    </div>
  );
}
