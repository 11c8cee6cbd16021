/**
 * The erase dialog, held above the views: the view that opened it (a memory's page) may go once
 * its memory is erased, and the receipt must stay on screen until it has been read.
 */
import { create } from 'zustand';
import type { EraseTarget } from '../api/privacy.js';

interface EraseDialogState {
  target: EraseTarget | null;
  /** Called when the dialog closes after an erase (the opener leaves a page whose memory is gone). */
  afterErase: (() => void) | null;
  open(target: EraseTarget, afterErase?: () => void): void;
  close(): void;
}

export const useEraseDialog = create<EraseDialogState>((set) => ({
  target: null,
  afterErase: null,
  open: (target, afterErase) => set({ target, afterErase: afterErase ?? null }),
  close: () => set({ target: null, afterErase: null }),
}));
