/**
 * The edges that differ between two instants (linked, unlinked, reweighted), each end named by its
 * memory's title as it was then (at the later instant, or the earlier one for a memory gone since).
 */
import type { EdgeDiffRow } from '../../../../core/api/contract/store.js';
import { usePastHeads } from '../../../api/time-travel.js';
import { EdgeSwatch } from '../../../graph/EdgeSwatch.js';
import { buildHash } from '../../../state/router.js';
import { AuthorList } from './AuthorList.js';
import { changesCount, KIND_LABELS } from './diff-words.js';

function End({ id, head, at }: { id: string; head: string | undefined; at: number }) {
  return (
    <a href={`#${buildHash('memory', id, { at })}`} title={id} data-memory-id={id}>
      {head ?? 'a memory no longer in the store'}
    </a>
  );
}

export function EdgeDiffRows({ rows, from, to }: { rows: EdgeDiffRow[]; from: number; to: number }) {
  const ids = rows.flatMap((r) => [r.src, r.dst]);
  const later = usePastHeads(ids, to);
  const earlier = usePastHeads(ids.filter((id) => later.data !== undefined && !later.data.has(id)), from);
  const headOf = (id: string) => later.data?.get(id)?.head ?? earlier.data?.get(id)?.head;
  const atOf = (id: string) => (later.data?.has(id) ? to : from);
  return (
    <table className="diff-table" data-testid="diff-edges">
      <thead>
        <tr>
          <th>what</th>
          <th>edge</th>
          <th>by</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.src}|${r.dst}|${r.type}`} data-testid="diff-edge" data-kind={r.kind} data-src={r.src} data-dst={r.dst}>
            <td>
              <span className={`diff-kind k-${r.kind === 'changed' ? 'edge-changed' : r.kind}`}>{KIND_LABELS[r.kind === 'changed' ? 'edge-changed' : r.kind]}</span>
            </td>
            <td className="head">
              <End id={r.src} head={headOf(r.src)} at={atOf(r.src)} /> <EdgeSwatch type={r.type} /> <span className="muted">{r.type}</span> →{' '}
              <End id={r.dst} head={headOf(r.dst)} at={atOf(r.dst)} />
              {r.fields.length ? <span className="muted small"> ({r.fields.join(', ')})</span> : null}
            </td>
            <td className="small">
              <AuthorList authors={r.authors} memoryIds={[r.src, r.dst]} headOf={headOf} />
              {r.changes > 1 ? <span className="muted"> ({changesCount(r.changes)})</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
