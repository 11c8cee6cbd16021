/** The spread paths that fed one recall result, highlighted on that memory's graph neighbourhood. */
import type { ExplainResult, SpreadPath } from '../../../core/api/contract/index.js';
import { useGraph } from '../../api/hooks.js';
import { ErrorBox, fmtNum } from '../../components/common.js';
import { edgeId, GraphCanvas, type Highlight } from '../../graph/GraphCanvas.js';
import { graphHref, memoryHref } from '../../state/router.js';
import { useUi } from '../../state/ui.js';
import { TERM_LABEL, type TermKey } from '../../components/score-terms.js';

/** Every edge that carried activation into `target`, following the paths back through ranked rows. */
export function spreadHighlight(paths: Record<string, SpreadPath[]>, target: string): Highlight {
  const nodes = new Set<string>([target]);
  const edges = new Set<string>();
  const todo = [target];
  while (todo.length) {
    const id = todo.pop()!;
    for (const p of paths[id] ?? []) {
      edges.add(edgeId({ src: p.from, dst: id, type: p.edge_type }));
      if (!nodes.has(p.from)) {
        nodes.add(p.from);
        todo.push(p.from);
      }
    }
  }
  return { nodes: [...nodes], edges: [...edges] };
}

/** "rel 0.40 + kw 1.92 + …": the row's own terms (no spread), named as the bars name them, that add up to its score. */
export function ownTerms(terms: ExplainResult['rows'][number]['terms']): string {
  const parts = Object.entries(terms).filter(([k, v]) => k !== 'spread' && v !== 0);
  return parts.length ? parts.map(([k, v]) => `${TERM_LABEL[k as TermKey] ?? k} ${fmtNum(v, 4)}`).join(' + ') : 'zero';
}

export function SpreadGraph({ result, target, owner }: { result: ExplainResult; target: string; owner: string }) {
  const dark = useUi((s) => s.theme === 'dark');
  const hl = spreadHighlight(result.paths, target);
  const g = useGraph({ focus: target, hops: Math.max(1, Math.min(result.hops, 2)), limit: 400, include_archived: true, ...(owner ? { owner } : {}) });
  const paths = result.paths[target] ?? [];
  const row = result.rows.find((r) => r.id === target);
  const nodes = g.data?.nodes ?? [];
  return (
    <section className="panel" data-testid="spread-panel" data-memory-id={target} data-paths={paths.length}>
      <h3>
        Spread into <a href={memoryHref(target)}>{row?.head.slice(0, 60) ?? target}</a>
      </h3>
      <ErrorBox error={g.error} />
      <GraphCanvas nodes={nodes} edges={g.data?.edges ?? []} focus={target} highlight={hl} dark={dark} height={300} />
      {paths.length === 0 ? (
        <p className="muted small" data-testid="no-spread">
          No spread reached this memory{result.hops === 0 ? ' (hops is 0)' : ''}: its score{row ? ` ${fmtNum(row.score, 4)}` : ''} is {row ? ownTerms(row.terms) : 'its own terms'}.
        </p>
      ) : (
        <table className="paths small">
          <thead>
            <tr>
              <th>from</th>
              <th>edge</th>
              <th>hop</th>
              <th>why this factor</th>
              <th>contribution</th>
            </tr>
          </thead>
          <tbody>
            {paths.map((p, i) => (
              <tr key={i} data-testid="spread-path">
                <td>
                  <a href={memoryHref(p.from)} title={p.from}>
                    {(p.from_head || result.rows.find((r) => r.id === p.from)?.head || p.from.slice(0, 8)).slice(0, 48)}
                  </a>
                </td>
                <td>
                  {p.edge_type} · w {fmtNum(p.weight, 3)} · ×{p.type_factor}
                </td>
                <td>{p.hop}</td>
                <td className="muted">{p.rule}</td>
                <td className="mono">{p.contribution.toFixed(4)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <a className="small" href={graphHref(target)}>
        Open in the Graph view
      </a>
    </section>
  );
}
