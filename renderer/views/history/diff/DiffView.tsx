/**
 * What changed between two instants (`#/history/diff?from=…&to=…`): counts per kind, then the
 * memories and the edges that differ, each with its writers. The engine caps each list; "Show
 * more" asks for the next page's worth, so a 100k store's busy day stays a short first answer.
 */
import { useEffect } from 'react';
import { useStoreDiff } from '../../../api/time-travel.js';
import { plural } from '../../../api/errors.js';
import { EmptyState, ErrorBox, Loading } from '../../../components/common.js';
import { InstantError } from '../../../components/time/InstantError.js';
import { platform } from '../../../platform/browser.js';
import { fmtInstant } from '../../../state/instant.js';
import { buildHash, navigate, useRoute } from '../../../state/router.js';
import { DiffCounts } from './DiffCounts.js';
import { DIFF_MAX, DIFF_PAGE, diffHash, diffParams } from './diff-params.js';
import { DiffRange } from './DiffRange.js';
import { EdgeDiffRows } from './EdgeDiffRows.js';
import { MemoryDiffRows } from './MemoryDiffRows.js';
import '../../../components/time/time-control.css';
import './diff.css';

export function DiffView() {
  const route = useRoute();
  const d = diffParams(route.params, platform.epochSeconds());
  // A link without both instants gets them written in, so the screen always has an address to share.
  useEffect(() => {
    if (d.completed) navigate(diffHash(d), { replace: true });
  }, [d.completed]);
  const q = useStoreDiff(d.completed ? null : { from: d.from, to: d.to, limit: d.limit });
  const go = (patch: Partial<typeof d>) => navigate(diffHash({ ...d, ...patch }), { replace: true });
  const diff = q.data;
  const memories = diff ? diff.memories.filter((m) => m.kind !== 'accessed' && (d.kind === null || m.kind === d.kind)) : [];
  const edges = diff ? diff.edges.filter((e) => d.kind === null || e.kind === d.kind || (d.kind === 'edge-changed' && e.kind === 'changed')) : [];
  const showMemories = d.kind === null || !['linked', 'unlinked', 'edge-changed'].includes(d.kind);
  const showEdges = d.kind === null || ['linked', 'unlinked', 'edge-changed'].includes(d.kind);
  const empty = diff && diff.memories.filter((m) => m.kind !== 'accessed').length === 0 && diff.edges.length === 0;
  return (
    <div className="diff-view" data-testid="diff-view" data-from={d.from} data-to={d.to}>
      <div className="history-head">
        <h2>What changed</h2>
        <a href={`#${buildHash('history')}`}>Back to History</a>
      </div>
      <DiffRange from={d.from} to={d.to} onChange={(from, to) => go({ from, to, limit: DIFF_PAGE })} />
      {d.error ? (
        <div className="error" role="alert" data-testid="url-param-error">
          {d.error}
        </div>
      ) : null}
      <p className="muted" data-testid="diff-window">
        Between {fmtInstant(d.from)} and {fmtInstant(d.to)}.{' '}
        <a href={`#${buildHash('memories', null, { at: d.from })}`}>See the memories as they were at the start</a>.
      </p>
      {q.error && !diff ? <InstantError error={q.error} at={d.from} onPick={(from) => go({ from })} /> : null}
      {!diff && !q.error ? <Loading label="Comparing the two instants…" /> : null}
      {diff ? (
        <>
          <DiffCounts diff={diff} kind={d.kind} onKind={(kind) => go({ kind })} />
          {empty ? (
            <EmptyState title="Nothing changed">No memory or edge differs between these two instants. Widen the window, or pick earlier instants.</EmptyState>
          ) : null}
          {showMemories && memories.length ? <MemoryDiffRows rows={memories} from={d.from} to={d.to} /> : null}
          {showEdges && edges.length ? (
            <>
              <h3>Edges</h3>
              <EdgeDiffRows rows={edges} from={d.from} to={d.to} />
            </>
          ) : null}
          {diff.truncated ? (
            <p className="diff-more" data-testid="diff-truncated">
              <span className="muted">The lists stop at {plural(d.limit, 'memory', 'memories')} and {plural(d.limit, 'edge')}; the counts above are complete. </span>
              {d.limit < DIFF_MAX ? (
                <button type="button" onClick={() => go({ limit: Math.min(DIFF_MAX, d.limit + DIFF_PAGE) })} disabled={q.isFetching} data-testid="diff-more">
                  {q.isFetching ? 'Reading more…' : 'Show more'}
                </button>
              ) : (
                <span className="muted">That is the most one comparison lists: narrow the window to see the rest.</span>
              )}
            </p>
          ) : null}
          {/* A failed "show more" leaves the shorter list on screen and says why. */}
          <ErrorBox error={q.error} />
        </>
      ) : null}
    </div>
  );
}
