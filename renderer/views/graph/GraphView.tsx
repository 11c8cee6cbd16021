/** Graph: the typed edge graph, filtered by owner and edge type, with expand/collapse and search-to-focus. */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { GraphEdge, GraphNode, GraphView as GraphData } from '../../../core/api/contract/index.js';
import { call } from '../../api/client.js';
import { useGraph } from '../../api/hooks.js';
import { useViewInstant } from '../../api/time-travel.js';
import { useReadOnlyReason } from '../curation/read-only.js';
import { keys } from '../../api/keys.js';
import { EmptyState, ErrorBox, fmtNum, Loading, ownerLabel, useDelayed } from '../../components/common.js';
import { EdgeSwatch } from '../../graph/EdgeSwatch.js';
import { GraphCanvas } from '../../graph/GraphCanvas.js';
import { recallHighlight } from '../../graph/recallPaths.js';
import { TYPE_COLORS } from '../../graph/style.js';
import { buildHash, listParam, memoryHref, navigate, useRoute } from '../../state/router.js';
import { useUi } from '../../state/ui.js';
import { GraphSearch } from './GraphSearch.js';
import { PendingLink } from './PendingLink.js';
import { RecallPathsControl } from './RecallPathsControl.js';
import '../curation/curation.css';

export const EDGE_TYPES = ['derived_from', 'created_by', 'supports', 'contradicts', 'refines', 'related', 'causes', 'precedes', 'part_of', 'triggers'] as const;

