/**
 * "Archived · Undo": the curator's last change, undoable in one click where it was made (History
 * keeps them all). When later changes depend on it, the toast lists them and offers to undo them too.
 */
import { useEffect } from 'react';
import { useUndo } from '../../api/curation.js';
import { ErrorBox } from '../../components/common.js';
import { useUndoToast } from '../../state/undo-toast.js';
import { DependentsOffer, refusedForDependents } from '../history/DependentsOffer.js';
import './curation.css';

const SHOWN_MS = 12_000;

export function UndoToast() {
  const offer = useUndoToast((s) => s.offer);
  const dismiss = useUndoToast((s) => s.dismiss);
  const undo = useUndo();
  const refused = refusedForDependents(undo.error);
  useEffect(() => {
    if (!offer) return;
    undo.reset();
  }, [offer?.changeId]);
  // A refusal that offers to undo the later changes too stays until the curator answers it.
  useEffect(() => {
    if (!offer || refused) return;
    const t = setTimeout(dismiss, SHOWN_MS);
    return () => clearTimeout(t);
  }, [offer?.changeId, refused]);
  if (!offer) return null;
  return (
    <div className="undo-toast" role="status" data-testid="undo-toast" data-change-id={offer.changeId}>
      <span>{offer.label}</span>
      <span aria-hidden="true"> · </span>
      <button className="link" onClick={() => undo.mutate(offer.changeId, { onSuccess: dismiss })} disabled={undo.isPending} data-testid="undo-toast-undo">
        Undo
      </button>
      <button className="link" onClick={dismiss} aria-label="Close">
        ✕
      </button>
      {refused ? (
        <div className="undo-toast-refused" data-testid="undo-toast-refused">
          <strong>Undo refused.</strong>
          <DependentsOffer changeId={offer.changeId} onUndone={dismiss} />
        </div>
      ) : (
        <ErrorBox error={undo.error} />
      )}
    </div>
  );
}
