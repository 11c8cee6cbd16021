/**
 * The way forward from an undo refused because later changes depend on the change: "N later changes
 * depend on this" with their names, and one button that undoes them and the change as one step,
 * behind a confirmation listing everything it will undo (newest first, the change itself last).
 * Shown in History and in the "Archived · Undo" toast.
 */
import { useEffect, useRef, useState } from 'react';
import type { NamedChange } from '../../../core/api/contract/journal.js';
import { useDependents, useHeads, useUndoWithDependents } from '../../api/curation.js';
import { plural } from '../../api/errors.js';
import { useCancelWriteJob, useWriteJobProgress, wasCancelled } from '../../api/jobs.js';
import { JobProgress } from '../../components/JobProgress.js';
import { ErrorBox, fmtTime, Spinner } from '../../components/common.js';
import { buildHash } from '../../state/router.js';
import { changeName } from './change-name.js';
import { countsLabel } from './image-diff.js';
import './dependents.css';

/** True when an undo failed because later changes touched the same rows (the engine's `blocked_by`). */
export function refusedForDependents(error: unknown): boolean {
  const details = (error as { details?: Record<string, unknown> } | null)?.details;
  return Array.isArray(details?.['blocked_by']) && (details['blocked_by'] as unknown[]).length > 0;
}

const dependVerb = (n: number) => (n === 1 ? 'depends' : 'depend');

function ChangeItem({ c, name }: { c: NamedChange; name: string }) {
  return (
    <>
      <a href={buildHash('history', null, { change: c.id })}>{name}</a> <span className="muted small">{fmtTime(c.ts)} · {countsLabel(c.counts)}</span>
    </>
  );
}

export function DependentsOffer({ changeId, onUndone }: { changeId: number; onUndone?: () => void }) {
  const q = useDependents(changeId);
  const undo = useUndoWithDependents();
  const progress = useWriteJobProgress(undo.isPending);
  const cancel = useCancelWriteJob();
  const [confirming, setConfirming] = useState(false);
  const go = useRef<HTMLButtonElement>(null);
  const all = q.data ? [...q.data.dependents, q.data.change] : [];
  const heads = useHeads(all.flatMap((c) => c.memory_ids));
  useEffect(() => {
    if (confirming) go.current?.focus();
  }, [confirming]);
  if (q.isLoading) return <Spinner label="Looking for the changes that depend on this one…" />;
  if (q.error) return <ErrorBox error={q.error} />;
  const d = q.data;
  if (!d || d.total === 0) return null;
  const n = d.total;
  const more = n - d.dependents.length;
  const name = (c: NamedChange) => changeName(c.label, c.memory_ids, (id) => heads.data?.get(id)?.head);
  const list = (
    <>
      {d.dependents.map((c) => (
        <li key={c.id} data-testid="dependent-change" data-change-id={c.id}>
          <ChangeItem c={c} name={name(c)} />
        </li>
      ))}
      {more > 0 ? <li className="muted">…and {plural(more, 'older change')} not listed here</li> : null}
    </>
  );
  return (
    <section className="dependents-offer" aria-label="Changes that depend on this one" data-testid="dependents-offer" data-count={n}>
      <p>
        <strong>
          {plural(n, 'later change')} {dependVerb(n)} on this
        </strong>{' '}
        ({n === 1 ? 'it changed' : 'they changed'} the same rows afterwards, so this change can only be undone after {n === 1 ? 'it' : 'them'}):
      </p>
      <ul className="dependents-list">{list}</ul>
      {!confirming ? (
        <button onClick={() => setConfirming(true)} data-testid="undo-with-dependents">
          Undo this and the {plural(n, 'change')} that {dependVerb(n)} on it
        </button>
      ) : (
        <div
          className="dependents-confirm"
          role="alertdialog"
          aria-label="Confirm the undo"
          aria-describedby="dependents-confirm-text"
          data-testid="undo-with-dependents-confirm"
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !undo.isPending) setConfirming(false);
          }}
        >
          <p id="dependents-confirm-text">This undoes {plural(n + 1, 'change')} as one step, newest first; if any part fails, none of them is undone:</p>
          <ol className="dependents-list">
            {list}
            <li data-testid="dependent-change" data-change-id={d.change.id}>
              <ChangeItem c={d.change} name={name(d.change)} /> <span className="muted small">(the change you chose)</span>
            </li>
          </ol>
          <p className="muted small">Redo brings them back one at a time, this change first.</p>
          <div className="row">
            <button
              className="danger"
              ref={go}
              onClick={() => {
                cancel.reset();
                undo.mutate(changeId, { onSuccess: () => (setConfirming(false), onUndone?.()) });
              }}
              disabled={undo.isPending}
              data-testid="undo-with-dependents-go"
            >
              Undo all {plural(n + 1, 'change')}
            </button>
            <button onClick={() => setConfirming(false)} disabled={undo.isPending}>
              Cancel
            </button>
          </div>
          {undo.isPending ? (
            <JobProgress
              what={`Undoing ${plural(n + 1, 'change')}`}
              progress={progress.data}
              cancelPressed={cancel.isPending || cancel.data?.cancelled === true}
              onCancel={() => cancel.mutate()}
              testId="undo-with-dependents-progress"
            />
          ) : null}
          {wasCancelled(undo.error) ? (
            <p className="muted" role="status" data-testid="undo-with-dependents-cancelled">
              Undo cancelled: what it had undone was written back; every change is applied, as before.
            </p>
          ) : (
            <ErrorBox error={undo.error} />
          )}
        </div>
      )}
    </section>
  );
}
