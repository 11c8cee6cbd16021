/**
 * The memories that differ between two instants: what happened to each (added, changed with the
 * fields, archived, restored, deleted), who did it, and on demand the text change as a word diff.
 * Each memory links to itself as it was at the later instant (at the earlier one when deleted).
 */
import { Fragment, useState } from 'react';
import type { MemoryDiffRow } from '../../../../core/api/contract/store.js';
import { buildHash } from '../../../state/router.js';
import { AuthorList } from './AuthorList.js';
import { changesCount, KIND_LABELS } from './diff-words.js';
import { TextChange } from './TextChange.js';

const TEXT_FIELDS = ['title', 'content'];

export function MemoryDiffRows({ rows, from, to }: { rows: MemoryDiffRow[]; from: number; to: number }) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const heads = new Map(rows.map((r) => [r.id, r.head]));
  return (
    <table className="diff-table" data-testid="diff-memories">
      <thead>
        <tr>
          <th>what</th>
          <th>memory</th>
          <th>fields</th>
          <th>by</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const textual = r.kind === 'changed' && r.fields.some((f) => TEXT_FIELDS.includes(f));
          const shownAt = r.kind === 'deleted' ? from : to;
          return (
            <Fragment key={r.id}>
              <tr data-testid="diff-memory" data-kind={r.kind} data-memory-id={r.id}>
                <td>
                  <span className={`diff-kind k-${r.kind}`}>{KIND_LABELS[r.kind] ?? r.kind}</span>
                </td>
                <td className="head">
                  <a href={`#${buildHash('memory', r.id, { at: shownAt })}`} title={`Open it as it was at that instant (${r.id})`}>
                    {r.head || '(empty memory)'}
                  </a>
                </td>
                <td className="small">{r.fields.length ? r.fields.join(', ') : <span className="muted">—</span>}</td>
                <td className="small">
                  <AuthorList authors={r.authors} memoryIds={[r.id]} headOf={(id) => heads.get(id)} />
                  {r.changes > 1 ? <span className="muted"> ({changesCount(r.changes)})</span> : null}
                </td>
                <td className="nowrap">
                  {textual ? (
                    <button type="button" className="link" aria-expanded={open.has(r.id)} onClick={() => toggle(r.id)} data-testid="diff-show-text">
                      {open.has(r.id) ? 'Hide text change' : 'Show text change'}
                    </button>
                  ) : null}
                </td>
              </tr>
              {textual && open.has(r.id) ? (
                <tr className="diff-detail">
                  <td colSpan={5}>
                    <TextChange id={r.id} from={from} to={to} fields={r.fields} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
