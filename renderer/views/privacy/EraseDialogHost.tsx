/** The open erase dialog, if any (state/erase-dialog.ts): rendered by the shell, so it outlives the view that opened it. */
import { useState } from 'react';
import { useEraseDialog } from '../../state/erase-dialog.js';
import { EraseDialog } from './EraseDialog.js';

export function EraseDialogHost() {
  const { target, afterErase, close } = useEraseDialog();
  const [erased, setErased] = useState(false);
  if (!target) return null;
  return (
    <EraseDialog
      target={target}
      onErased={() => setErased(true)}
      onClose={() => {
        close();
        if (erased) afterErase?.();
        setErased(false);
      }}
    />
  );
}
