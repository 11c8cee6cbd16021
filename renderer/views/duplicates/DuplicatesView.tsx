/**
 * Find duplicates (after Anki's): groups of live memories with the same text once case, punctuation
 * and spacing are ignored, largest first. Each group shows every copy with its owner; "Merge…" opens
 * the merge dialog (survivor: the older copy), "Dismiss" hides the group for this session.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { DuplicateGroup } from '../../../core/api/contract/index.js';
import { call } from '../../api/client.js';
import { keys } from '../../api/keys.js';
import { EmptyState, ErrorBox, fmtTime, ownerLabel, Spinner } from '../../components/common.js';
import { memoryHref } from '../../state/router.js';
import { MergeDialog } from '../curation/MergeDialog.js';
import { useReadOnlyReason } from '../curation/read-only.js';
import { useDismissedDuplicates } from './dismissed.js';
import '../curation/curation.css';
import './duplicates.css';

const PAGE = 25;

function Group({ g, onMerge, onDismiss, readOnly }: { g: DuplicateGroup; onMerge: () => void; onDismiss: () => void; readOnly: string | null }) {
  return (
    <section className="dup-group panel" data-testid="dup-group" data-key={g.key}>
      <div className="row">
        <strong>{g.members.length} copies</strong>
        {g.cross_owner ? (
          <span className="badge warn" title="A merge across owners needs an explicit confirmation in the merge dialog.">
            different owners: {g.owners.map(ownerLabel).join(', ')}
          </span>
        ) : (
          <span className="muted small">owner: {ownerLabel(g.owners[0])}</span>
        )}
        <span className="spacer" />
        <button className="primary" onClick={onMerge} disabled={!!readOnly} title={readOnly ?? 'Merge the copies into the older one (you can pick another survivor)'} data-testid="dup-merge">
          Merge…
        </button>
        <button onClick={onDismiss} title="Not duplicates: hide this group for this session" data-testid="dup-dismiss">
          Dismiss
        </button>
      </div>
      <table className="mini-table wide">
        <tbody>
          {g.members.map((m) => (
            <tr key={m.id}>
              <td>
                <span className={`type-dot t-${m.type}`} /> <a href={memoryHref(m.id)}>{m.head}</a>
                {m.id === g.survivor ? <span className="badge">kept by a merge</span> : null}
              </td>
              <td className="nowrap">{ownerLabel(m.owner)}</td>
              <td className="nowrap muted small">added {fmtTime(m.created_at)}</td>
              <td className="nowrap muted small">strength {m.strength}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function DuplicatesView() {
  const [page, setPage] = useState(0);
  const [sameOwner, setSameOwner] = useState(false);
  const [merging, setMerging] = useState<string[] | null>(null);
  const { dismissed, dismiss, reset } = useDismissedDuplicates();
  const readOnly = useReadOnlyReason();
  const input = { same_owner: sameOwner, dismissed, offset: page * PAGE, limit: PAGE };
  const q = useQuery({ queryKey: keys.duplicates(input), queryFn: () => call('curation.duplicates', input), placeholderData: keepPreviousData });
  const d = q.data;
  const pages = d ? Math.max(1, Math.ceil(d.total_groups / PAGE)) : 1;
  return (
    <div className="duplicates-view" data-testid="duplicates-view">
      <h2>Find duplicates</h2>
      <p className="muted">
        Live memories whose text is the same once case, punctuation and spacing are ignored. Merging keeps the older copy by default (the rule reflection uses) and archives the others; each
        merge is one change you can undo.
      </p>
      <div className="row">
        <label>
          <input type="checkbox" checked={sameOwner} onChange={(e) => (setSameOwner(e.target.checked), setPage(0))} data-testid="dup-same-owner" /> only copies of the same owner
        </label>
        {dismissed.length ? (
          <button className="link" onClick={reset}>
            show the {dismissed.length} dismissed
          </button>
        ) : null}
        <span className="spacer" />
        {d ? (
          <span className="muted" data-testid="dup-summary">
            {d.total_groups.toLocaleString()} {d.total_groups === 1 ? 'group' : 'groups'} · {d.total_memories.toLocaleString()} memories · {d.scanned.toLocaleString()} scanned
          </span>
        ) : null}
      </div>
      <ErrorBox error={q.error} />
      {!d && q.isLoading ? <Spinner label="Looking for duplicates…" /> : null}
      {d && d.groups.length === 0 ? <EmptyState title="No duplicates">No two live memories have the same text.</EmptyState> : null}
      {d?.groups.map((g) => <Group key={g.key} g={g} readOnly={readOnly} onMerge={() => setMerging(g.members.map((m) => m.id))} onDismiss={() => dismiss(g.key)} />)}
      {d && pages > 1 ? (
        <div className="row">
          <button onClick={() => setPage((p) => Math.max(0, p - 1))} disabled={page === 0}>
            ← previous
          </button>
          <span className="muted">
            page {page + 1} of {pages}
          </span>
          <button onClick={() => setPage((p) => Math.min(pages - 1, p + 1))} disabled={page >= pages - 1}>
            next →
          </button>
        </div>
      ) : null}
      {merging ? <MergeDialog ids={merging} onClose={() => setMerging(null)} /> : null}
    </div>
  );
}
