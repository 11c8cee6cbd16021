/** UI state that outlives a view: theme, the memory multi-selection, graph preferences. */
import { create } from 'zustand';
import { platform } from '../platform/browser.js';

export type Theme = 'light' | 'dark';

interface UiState {
  theme: Theme;
  toggleTheme(): void;
  selected: Set<string>;
  toggleSelected(id: string): void;
  setSelected(ids: Iterable<string>): void;
  clearSelected(): void;
  helpOpen: boolean;
  setHelpOpen(open: boolean): void;
}

const savedTheme = platform.localGet('mnemo.theme');
const initialTheme: Theme = savedTheme === 'dark' || savedTheme === 'light' ? savedTheme : platform.prefersDark() ? 'dark' : 'light';

export const useUi = create<UiState>((set, get) => ({
  theme: initialTheme,
  toggleTheme: () => {
    const theme: Theme = get().theme === 'dark' ? 'light' : 'dark';
    platform.localSet('mnemo.theme', theme);
    set({ theme });
  },
  selected: new Set(),
  toggleSelected: (id) => {
    const next = new Set(get().selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    set({ selected: next });
  },
  setSelected: (ids) => set({ selected: new Set(ids) }),
  clearSelected: () => set({ selected: new Set() }),
  helpOpen: false,
  setHelpOpen: (helpOpen) => set({ helpOpen }),
}));
