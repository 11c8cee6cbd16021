/**
 * A long write's progress as the engine reports it (journal.progress): what it is doing now, n of N
 * of that phase's units (a commit counts its accepted items, an undo its rows), the share, the time
 * left at the pace it has kept, how long it has run, and Cancel. Cancel says "Cancelling…" the
 * moment it is pressed; the engine then stops at its next look and takes back what it wrote,
 * which the bar shows as a phase of its own ("taking back what was written: 1,200 of 4,000 rows").
 * Until the engine's first answer the bar moves without a share: it never shows a 0 that is not true.
 */
import { useState } from 'react';
import type { WriteJobState } from '../../core/api/contract/journal.js';
import { elapsedText, jobLine } from './job-words.js';

export function JobProgress({
  what,
  progress,
  cancelPressed,
  onCancel,
  testId,
  cancelTestId = `${testId}-cancel`,
}: {
  /** What runs, as the bar names it: "Committing", "Undoing change #12". */
  what: string;
  progress: WriteJobState | undefined;
  cancelPressed: boolean;
  onCancel: () => void;
  testId: string;
  cancelTestId?: string;
}) {
  // Pressed here: said at the next paint, before the cancel reaches the engine.
  const [pressed, setPressed] = useState(false);
  const { text, share } = jobLine(what, progress, cancelPressed || pressed);
  const cancelling = cancelPressed || pressed || progress?.cancelling === true;
  const p = progress?.running ? progress : undefined;
  return (
    <div
      className={`job-progress${cancelling ? ' cancelling' : ''}`}
      data-testid={testId}
      data-phase={p?.phase ?? ''}
      data-done={p?.done ?? 0}
      data-total={p?.total ?? 0}
      data-cancelling={cancelling ? 'true' : 'false'}
    >
      <span role="status" aria-live="polite" data-testid={`${testId}-text`}>
        {text}
        {p?.elapsed_s != null ? <span className="muted small"> · running for {elapsedText(p.elapsed_s)}</span> : null}
      </span>
      <div className="meter wide" role="progressbar" aria-label={`${what} progress`} aria-valuenow={share === null ? undefined : Math.round(share * 100)}>
        <span className={share === null ? 'indeterminate' : ''} style={{ width: share === null ? '30%' : `${share * 100}%` }} />
      </div>
      <button
        onClick={() => {
          setPressed(true);
          onCancel();
        }}
        disabled={cancelling || (p !== undefined && !p.cancellable)} data-testid={cancelTestId} title="Stop and take back everything written so far: the store stays as it was">
        {cancelling ? 'Cancelling…' : 'Cancel'}
      </button>
    </div>
  );
}
