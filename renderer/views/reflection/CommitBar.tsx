/**
 * Commit the accepted items as one journalled change. The button first shows what the commit will
 * do ("+424,572 edges, 13,098 archived…") and asks to confirm; while it runs, the bar shows its
 * phase, n of N accepted items with an ETA, and a cancel (the engine takes back what it wrote:
 * components/JobProgress.tsx). A store that changed since
 * planning is refused by the engine (nothing applied); the bar then offers to plan again.
 */
import { useState } from 'react';
import type { ReviewCounts } from '../../../core/api/contract/index.js';
import type { WriteJobState } from '../../../core/api/contract/journal.js';
import type { ApplyResult } from '../../../core/reflect/types.js';
import { ApiError } from '../../api/client.js';
import { ErrorBox } from '../../components/common.js';
import { JobProgress } from '../../components/JobProgress.js';
import { buildHash } from '../../state/router.js';

/** "+424,572 edges, 13,098 archived, 9,311 rescored" — the parts that are not zero. */
export function effectsLine(e: ReviewCounts['effects']): string {
  const parts = [
    e.edges ? `+${e.edges.toLocaleString()} edges` : '',
    e.archived ? `${e.archived.toLocaleString()} archived` : '',
    e.deleted ? `${e.deleted.toLocaleString()} deleted` : '',
    e.rescored ? `${e.rescored.toLocaleString()} rescored` : '',
    e.created ? `${e.created.toLocaleString()} created` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no changes';
}

function CommitProgress({ p, onCancel, cancelling }: { p: WriteJobState | undefined; onCancel: () => void; cancelling: boolean }) {
  return <JobProgress what="Committing" progress={p} cancelPressed={cancelling} onCancel={onCancel} testId="reflection-commit-progress" cancelTestId="reflection-commit-cancel" />;
}

export function CommitBar({
  accepted,
  acceptedIds,
  total,
  follows,
  effects,
  pending,
  countsCurrent,
  replacing,
  progress,
  cancelling,
  cancelTooLate,
  error,
  result,
  onCommit,
  onCancel,
  onReplan,
}: {
  accepted: number;
  /** The accepted ids when the engine lists them (plans of up to 10k accepted items), for tools and tests. */
  acceptedIds: string[] | null;
  total: number;
  follows: number;
  effects: ReviewCounts['effects'] | null;
  pending: boolean;
  /** False while the engine is still counting the latest decisions: the figures shown are for the ones before. */
  countsCurrent: boolean;
  /** A new plan is being made to replace this one. */
  replacing: boolean;
  progress: WriteJobState | undefined;
  cancelling: boolean;
  /** Cancel was pressed, but the engine had no commit running any more: it had finished. */
  cancelTooLate: boolean;
  error: unknown;
  result: ApplyResult | null;
  onCommit: () => void;
  onCancel: () => void;
  onReplan: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const cancelled = error instanceof ApiError && error.details?.['cancelled'] === true;
  const stale = error instanceof ApiError && error.code === 'conflict' && !cancelled;
  return (
    <div className="commit-bar" data-testid="reflection-commit-bar" data-accepted={acceptedIds ? acceptedIds.join(',') : ''} data-accepted-count={accepted} data-counts-current={countsCurrent}>
      {result ? (
        <div className="commit-result" data-testid="reflection-result" data-change-id={result.change_id ?? ''} data-applied={result.applied.length}>
          {cancelTooLate ? (
            <div className="commit-too-late" role="status" data-testid="reflection-cancel-too-late">
              Cancel came too late: the commit had already finished. Undo it in History to take it back.
            </div>
          ) : null}
          <strong>Committed</strong> {result.applied.length.toLocaleString()} items as{' '}
          {result.change_id ? <a href={`#${buildHash('history', null, { change: result.change_id })}`}>change #{result.change_id}</a> : 'no change (nothing to apply)'}:{' '}
          <strong data-testid="reflection-result-effects">{effectsLine(result.effects)}</strong>{' '}
          <span className="muted">
            (merged {result.report.merged.toLocaleString()}, links formed {result.report.edges_added.toLocaleString()}, rescored {result.report.rescored.toLocaleString()}, pruned{' '}
            {result.report.pruned.toLocaleString()}
            {result.report.created ? `, created ${result.report.created.toLocaleString()}` : ''})
          </span>
          .
          {result.skipped.length ? (
            <details>
              <summary>{result.skipped.length.toLocaleString()} accepted items were skipped at commit</summary>
              <ul>
                {result.skipped.slice(0, 500).map((s) => (
                  <li key={s.id}>
                    <span className="mono">{s.id}</span>: {s.reason}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          {result.adjusted.length ? (
            <details>
              <summary>{result.adjusted.length.toLocaleString()} values differ from the plan (their inputs changed)</summary>
              <ul>
                {result.adjusted.slice(0, 200).map((a) => (
                  <li key={`${a.id}-${a.field}`}>
                    <span className="mono">{a.id}</span> {a.field}: planned {a.planned}, applied {a.applied}
                  </li>
                ))}
              </ul>
            </details>
          ) : null}
          <button onClick={onReplan}>Plan again</button>
        </div>
      ) : pending ? (
        <CommitProgress p={progress} onCancel={onCancel} cancelling={cancelling} />
      ) : confirming ? (
        <div className="commit-confirm" role="alertdialog" aria-label="Confirm the commit" data-testid="reflection-commit-confirm">
          <span>
            Commit <strong>{accepted.toLocaleString()}</strong> accepted items as one change: <strong data-testid="reflection-commit-summary">{effects ? effectsLine(effects) : '…'}</strong>.{' '}
            <span className="muted">You can undo it in History; items whose inputs changed are skipped and listed.</span>
          </span>
          <span className="spacer" />
          <button onClick={() => setConfirming(false)} data-testid="reflection-commit-back">
            Back
          </button>
          <button
            className="primary"
            autoFocus
            onClick={() => {
              setConfirming(false);
              onCommit();
            }}
            data-testid="reflection-commit-confirm-go"
          >
            Commit
          </button>
        </div>
      ) : (
        <>
          <span>
            <strong>{accepted.toLocaleString()}</strong> of {total.toLocaleString()} items accepted
            {follows ? <span className="muted"> · {follows} dropped because they follow a rejected item</span> : null}
            {effects ? <span className="muted"> · {effectsLine(effects)}</span> : null}
            {countsCurrent ? null : <span className="muted"> · counting your last decision…</span>}
          </span>
          <span className="spacer" />
          <button
            className="primary"
            onClick={() => setConfirming(true)}
            disabled={accepted === 0 || !countsCurrent || replacing}
            title={replacing ? 'A new plan is being made: commit it once it is here' : !countsCurrent ? 'Counting what your last decision changes…' : undefined}
            data-testid="reflection-commit"
          >
            {`Commit ${accepted.toLocaleString()} accepted…`}
          </button>
        </>
      )}
      {cancelled ? (
        <div className="muted" role="status" data-testid="reflection-commit-cancelled">
          Commit cancelled: everything it had written was taken back; the store is as it was.
        </div>
      ) : null}
      {stale ? (
        <div className="error" role="alert" data-testid="reflection-stale">
          <strong>Refused: the store changed since this plan was made.</strong> {(error as Error).message}{' '}
          <button onClick={onReplan} data-testid="reflection-replan">
            Re-plan
          </button>
        </div>
      ) : cancelled ? null : (
        <ErrorBox error={error} />
      )}
    </div>
  );
}
