/** The last change the curator made, offered back as "Archived · Undo" where they made it. */
import { create } from 'zustand';

export interface UndoOffer {
  label: string;
  changeId: number;
}

interface UndoToastState {
  offer: UndoOffer | null;
  offerUndo: (label: string, changeId: number | null | undefined) => void;
  dismiss: () => void;
}

export const useUndoToast = create<UndoToastState>((set) => ({
  offer: null,
  // A call that changed nothing has no change to undo, so it offers nothing.
  offerUndo: (label, changeId) => set({ offer: typeof changeId === 'number' ? { label, changeId } : null }),
  dismiss: () => set({ offer: null }),
}));

/** "Archived", "Forgot 3 memories": what the toast says before "Undo". */
export function changeLabel(verb: string, n: number): string {
  return n === 1 ? verb : `${verb} ${n.toLocaleString('en')} memories`;
}
