/**
 * Beliefs: entities; an entity's dimensions as distribution bars with entropy and mode; its delta
 * timeline with surprise, linked to the memories that caused each delta; a time-travel slider
 * (`#/beliefs?entity=…&at=…`: what the agent believed at T, as `mnemo beliefs get --at T`); and
 * alias proposals to apply or reject.
 */
import { useEffect, useMemo, useState } from 'react';
import { useBeliefDeltas, useBeliefEntities, useBeliefEntity } from '../../api/beliefs.js';
import { EmptyState, ErrorBox, fmtTime, Loading, QueryView } from '../../components/common.js';
import { platform } from '../../platform/browser.js';
import { buildHash, navigate, useRoute } from '../../state/router.js';
import { useUi } from '../../state/ui.js';
import { AliasPanel } from './AliasPanel.js';
import { CalibrationPanel } from './CalibrationPanel.js';
import { DeltaTimeline } from './DeltaTimeline.js';
import { DimensionCard } from './DimensionCard.js';
import '../../components/tables.css';
import './beliefs.css';
import { plural } from '../../api/errors.js';

function TimeSlider({ times, at, onChange }: { times: number[]; at: number | null; onChange: (t: number | null) => void }) {
  const lo = times[0] ?? 0;
  const hi = times[times.length - 1] ?? 0;
  const [value, setValue] = useState<number>(at ?? hi);
  useEffect(() => setValue(at ?? hi), [at, hi]);
  // The URL (and the query) follow the slider once it rests, so dragging stays smooth.
  useEffect(() => {
    if (value === (at ?? hi)) return;
    const t = setTimeout(() => onChange(value), 150);
    return () => clearTimeout(t);
  }, [value]);
  const prev = [...times].reverse().find((t) => t < value);
  const next = times.find((t) => t > value);
  if (times.length === 0) return null;
  return (
    <div className="time-slider" data-testid="belief-time">
      <span className="muted small">{fmtTime(lo)}</span>
      <input
        type="range"
        min={lo}
        max={hi}
        step={1}
        value={value}
        onChange={(e) => setValue(Number(e.target.value))}
        list="belief-ticks"
        data-testid="belief-slider"
        aria-label="beliefs as of"
      />
      <datalist id="belief-ticks">
        {times.slice(0, 400).map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      <span className="muted small">{fmtTime(hi)}</span>
      <span className="at-label">
        as of <strong>{at === null ? 'now' : fmtTime(at)}</strong>
      </span>
      <button onClick={() => prev !== undefined && onChange(prev)} disabled={prev === undefined} title="The previous delta">
        ◀
      </button>
      <button onClick={() => next !== undefined && onChange(next)} disabled={next === undefined} title="The next delta">
        ▶
      </button>
      <button onClick={() => onChange(null)} disabled={at === null}>
        Now
      </button>
    </div>
  );
}

export function BeliefsView() {
  const route = useRoute();
  const entity = route.params.get('entity');
  const atParam = route.params.get('at');
  const at = atParam !== null && atParam !== '' && Number.isFinite(Number(atParam)) ? Number(atParam) : null;
  const attribute = route.params.get('attr');
  const dark = useUi((s) => s.theme === 'dark');
  const [search, setSearch] = useState('');
  const entities = useBeliefEntities(search.trim());
  const view = useBeliefEntity(entity, at);
  const deltas = useBeliefDeltas(entity);
  const set = (patch: Record<string, string | number | null>) => navigate(buildHash('beliefs', null, { entity, at, attr: attribute, ...patch }), { replace: true });
  const times = useMemo(() => [...new Set((deltas.data?.deltas ?? []).map((d) => d.t))].sort((a, b) => a - b), [deltas.data]);
  useEffect(() => {
    if (view.data) platform.mark('mnemo:beliefs-rendered');
  }, [view.data]);

  return (
    <div className="beliefs-view">
      <aside className="entity-list">
        <input className="search" data-search placeholder="Find an entity  ( / )" value={search} onChange={(e) => setSearch(e.target.value)} data-testid="belief-search" />
        <QueryView query={entities} label="Listing entities…">
          {(list) => (
            <>
              <div className="muted small">{plural(list.total, 'entity', 'entities')}</div>
              <ul>
                {list.entities.map((e) => (
                  <li key={e.entity}>
                    <button className={`entity${e.entity === entity ? ' on' : ''}`} onClick={() => navigate(buildHash('beliefs', null, { entity: e.entity, at }), { replace: true })} data-testid="belief-entity" data-entity={e.entity}>
                      <span>{e.entity}</span>
                      <span className="muted small">
                        {e.dimensions} dims · {e.deltas} deltas
                      </span>
                      {e.aliases.length ? <span className="muted small">also {e.aliases.join(', ')}</span> : null}
                    </button>
                  </li>
                ))}
              </ul>
              {list.total === 0 && !search ? (
                <EmptyState title="No beliefs yet">
                  Beliefs come from observations: <span className="mono">mnemo beliefs ingest &lt;db&gt; observations.jsonl</span>, or <span className="mono">beliefs.observe</span> from an agent.
                </EmptyState>
              ) : null}
            </>
          )}
        </QueryView>
      </aside>
      <section className="belief-main">
        {!entity ? (
          <EmptyState title="Pick an entity">Its dimensions, how sure the agent is of each, and every observation that moved them.</EmptyState>
        ) : (
          <>
            <div className="belief-head">
              <h2>
                {entity}
                {view.data?.aliases.length ? <span className="muted small"> also known as {view.data.aliases.join(', ')}</span> : null}
              </h2>
              <TimeSlider times={times} at={at} onChange={(t) => set({ at: t })} />
            </div>
            <ErrorBox error={view.error ?? deltas.error} />
            {view.isLoading ? <Loading label="Reading beliefs…" /> : null}
            <div className="dimensions" data-testid="belief-dimensions" data-at={view.data?.at ?? ''}>
              {view.data?.dimensions.map((b) => (
                <DimensionCard key={b.attribute} b={b} onPick={(a) => set({ attr: a === attribute ? null : a })} />
              ))}
            </div>
            {deltas.data ? <DeltaTimeline deltas={deltas.data.deltas} attribute={attribute} at={at} dark={dark} onTravel={(t) => set({ at: t })} /> : deltas.error ? null : <Loading label="Reading the deltas…" />}
          </>
        )}
      </section>
      <aside className="belief-side">
        <CalibrationPanel dark={dark} />
        <AliasPanel />
      </aside>
    </div>
  );
}
