/**
 * Erase for good: the confirmation says what will be destroyed (the engine's dry run, place by
 * place) and that it cannot be undone, and asks for the word "erase" before it starts. While it
 * runs it shows the erase's phase and n of N, with a cancel until its first write; then the
 * receipt: what went from where, when and by whom, how the bytes went, and what no store reaches.
 */
import { useState } from 'react';
import type { EraseReceipt } from '../../../core/erase/erase.js';
import type { ErasePlaceCounts } from '../../../core/store/port/erase.js';
import { useCancelWrite, useErase, useErasePlan, useWriteProgress, type EraseTarget } from '../../api/privacy.js';
import { ErrorBox, Spinner } from '../../components/common.js';
import { jobLine } from '../../components/job-words.js';
import { PLACE_NAMES, PLACE_ORDER } from './place-names.js';
import './privacy.css';

const CONFIRM_WORD = 'erase';

function Counts({ counts, testid }: { counts: ErasePlaceCounts; testid: string }) {
  const rows = PLACE_ORDER.filter((p) => counts[p] > 0);
  if (rows.length === 0) return <p className="muted">Nothing in any place.</p>;
  return (
    <table className="erase-counts" data-testid={testid}>
      <tbody>
        {rows.map((p) => (
          <tr key={p}>
            <td>{PLACE_NAMES[p]}</td>
            <td className="num">{counts[p].toLocaleString()}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function targetWords(target: EraseTarget, n: number): string {
  const memories = `${n.toLocaleString()} ${n === 1 ? 'memory' : 'memories'}`;
  if ('match' in target) return `${memories} holding the text you gave (and the text wherever else it appears)`;
  if ('owner' in target) return `${memories} of ${target.owner}`;
  return memories;
}

export function Receipt({ receipt }: { receipt: EraseReceipt }) {
  const r = receipt.reclaim;
  const [copied, setCopied] = useState(false);
  return (
    <div className="erase-receipt" data-testid="erase-receipt">
      <p>
        <strong>
          Erased {receipt.memories.total.toLocaleString()} {receipt.memories.total === 1 ? 'memory' : 'memories'}
        </strong>{' '}
        at {receipt.erased_at_iso} by {receipt.by} (journal change #{receipt.change_id}, which cannot be undone).
      </p>
      <Counts counts={receipt.counts} testid="receipt-counts" />
      <p className="small">
        Beside the store: {receipt.derived.index_snapshots} index snapshots dropped (written again from what is left) and the erased memories' {receipt.derived.text_search_rows} list-search rows deleted.
      </p>
      <p className="small">
        {r.method === 'none'
          ? 'The files were not rewritten.'
          : `The files: ${r.method === 'zeroed' ? 'deleted content and free pages zeroed, WAL truncated, in' : 'VACUUM FULL of'} ${r.rewrote.join(', ')} in ${r.seconds} s${r.bytes_before !== null && r.bytes_after !== null ? ` (${r.bytes_before.toLocaleString()} → ${r.bytes_after.toLocaleString()} bytes)` : ''}.`}
      </p>
      {[...r.problems, ...receipt.derived.problems].map((p) => (
        <p key={p} className="warn small" role="alert">
          {p}
        </p>
      ))}
      <NotReached items={receipt.not_reached} />
      <button
        onClick={() =>
          void navigator.clipboard?.writeText(JSON.stringify(receipt, null, 2)).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        {copied ? 'Copied' : 'Copy the receipt (JSON)'}
      </button>
    </div>
  );
}

function NotReached({ items }: { items: string[] }) {
  return (
    <details className="small">
      <summary>What no store can reach</summary>
      <ul>
        {items.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
    </details>
  );
}

export function EraseDialog({ target, onClose, onErased }: { target: EraseTarget; onClose: () => void; onErased?: (r: EraseReceipt) => void }) {
  const plan = useErasePlan(target);
  const erase = useErase();
  const cancel = useCancelWrite();
  const [typed, setTyped] = useState('');
  const running = erase.isPending;
  const progress = useWriteProgress(running);
  const p = progress.data;
  const d = plan.data;
  const done = erase.data;
  const close = () => {
    if (!running) onClose();
  };
  return (
    <div className="modal-backdrop" onClick={close}>
      <div className="modal wide erase-dialog" role="dialog" aria-label="Erase for good" onClick={(e) => e.stopPropagation()} data-testid="erase-dialog">
        <h2>Erase for good</h2>
        {done ? (
          <>
            <Receipt receipt={done} />
            <div className="actions">
              <button onClick={onClose} data-testid="erase-close">
                Close
              </button>
            </div>
          </>
        ) : running ? (
          <div data-testid="erase-progress">
            <p>
              {p?.running ? jobLine('Erase', p, false).text : 'Starting…'}
            </p>
            <progress max={p?.total || 1} value={p?.done ?? 0} />
            {p?.cancellable ? (
              <button onClick={() => cancel.mutate()} disabled={cancel.isPending} data-testid="erase-cancel">
                Cancel (nothing is erased yet)
              </button>
            ) : (
              <p className="small muted">Past its first write: it runs to its end, so that no memory is left half-erased.</p>
            )}
          </div>
        ) : plan.error ? (
          <>
            <ErrorBox error={plan.error} />
            <div className="actions">
              <button onClick={onClose}>Close</button>
            </div>
          </>
        ) : !d ? (
          <Spinner label="Listing what would be erased…" />
        ) : (
          <>
            <p className="erase-warning" role="alert" data-testid="erase-warning">
              <strong>This cannot be undone.</strong> {targetWords(target, d.memories.total)} will be removed from every place the store keeps {d.memories.total === 1 ? 'it' : 'them'}; History keeps no
              copy to bring {d.memories.total === 1 ? 'it' : 'them'} back{d.counts.journal_changes > 0 ? `, and ${d.counts.journal_changes} earlier ${d.counts.journal_changes === 1 ? 'change' : 'changes'} that touched ${d.memories.total === 1 ? 'it' : 'them'} will no longer be undoable` : ''}.
            </p>
            {d.memories.gone > 0 ? (
              <p className="small">
                {d.memories.live} live, {d.memories.gone} already forgotten or deleted (their traces go).
              </p>
            ) : null}
            <h3>What will be destroyed</h3>
            <Counts counts={d.counts} testid="plan-counts" />
            <p className="small">
              Beside the store: {d.derived.index_snapshots} index snapshots (written again from what is left) and these memories' {d.derived.text_search_rows} list-search rows.
            </p>
            {d.sample.length ? (
              <details className="small" open={d.sample.length <= 5}>
                <summary>{d.sample.length < d.memories.total ? `The first ${d.sample.length}` : 'The memories'}</summary>
                <ul className="erase-sample">
                  {d.sample.map((s) => (
                    <li key={s.id}>
                      <code>{s.id.slice(0, 8)}</code> {s.owner || '(shared)'} — {s.live ? s.head : <em>gone; traces remain</em>}
                    </li>
                  ))}
                </ul>
              </details>
            ) : null}
            <p className="small">Then the bytes go: {d.reclaim.cost}.</p>
            <NotReached items={d.not_reached} />
            <label className="erase-confirm">
              Type <code>{CONFIRM_WORD}</code> to confirm{' '}
              <input value={typed} onChange={(e) => setTyped(e.target.value)} aria-label={`type ${CONFIRM_WORD} to confirm`} data-testid="erase-type" autoFocus />
            </label>
            <ErrorBox error={erase.error} />
            <div className="actions">
              <button
                className="danger"
                disabled={typed.trim().toLowerCase() !== CONFIRM_WORD || d.memories.total + d.counts.access_queries + d.counts.journal_scrubbed + d.counts.feed_scrubbed === 0}
                onClick={() => erase.mutateAsync(target).then(onErased, () => undefined)}
                data-testid="erase-confirm"
              >
                Erase {d.memories.total.toLocaleString()} for good
              </button>
              <button onClick={onClose}>Cancel</button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
