/**
 * The Recall console: query, owner scope, k and hops; ranked results with component bars; the spread
 * paths that fed a result drawn on its graph neighbourhood; "why not?" for any memory; and a toggle
 * between explain (a dry run that logs nothing) and recall (logged as an access by the workbench).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ExplainResult } from '../../../core/api/contract/index.js';
import { call } from '../../api/client.js';
import { keys } from '../../api/keys.js';
import { ComponentBar, ComponentLegend } from '../../components/ComponentBar.js';
import { EmptyState, ErrorBox, ownerLabel } from '../../components/common.js';
import { recallHash, useLastRecall } from '../../state/last-recall.js';
import { memoryHref, navigate, useRoute } from '../../state/router.js';
import { hashFor, readParams } from './params.js';
import { SpreadGraph } from './SpreadGraph.js';
import { WhyNotPanel } from './WhyNotPanel.js';
import { PastRecallNote } from './PastRecallNote.js';
import { RankingStatus } from './RankingStatus.js';
import { WaitedFor } from './WaitedFor.js';
import { waited, type Waited } from './waited.js';

export function RecallView() {
  const route = useRoute();
  const params = readParams(route.params);
  const [form, setForm] = useState(params);
  const { last, remember } = useLastRecall();
  // Follow the URL when it changes (back/forward, a link from another view).
  useEffect(() => setForm(params), [route.hash]);
  // Coming back to Recall with no query in the URL shows the last query again; a query run here
  // becomes the last one (for this view and for "why not in my last query?" elsewhere).
  useEffect(() => {
    if (!route.params.has('q') && last?.q) navigate(recallHash(last, { at: params.at }), { replace: true });
    else if (params.q.trim()) remember({ q: params.q, k: params.k, hops: params.hops, owner: params.owner });
  }, [route.hash]);
  const input = { query: params.q, k: params.k, hops: params.hops, ...(params.owner ? { owner: params.owner } : {}) };
  // With an instant set, Explain ranks the store as it was then, at that instant's clock; a logged
  // recall writes to the live store, so it waits for "Back to live" (PastRecallNote says so).
  const past = params.at !== null;
  const explainInput = { ...input, ...(params.at !== null ? { at: params.at } : {}) };
  const explain = useQuery({ queryKey: keys.recall(explainInput), queryFn: () => waited(() => call('recall.explain', explainInput)), enabled: params.mode === 'explain' && params.q.trim() !== '' });
  const run = useMutation({ mutationFn: (i: typeof input) => waited(() => call('recall.run', i)) });
  const result: Waited<ExplainResult> | undefined = params.mode === 'recall' ? run.data : explain.data;
  const error = params.mode === 'recall' ? run.error : explain.error;
  const qc = useQueryClient();
  // "Stop waiting" during a long first index build: the view lets go of the answer (the engine
  // finishes the build regardless), until the next query.
  const [stopped, setStopped] = useState(false);
  useEffect(() => setStopped(false), [route.hash]);
  const stopWaiting = () => {
    setStopped(true);
    void qc.cancelQueries({ queryKey: keys.recall(explainInput) });
    run.reset();
  };

  const submit = (e?: { preventDefault(): void }) => {
    e?.preventDefault();
    const next = { ...form, sel: null };
    // The same query again after "Stop waiting": the address does not change, so ask again here.
    if (stopped && next.mode === 'explain' && hashFor(next) === hashFor({ ...params, sel: null })) void explain.refetch();
    setStopped(false);
    navigate(hashFor(next));
    if (!past && next.mode === 'recall' && next.q.trim()) run.mutate({ query: next.q, k: next.k, hops: next.hops, ...(next.owner ? { owner: next.owner } : {}) });
  };
  const select = (id: string) => navigate(hashFor({ ...params, sel: id }), { replace: true });
  const sel = result?.rows.find((r) => r.id === params.sel) ?? null;
  // Bars share one scale (the top score), so longer is higher and each bar is its score.
  const scale = Math.max(0.001, ...(result?.rows.map((r) => r.score) ?? []));
  const termKeys = result?.rows[0] ? Object.keys(result.rows[0].terms) : undefined;

  return (
    <div className="recall-view">
      <form className="recall-form" onSubmit={submit}>
        <input data-search data-testid="recall-query" className="grow" placeholder="What would the agent ask?  ( / )" value={form.q} onChange={(e) => setForm({ ...form, q: e.target.value })} />
        <label>
          owner <input value={form.owner} placeholder="everyone" size={12} onChange={(e) => setForm({ ...form, owner: e.target.value })} data-testid="recall-owner" />
        </label>
        <label>
          k <input type="number" min={1} max={1000} value={form.k} onChange={(e) => setForm({ ...form, k: Number(e.target.value) })} style={{ width: 64 }} data-testid="recall-k" />
        </label>
        <label>
          hops{' '}
          <select value={form.hops} onChange={(e) => setForm({ ...form, hops: Number(e.target.value) })} data-testid="recall-hops">
            {[0, 1, 2, 3, 4].map((h) => (
              <option key={h}>{h}</option>
            ))}
          </select>
        </label>
        <div className="toggle" role="radiogroup" aria-label="mode">
          <button type="button" className={form.mode === 'explain' ? 'on' : ''} onClick={() => setForm({ ...form, mode: 'explain' })} title="Dry run: nothing is logged" data-testid="mode-explain">
            Explain
          </button>
          <button
            type="button"
            className={form.mode === 'recall' ? 'on' : ''}
            onClick={() => setForm({ ...form, mode: 'recall' })}
            disabled={past}
            title={past ? 'A logged recall writes to the live store: go back to live to run one' : 'Real recall: logged as an access by the workbench reader'}
            data-testid="mode-recall"
          >
            Recall
          </button>
        </div>
        <button type="submit" className="primary" data-testid="recall-submit">
          {form.mode === 'recall' ? 'Recall (logged)' : 'Explain'}
        </button>
      </form>
      <ErrorBox error={error} />
      {params.at !== null ? <PastRecallNote at={params.at} query={params.q} /> : null}
      <RankingStatus pending={explain.isFetching || run.isPending} at={params.at} onStopWaiting={stopWaiting} />
      {stopped && !result ? <p className="muted" data-testid="ranking-stopped">Stopped waiting. The index goes on building in the background; run the query again in a moment.</p> : null}
      {!params.q.trim() ? (
        <EmptyState title="Ask the store something">
          Type a query the way an agent would, pick an owner scope, k and hops, then press Enter. Explain is a dry run that changes nothing; Recall logs an access for each returned memory (reader "workbench").
        </EmptyState>
      ) : null}
      {!past && params.mode === 'recall' && params.q && !run.data && !run.isPending ? <p className="muted">Press “Recall (logged)” to run this query for real.</p> : null}
      {result ? (
        <div className="recall-results">
          <section className="panel">
            <div className="results-head">
              <strong>{result.rows.length} results</strong>
              <span className="muted">
                {' '}
                {/* The parts add up: ranked = candidates (dense + keyword + both) + those only spread reached. */}
                <span data-testid="recall-stats" data-ranked={result.stats.ranked} data-candidates={result.stats.candidates}>
                  · of {result.stats.ranked.toLocaleString()} ranked: {result.stats.candidates.toLocaleString()} candidates ({result.stats.dense} dense, {result.stats.sparse} keyword, {result.stats.both} both) + {result.stats.spread_only} reached only by spread
                </span>{' '}
                · {result.profile} · <WaitedFor result={result} />
                {params.mode === 'recall' ? ` · logged ${(result as { logged?: number }).logged ?? 0} accesses` : ' · dry run'}
              </span>
              <ComponentLegend {...(termKeys ? { keys: termKeys } : {})} />
            </div>
            {result.rows.length === 0 ? <EmptyState title="Nothing ranked">The query has no words, or nothing visible to this owner scope is live.</EmptyState> : null}
            <table className="results">
              <thead>
                <tr>
                  <th>#</th>
                  <th>score</th>
                  <th>source</th>
                  <th className="wide">score = {(termKeys ?? ['rel', 'rec', 'imp', 'spread']).join(' + ')}</th>
                  <th>memory</th>
                  <th>owner</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {result.rows.map((r) => (
                  <tr
                    key={r.id}
                    data-testid="recall-result"
                    data-memory-id={r.id}
                    data-rank={r.rank}
                    data-score={r.score}
                    className={r.id === params.sel ? 'selected' : ''}
                    onClick={() => select(r.id)}
                    // Rows take focus (Tab), and Enter opens the breakdown beside the table, as a click does.
                    tabIndex={0}
                    onKeyDown={(e) => {
                      if (e.key !== 'Enter' || e.target !== e.currentTarget) return;
                      e.preventDefault();
                      select(r.id);
                    }}
                  >
                    <td>#{r.rank + 1}</td>
                    <td className="mono">{r.score.toFixed(4)}</td>
                    <td>
                      <span className={`source s-${r.source}`}>{r.source}</span>
                    </td>
                    <td>
                      <ComponentBar terms={r.terms} scale={scale} />
                    </td>
                    <td className="head">
                      <span className={`type-dot t-${r.type}`} /> <a href={memoryHref(r.id)} onClick={(e) => e.stopPropagation()}>{r.head}</a>
                    </td>
                    <td className="small">{ownerLabel(r.owner)}</td>
                    <td className="nowrap small">{(result.paths[r.id]?.length ?? 0) > 0 ? `${result.paths[r.id]!.length} path${result.paths[r.id]!.length > 1 ? 's' : ''}` : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          <aside className="recall-side">
            {sel ? (
              <SpreadGraph result={result} target={sel.id} owner={params.owner} />
            ) : (
              <p className="muted panel">Click a result (or focus it and press Enter) to see, on its graph neighbourhood, the spread paths that fed it.</p>
            )}
            <WhyNotPanel params={params} onTarget={(id) => navigate(hashFor({ ...params, why: id }), { replace: true })} />
          </aside>
        </div>
      ) : null}
    </div>
  );
}
