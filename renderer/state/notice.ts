/** One short notice at the foot of the window (what a keyboard action did, e.g. Ctrl+Z's undo). */
import { create } from 'zustand';

export interface Notice {
  text: string;
  kind: 'info' | 'error';
}

interface NoticeState {
  notice: Notice | null;
  show(notice: Notice): void;
  clear(): void;
}

export const useNotice = create<NoticeState>((set) => ({
  notice: null,
  show: (notice) => set({ notice }),
  clear: () => set({ notice: null }),
}));
