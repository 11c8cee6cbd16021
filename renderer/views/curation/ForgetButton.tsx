/** Forget: delete memories and record a content tombstone (re-adding the same text is flagged). Undoable in History. */
import { useState } from 'react';
import { useForget } from '../../api/curation.js';
import { ErrorBox } from '../../components/common.js';
import { useReadOnlyReason } from './read-only.js';

export function ForgetButton({ ids, onDone, label = 'Forget' }: { ids: string[]; onDone?: () => void; label?: string }) {
  const forget = useForget();
  const [confirming, setConfirming] = useState(false);
  const readOnly = useReadOnlyReason();
  if (!confirming) {
    return (
      <button className="danger" onClick={() => setConfirming(true)} disabled={ids.length === 0 || !!readOnly} title={readOnly ?? undefined} data-testid="forget">
        {label}
      </button>
    );
  }
  return (
    <span className="confirm" role="alertdialog" aria-label="confirm forget">
      <span className="small">
        Delete {ids.length === 1 ? 'this memory' : `${ids.length} memories`} and keep a tombstone of the text (History can undo it)?
      </span>
      <button className="danger" onClick={() =>
          // mutateAsync: the caller's follow-up (leaving a page whose memory is gone) runs even if this unmounts first.
          forget.mutateAsync(ids).then(
            () => {
              setConfirming(false);
              onDone?.();
            },
            () => undefined,
          )
        } disabled={forget.isPending} data-testid="forget-confirm">
        Forget
      </button>
      <button onClick={() => setConfirming(false)}>Cancel</button>
      <ErrorBox error={forget.error} />
    </span>
  );
}
