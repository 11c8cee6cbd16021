/** Memories: facet filters, search, a virtualized sortable table, multi-select with bulk archive and tag. */
import { useCallback, useEffect, useState } from 'react';
import { useFacets } from '../../api/hooks.js';
import { useViewInstant } from '../../api/time-travel.js';
import { buildHash, navigate, useRoute } from '../../state/router.js';
import { filtersFromParams, filtersToHash, type MemoryFilters, type Range } from './filters.js';
import { toFacetInput } from './facet-scope.js';
import { MemoryTable } from './MemoryTable.js';
import { BulkBar } from './BulkBar.js';
import { plural } from '../../api/errors.js';
import { ErrorBox, Loading, PendingCount } from '../../components/common.js';

const TYPES = ['info', 'skill', 'episode', 'intent', 'todo', 'reflection', 'scratch'];

function toggle(xs: string[], x: string): string[] {
  return xs.includes(x) ? xs.filter((v) => v !== x) : [...xs, x];
}

const fmtRange = (r: Range, unit: (v: number) => string = String) =>
  r.min !== null && r.max !== null ? `${unit(r.min)} – ${unit(r.max)}` : r.min !== null ? `≥ ${unit(r.min)}` : `< ${unit(r.max!)}`;

function duration(s: number): string {
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86400) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} d`;
}

/** The Overview's drill-downs (edge type, retention, importance, idle time) as removable chips. */
function DrillChips({ filters, set }: { filters: MemoryFilters; set: (patch: Partial<MemoryFilters>) => void }) {
  const chips: [string, () => void][] = [];
  for (const e of filters.edges) chips.push([`edge: ${e}`, () => set({ edges: filters.edges.filter((x) => x !== e) })]);
  if (filters.retention) chips.push([`retention ${fmtRange(filters.retention, (v) => String(Number(v.toFixed(4))))}`, () => set({ retention: null })]);
  if (filters.importance) chips.push([`importance ${fmtRange(filters.importance, (v) => String(Number(v.toFixed(2))))}`, () => set({ importance: null })]);
  if (filters.idle) chips.push([`last access ${fmtRange(filters.idle, duration)} ago`, () => set({ idle: null })]);
  if (!chips.length) return null;
  return (
    <section data-testid="drill-chips">
      <h4>From the Overview</h4>
      <div className="chips">
        {chips.map(([label, clear]) => (
          <button key={label} className="tag on" onClick={clear} title="Remove this filter">
            {label} ✕
          </button>
        ))}
      </div>
    </section>
  );
}

export function MemoriesView() {
  const route = useRoute();
  const filters = filtersFromParams(route.params);
  // The first page of rows goes first; the facet counts follow once it is on screen.
  const [listReady, setListReady] = useState(false);
  const { ready } = useViewInstant();
  const facets = useFacets(toFacetInput(filters), listReady && ready, filters.at);
  const onReady = useCallback(() => setListReady(true), []);
  const set = (patch: Partial<MemoryFilters>) => navigate(filtersToHash({ ...filters, ...patch }), { replace: true });
  const [text, setText] = useState(filters.q);
  useEffect(() => setText(filters.q), [filters.q]);
  // Search as you type, debounced so a fast typist sends one query.
  useEffect(() => {
    if (text === filters.q) return;
    const t = setTimeout(() => set({ q: text }), 250);
    return () => clearTimeout(t);
  }, [text]);

  // Until the counts arrive a facet shows "…", never a 0 that is not true yet.
  const counting = facets.data === undefined && !facets.error && ready;
  const count = (list: { value: string; n: number }[] | undefined, v: string) =>
    counting ? <PendingCount /> : <span className="n">{facets.data ? (list?.find((f) => f.value === v)?.n ?? 0) : '—'}</span>;
  return (
    <div className="memories-view">
      <aside className="facets" aria-label="Filters" aria-busy={counting}>
        <input
          className="search"
          data-search
          data-testid="memory-search"
          placeholder="Search title, content, id  ( / )"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <DrillChips filters={filters} set={set} />
        <a className="small" href={`#${buildHash('duplicates')}`} data-testid="open-duplicates" title="Groups of memories with the same text, to merge or dismiss">
          Find duplicates…
        </a>
        <section>
          <h4>State</h4>
          {(['live', 'archived', 'all'] as const).map((a) => (
            <label key={a} className="facet">
              <input type="radio" name="archived" checked={filters.archived === a} onChange={() => set({ archived: a })} /> {a}
              {a === 'all' ? null : counting ? <PendingCount /> : <span className="n">{facets.data ? (a === 'live' ? facets.data.live : facets.data.archived) : '—'}</span>}
            </label>
          ))}
        </section>
        <section>
          <h4>Type</h4>
          {TYPES.map((t) => (
            <label key={t} className="facet">
              <input type="checkbox" checked={filters.types.includes(t)} onChange={() => set({ types: toggle(filters.types, t) })} data-testid={`facet-type-${t}`} />
              <span className={`type-dot t-${t}`} /> {t}
              {count(facets.data?.types, t)}
            </label>
          ))}
        </section>
        <section>
          <h4>Owner</h4>
          {facets.error ? <ErrorBox error={facets.error} /> : counting ? <Loading label="Counting owners…" /> : null}
          {(facets.data?.owners ?? []).slice(0, 30).map((o) => (
            <label key={o.value} className="facet">
              <input type="checkbox" checked={filters.owners.includes(o.value)} onChange={() => set({ owners: toggle(filters.owners, o.value) })} />
              {o.value === '' ? <em>(unowned)</em> : o.value}
              <span className="n">{o.n}</span>
            </label>
          ))}
        </section>
        <section>
          <h4>Todo status</h4>
          {['open', 'done', 'dropped'].map((s) => (
            <label key={s} className="facet">
              <input type="checkbox" checked={filters.statuses.includes(s)} onChange={() => set({ statuses: toggle(filters.statuses, s) })} /> {s}
              {count(facets.data?.statuses, s)}
            </label>
          ))}
        </section>
        <section>
          <h4>
            Tags{' '}
            {facets.data?.tags_sampled ? (
              <span className="muted" title="Counting tags reads every memory's JSON; on large stores the counts cover the most recently added memories.">
                (latest {facets.data.tags_sampled.toLocaleString()})
              </span>
            ) : null}
          </h4>
          <div className="tag-cloud">
            {(facets.data?.tags ?? []).slice(0, 40).map((t) => (
              <button key={t.value} className={`tag${filters.tags.includes(t.value) ? ' on' : ''}`} onClick={() => set({ tags: toggle(filters.tags, t.value) })} title={plural(t.n, 'memory', 'memories')}>
                {t.value}
              </button>
            ))}
          </div>
        </section>
        {filters.types.length + filters.owners.length + filters.statuses.length + filters.tags.length + filters.edges.length > 0 ||
        filters.q ||
        filters.archived !== 'live' ||
        filters.retention ||
        filters.importance ||
        filters.idle ? (
          <button className="link" onClick={() => navigate(filtersToHash({ ...filtersFromParams(new URLSearchParams()), at: filters.at }), { replace: true })}>
            Clear all filters
          </button>
        ) : null}
      </aside>
      <section className="table-pane">
        <BulkBar />
        <MemoryTable filters={filters} ready={ready} onReady={onReady} onSort={(sort) => set(sort === filters.sort ? { dir: filters.dir === 'asc' ? 'desc' : 'asc' } : { sort, dir: 'desc' })} />
      </section>
    </div>
  );
}