export function mergeGraphs(base: GraphData | undefined, extra: (GraphData | undefined)[]): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();
  for (const g of [base, ...extra]) {
    if (!g) continue;
    for (const n of g.nodes) if (!nodes.has(n.id)) nodes.set(n.id, n);
    for (const e of g.edges) edges.set(`${e.src}|${e.dst}|${e.type}`, e);
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

/** How many of a recall's memories get their neighbourhood drawn (results and path sources). */
const RECALL_NEIGHBOURHOODS = 20;

export function GraphView() {
  const route = useRoute();
  const p = route.params;
  const focus = p.get('focus');
  const hops = Number(p.get('hops') ?? 2);
  const owner = p.get('owner') ?? '';
  const edgeTypes = listParam(p, 'edges');
  const limit = Number(p.get('limit') ?? 2000);
  const includeArchived = p.get('archived') === '1';
  const { at, ready } = useViewInstant();
  // Recall runs against the live store only, so a past graph draws no recall paths.
  const recallQuery = at === null ? (p.get('q') ?? '') : '';
  const readOnly = useReadOnlyReason();
  const dark = useUi((s) => s.theme === 'dark');
  const [selected, setSelected] = useState<string | null>(focus);
  const [expanded, setExpanded] = useState<string[]>([]);
  const [linkMode, setLinkMode] = useState(false);
  const [pending, setPending] = useState<{ src: string; dst: string } | null>(null);
  // A new focus (search, a link, "Focus here") also becomes the selection.
  useEffect(() => {
    if (focus) setSelected(focus);
  }, [focus]);
  // A new recall query without a focus drops the old selection, so the labels go to the recall's memories.
  useEffect(() => {
    if (recallQuery && !focus) setSelected(null);
  }, [recallQuery]);

  const setParams = (patch: Record<string, string | number | string[] | null>) => {
    const next: Record<string, string | number | string[] | null> = {
      focus,
      hops: hops === 2 ? null : hops,
      owner: owner || null,
      edges: edgeTypes,
      limit: limit === 2000 ? null : limit,
      archived: includeArchived ? '1' : null,
      q: recallQuery || null,
      at,
      ...patch,
    };
    setExpanded([]);
    navigate(buildHash('graph', null, next), { replace: true });
  };
  const filter = {
    ...(owner ? { owner } : {}),
    ...(edgeTypes.length ? { edge_types: edgeTypes as (typeof EDGE_TYPES)[number][] } : {}),
    include_archived: includeArchived,
    ...(at === null ? {} : { at }),
  };
  const input = { ...(focus ? { focus, hops } : {}), limit, ...filter };
  // With a recall query and no focus, the graph is the recall's neighbourhoods, not the overview.
  const base = useGraph(input, ready && (!recallQuery || !!focus));
  const recallInput = { query: recallQuery, k: 10, hops: Math.min(hops, 4), ...(owner ? { owner } : {}) };
  const recall = useQuery({ queryKey: keys.recall(recallInput), queryFn: () => call('recall.explain', recallInput), enabled: recallQuery !== '' });
  const highlight = useMemo(() => (recall.data ? recallHighlight(recall.data) : null), [recall.data]);
  const recallIds = recallQuery && !focus && highlight ? highlight.nodes.slice(0, RECALL_NEIGHBOURHOODS) : [];
  const extra = useQueries({
    queries: [...new Set([...recallIds, ...expanded])].map((id) => ({
      queryKey: at === null ? keys.graph({ focus: id, hops: 1, ...filter, limit: 500 }) : keys.pastGraph({ focus: id, hops: 1, ...filter, limit: 500 }, at),
      queryFn: () => call('graph.view', { focus: id, hops: 1, ...filter, limit: 500 }) })),
  });
  // Re-merge (and re-layout) only when an answer actually changed, not on every render.
  const extraKey = extra.map((q) => `${q.dataUpdatedAt}`).join(',');
  const extraData = extra.map((q) => q.data);
  const merged = useMemo(() => mergeGraphs(recallQuery && !focus ? undefined : base.data, extraData), [base.data, extraKey, recallQuery, focus]);
  const slow = useDelayed(base.isFetching || recall.isFetching, 1000);
  const waiting = !ready ? false : recallQuery && !focus ? recall.data === undefined && !recall.error : base.data === undefined && !base.error;
  const sel = merged.nodes.find((n) => n.id === selected) ?? null;
  const toggleEdge = (t: string) => setParams({ edges: edgeTypes.includes(t) ? edgeTypes.filter((x) => x !== t) : [...edgeTypes, t] });

  return (
    <div className="graph-view">
      <aside className="graph-controls">
        <GraphSearch onPick={(id) => setParams({ focus: id })} />
        {at === null ? (
          <RecallPathsControl query={recallQuery} onQuery={(q) => setParams({ q })} />
        ) : (
          <p className="muted small" data-testid="graph-recall-live-only">
            Recall paths are drawn on the live store only: go back to live to overlay a recall.
          </p>
        )}
        <div className="row">
          {focus ? (
            <button onClick={() => setParams({ focus: null })} title="Show the most important memories instead of one neighbourhood">
              Whole graph
            </button>
          ) : null}
          <label>
            hops{' '}
            <select value={hops} onChange={(e) => setParams({ hops: Number(e.target.value) })} disabled={!focus}>
              {[1, 2, 3, 4].map((h) => (
                <option key={h}>{h}</option>
              ))}
            </select>
          </label>
          <label>
            nodes{' '}
            <select value={limit} onChange={(e) => setParams({ limit: Number(e.target.value) })}>
              {[200, 500, 2000, 5000, 10000].map((h) => (
                <option key={h}>{h}</option>
              ))}
            </select>
          </label>
        </div>
        <label className="block">
          Owner scope
          <input value={owner} placeholder="everyone (or role, role@instance)" onChange={(e) => setParams({ owner: e.target.value || null })} data-testid="graph-owner" />
        </label>
        <label className="facet">
          <input type="checkbox" checked={includeArchived} onChange={() => setParams({ archived: includeArchived ? null : '1' })} /> include archived
        </label>
        <label className="facet" title={readOnly ?? 'Drag from one node to another to add a typed edge (undoable in History)'}>
          <input type="checkbox" checked={linkMode && !readOnly} disabled={!!readOnly} onChange={() => setLinkMode((v) => !v)} data-testid="graph-link-mode" /> link by dragging
        </label>
        <h4>Edge types {edgeTypes.length ? <button className="link" onClick={() => setParams({ edges: [] })}>all</button> : null}</h4>
        {EDGE_TYPES.map((t) => (
          <label key={t} className="facet">
            <input type="checkbox" checked={edgeTypes.length === 0 || edgeTypes.includes(t)} onChange={() => toggleEdge(t)} />
            <EdgeSwatch type={t} /> {t}
          </label>
        ))}
        <h4>Types</h4>
        <div className="legend vertical">
          {Object.entries(TYPE_COLORS).map(([t, c]) => (
            <span key={t}>
              <i className="swatch" style={{ background: c }} /> {t}
            </span>
          ))}
        </div>
        <p className="muted small">
          Each edge type has its own colour, line and arrow head. Solid: causal (full weight in spread); dashed or dotted: associative. Size: importance. The focus is ringed in yellow; it and its nearest neighbours are labelled, other labels appear as you zoom in. Orange: the spread paths of the recall query. Double-click a node to expand it.
        </p>
      </aside>
      <section className="graph-main">
        <div className="graph-status muted" data-testid="graph-status">
          {base.data && (!recallQuery || focus)
            ? `${merged.nodes.length.toLocaleString()} nodes · ${merged.edges.length.toLocaleString()} edges${base.data.truncated ? ` (of ${base.data.reachable.toLocaleString()} reachable; raise "nodes" to see more)` : ''}${focus ? ` · around ${merged.nodes.find((n) => n.id === focus)?.head.slice(0, 50) ?? focus.slice(0, 8)}` : ' · most important memories'}`
            : recallQuery && recall.data
              ? `${merged.nodes.length.toLocaleString()} nodes · ${merged.edges.length.toLocaleString()} edges · around the results of the recall`
              : ''}
          {recall.data ? ` · recall "${recallQuery}": ${recall.data.rows.length} results, ${Object.values(recall.data.paths).reduce((n, ps) => n + ps.length, 0)} spread paths in orange` : ''}
        </div>
        <ErrorBox error={base.error ?? recall.error} />
        {/* The graph's data on the way: say so rather than draw an empty canvas with "0 nodes". */}
        {waiting ? <Loading label={recallQuery && !focus ? 'Running the recall…' : 'Reading the graph…'} /> : slow ? <Loading label="Laying out the graph…" /> : null}
        {base.data && base.data.nodes.length === 0 ? (
          <EmptyState title={focus ? 'Nothing to draw around this memory' : 'No memories to draw'}>
            {focus ? 'The focus is hidden by the owner scope or filters; clear them, or pick another memory.' : 'The store is empty or the filters hide everything. Clear the owner scope and edge filters.'}
          </EmptyState>
        ) : null}
        <GraphCanvas
          nodes={merged.nodes}
          edges={merged.edges}
          focus={focus}
          selected={selected}
          highlight={highlight}
          dark={dark}
          onSelect={setSelected}
          onExpand={(id) => setExpanded((xs) => (xs.includes(id) ? xs : [...xs, id]))}
          linkMode={linkMode && !readOnly}
          onLink={(src, dst) => setPending({ src, dst })}
        />
        {pending ? <PendingLink src={merged.nodes.find((n) => n.id === pending.src)} dst={merged.nodes.find((n) => n.id === pending.dst)} onClose={() => setPending(null)} /> : null}
      </section>
      <aside className="graph-side">
        {sel ? (
          <div className="panel" data-testid="graph-selection" data-memory-id={sel.id}>
            <h3>
              <span className={`type-dot t-${sel.type}`} /> {sel.head}
            </h3>
            <p className="muted">
              {sel.type} · {ownerLabel(sel.owner)} · importance {fmtNum(sel.importance, 2)}
              {sel.depth !== null ? ` · ${sel.depth} hop${sel.depth === 1 ? '' : 's'} from focus` : ''}
            </p>
            <div className="col-actions">
              <a className="button" href={at === null ? memoryHref(sel.id) : `#${buildHash('memory', sel.id, { at })}`}>
                Open memory
              </a>
              <button onClick={() => setParams({ focus: sel.id })}>Focus here</button>
              {expanded.includes(sel.id) ? (
                <button onClick={() => setExpanded((xs) => xs.filter((x) => x !== sel.id))}>Collapse</button>
              ) : (
                <button onClick={() => setExpanded((xs) => [...xs, sel.id])} data-testid="graph-expand">
                  Expand neighbours
                </button>
              )}
            </div>
          </div>
        ) : (
          <p className="muted">Click a node to see it here; double-click to expand its neighbours.</p>
        )}
      </aside>
    </div>
  );
}
