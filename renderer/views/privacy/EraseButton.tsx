/** Erase the given memories for good (EraseDialog, held above the views); beside Forget, which History can undo. */
import { useEraseDialog } from '../../state/erase-dialog.js';
import { useReadOnlyReason } from '../curation/read-only.js';

export function EraseButton({ ids, onDone }: { ids: string[]; onDone?: () => void }) {
  const readOnly = useReadOnlyReason();
  return (
    <button
      className="danger"
      onClick={() => useEraseDialog.getState().open({ ids }, onDone)}
      disabled={ids.length === 0 || !!readOnly}
      title={readOnly ?? 'Erase for good: from every place the store keeps it; cannot be undone'}
      data-testid="erase"
    >
      Erase…
    </button>
  );
}
