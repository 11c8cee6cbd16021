/**
 * The Scorer lab (`#/lab`): a query set (the store's logged recalls, or a list typed or pasted)
 * ranked under two profiles. It shows the two rankings of one query side by side with each
 * memory's rank move and the term that moved it, per-query deltas, the metrics of both profiles,
 * a sweep of one knob, a fit of every numeric knob to the query set, and saving a profile with its
 * diff. Everything here reads, except Save.
 * (A benchmark split is not offered as a source: LoCoMo cannot be shipped with the app.)
 */
import { useEffect, useMemo, useState } from 'react';
import type { LabCompareResult, LabQuery } from '../../../core/api/contract/lab.js';
import { compareChunks, useChunkedRun, useLoggedQueries, useProfiles } from '../../api/lab.js';
import { EmptyState, ErrorBox } from '../../components/common.js';
import { navigate, useRoute } from '../../state/router.js';
import { FitPanel } from './FitPanel.js';
import { LABEL_SOURCES, labHash, readLabParams, typedQueries, type LabParams } from './params.js';
import { MetricsTable, QueryTable } from './QueryTable.js';
import { RunProgress } from './RunProgress.js';
import { SaveProfilePanel } from './SaveProfilePanel.js';
import { SideBySide } from './SideBySide.js';
import { SweepPanel } from './SweepPanel.js';

/** The lab runs at most this many queries (the logged set can be longer). */
const MAX_RUN_QUERIES = 200;
/** lab.sweep takes at most 50 queries a call; a sweep uses the first 50 of the set. */
const MAX_SWEEP_QUERIES = 50;

export function LabView() {
  const route = useRoute();
  const params = readLabParams(route.params);
  const go = (next: Partial<LabParams>) => navigate(labHash({ ...params, ...next }), { replace: true });
  const profiles = useProfiles();
  const logged = useLoggedQueries();
  const [typed, setTyped] = useState('');
  const run = useChunkedRun<LabCompareResult>();

  const queries: LabQuery[] = useMemo(() => {
    if (params.src === 'typed') return typedQueries(typed).map((query) => ({ query, owner: null }));
    // The same query from several readers under one scope ranks the same: it is asked once.
    const seen = new Set<string>();
    return (logged.data ?? [])
      .filter((q) => !seen.has(`${q.query}\u0000${q.owner ?? ''}`) && !!seen.add(`${q.query}\u0000${q.owner ?? ''}`))
      .slice(0, MAX_RUN_QUERIES)
      .map((q) => ({ query: q.query, owner: q.owner }));
  }, [params.src, typed, logged.data]);

  const results = run.results.flatMap((r) => r.queries);
  const first = run.results[0];
  const selected = results.find((r) => r.query === params.sel) ?? results[0] ?? null;
  const start = () => void run.start(compareChunks(queries, { a: params.a, b: params.b, k: params.k, ...(params.labels ? { labels: params.labels } : {}) }));
  // A new pair of profiles or k makes the old results misleading: they clear until run again.
  useEffect(() => run.cancel(), [params.a, params.b, params.k, params.labels]);

  const names = profiles.data?.map((p) => p.name) ?? [params.a, params.b];
  const picker = (side: 'a' | 'b') => (
    <label>
      {side.toUpperCase()}{' '}
      <select value={params[side]} onChange={(e) => go({ [side]: e.target.value, sel: null })} data-testid={`lab-profile-${side}`}>
        {[...new Set([...names, params[side]])].map((n) => (
          <option key={n}>{n}</option>
        ))}
      </select>
    </label>
  );

  return (
    <div className="lab-view" data-testid="lab-view">
      <section className="panel">
        <div className="row">
          <div className="toggle" role="radiogroup" aria-label="query set">
            <button type="button" className={params.src === 'logged' ? 'on' : ''} onClick={() => go({ src: 'logged' })} data-testid="lab-src-logged">
              Logged recalls
            </button>
            <button type="button" className={params.src === 'typed' ? 'on' : ''} onClick={() => go({ src: 'typed' })} data-testid="lab-src-typed">
              Typed list
            </button>
          </div>
          {picker('a')}
          {picker('b')}
          <label>
            k <input type="number" min={1} max={50} value={params.k} onChange={(e) => go({ k: Number(e.target.value) })} style={{ width: 56 }} data-testid="lab-k" />
          </label>
          <label>
            labels{' '}
            <select value={params.labels ?? ''} onChange={(e) => go({ labels: (e.target.value || null) as LabParams['labels'] })} data-testid="lab-labels">
              <option value="">default (used later, else logged top k)</option>
              {LABEL_SOURCES.map((l) => (
                <option key={l}>{l}</option>
              ))}
            </select>
          </label>
          <button className="primary" onClick={start} disabled={run.running || queries.length === 0} data-testid="lab-run">
            Compare {queries.length} {queries.length === 1 ? 'query' : 'queries'}
          </button>
          <RunProgress run={run} unit="batches" />
        </div>
        {params.src === 'typed' ? (
          <textarea className="lab-typed" rows={4} placeholder="One query per line" value={typed} onChange={(e) => setTyped(e.target.value)} data-testid="lab-typed" />
        ) : null}
        <ErrorBox error={profiles.error ?? logged.error ?? run.error} />
      </section>
      {queries.length === 0 ? (
        <EmptyState title={params.src === 'logged' ? 'No logged recalls yet' : 'Type some queries'}>
          {params.src === 'logged' ? 'Recall something (the Recall console, an agent, or mnemo recall) and its queries become the lab’s query set; or type a list.' : 'One query per line; each is ranked under both profiles.'}
        </EmptyState>
      ) : null}
      {selected && first ? (
        <>
          <h3 className="lab-selected">
            “{selected.query}” <span className="muted small">{selected.labels.length ? `${selected.labels.length} labelled` : 'no labels'}</span>
          </h3>
          <SideBySide result={selected} a={first.a} b={first.b} />
          <div className="two-col">
            <section className="panel">
              <h3>Per-query deltas</h3>
              <div className="lab-scroll">
                <QueryTable results={results} selected={selected.query} onSelect={(q) => go({ sel: q })} k={first.k} />
              </div>
            </section>
            <section className="panel">
              <h3>Metrics</h3>
              <MetricsTable results={results} a={first.a} b={first.b} k={first.k} />
              <p className="muted small" data-testid="lab-label-rule">
                {first.label_rule}
              </p>
            </section>
          </div>
        </>
      ) : null}
      {queries.length ? (
        <div className="two-col">
          <SweepPanel queries={queries.slice(0, MAX_SWEEP_QUERIES)} profile={params.b} k={params.k} knob={params.knob} labels={params.labels} onKnob={(knob) => go({ knob })} />
          <SaveProfilePanel base={params.b} knob={params.knob} onSaved={(name) => go({ b: name })} />
        </div>
      ) : null}
      {queries.length ? <FitPanel queries={queries} slots={{ a: params.a, b: params.b }} k={params.k} labels={params.labels} onSaved={(name) => go({ b: name })} /> : null}
    </div>
  );
}
