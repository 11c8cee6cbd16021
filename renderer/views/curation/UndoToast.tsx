/** "Archived · Undo": the curator's last change, undoable in one click where it was made (History keeps them all). */
import { useEffect } from 'react';
import { useUndo } from '../../api/curation.js';
import { ErrorBox } from '../../components/common.js';
import { useUndoToast } from '../../state/undo-toast.js';
import './curation.css';

const SHOWN_MS = 12_000;

export function UndoToast() {
  const offer = useUndoToast((s) => s.offer);
  const dismiss = useUndoToast((s) => s.dismiss);
  const undo = useUndo();
  useEffect(() => {
    if (!offer) return;
    undo.reset();
    const t = setTimeout(dismiss, SHOWN_MS);
    return () => clearTimeout(t);
  }, [offer?.changeId]);
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
      <ErrorBox error={undo.error} />
    </div>
  );
}
