/** Counts per kind of change, each a toggle that lists only that kind; "all" lists every kind. */
import type { StoreDiff } from '../../../../core/api/contract/store.js';
import { EDGE_KINDS, kindCount, MEMORY_KINDS } from './diff-words.js';

/** Per-kind counts for the chips, from the engine's totals (which include rows past the list's cap). */
export function chipCounts(d: StoreDiff): [string, number][] {
  const out: [string, number][] = MEMORY_KINDS.map((k) => [k, d.counts.memories[k]]);
  for (const k of EDGE_KINDS) out.push([k, d.counts.edges[k]]);
  // An edge whose weight changed is rare: its chip only when there is one.
  if (d.counts.edges.changed) out.push(['edge-changed', d.counts.edges.changed]);
  return out;
}

export function DiffCounts({ diff, kind, onKind }: { diff: StoreDiff; kind: string | null; onKind: (k: string | null) => void }) {
  return (
    <div className="chips diff-counts" role="group" aria-label="Changes by kind" data-testid="diff-counts">
      <button type="button" className={`tag${kind === null ? ' on' : ''}`} aria-pressed={kind === null} onClick={() => onKind(null)}>
        all
      </button>
      {chipCounts(diff).map(([k, n]) => (
        <button
          key={k}
          type="button"
          className={`tag${kind === k ? ' on' : ''}`}
          aria-pressed={kind === k}
          disabled={n === 0}
          onClick={() => onKind(kind === k ? null : k)}
          data-testid={`diff-count-${k}`}
          data-count={n}
        >
          {kindCount(k, n)}
        </button>
      ))}
    </div>
  );
}
