/** Duplicate groups the curator dismissed ("not duplicates"), kept for this browser session. */
import { create } from 'zustand';

interface Dismissed {
  dismissed: string[];
  dismiss: (key: string) => void;
  reset: () => void;
}

export const useDismissedDuplicates = create<Dismissed>((set) => ({
  dismissed: [],
  dismiss: (key) => set((s) => ({ dismissed: s.dismissed.includes(key) ? s.dismissed : [...s.dismissed, key] })),
  reset: () => set({ dismissed: [] }),
}));
