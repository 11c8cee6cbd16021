/** Keyboard shortcuts: 1–9 switch views, / focuses search, t toggles the theme, ? shows this list. */
import { useEffect } from 'react';
import { platform } from '../platform/browser.js';
import { buildHash, navigate } from '../state/router.js';
import { useUi } from '../state/ui.js';

export const SHORTCUTS: [string, string][] = [
  ['1', 'Memories'],
  ['2', 'Graph'],
  ['3', 'Recall console'],
  ['4', 'Access audit'],
  ['5', 'Overview'],
  ['6', 'Reflection'],
  ['7', 'History (undo, redo)'],
  ['8', 'Beliefs'],
  ['9', 'Fleet'],
  ['0', 'Intents and todos'],
  ['/', 'Search in the current view'],
  ['t', 'Toggle light / dark theme'],
  ['Esc', 'Clear the selection, close this help'],
  ['?', 'Show these shortcuts'],
];

export function useShortcuts(): void {
  useEffect(
    () =>
      platform.onKeyDown((e) => {
        if (e.ctrlKey || e.metaKey || e.altKey) return;
        if (e.key === 'Escape') {
          useUi.getState().setHelpOpen(false);
          useUi.getState().clearSelected();
          return;
        }
        if (platform.typingTarget(e)) return;
        const views = { '1': 'memories', '2': 'graph', '3': 'recall', '4': 'audit', '5': 'overview', '6': 'reflection', '7': 'history', '8': 'beliefs', '9': 'fleet', '0': 'prospective' } as const;
        if (e.key in views) {
          navigate(buildHash(views[e.key as keyof typeof views]));
          e.preventDefault();
        } else if (e.key === '/') {
          platform.focusSearch();
          e.preventDefault();
        } else if (e.key === 't') useUi.getState().toggleTheme();
        else if (e.key === '?') useUi.getState().setHelpOpen(true);
      }),
    [],
  );
}

export function ShortcutHelp() {
  const open = useUi((s) => s.helpOpen);
  if (!open) return null;
  return (
    <div className="modal-backdrop" onClick={() => useUi.getState().setHelpOpen(false)}>
      <div className="modal" role="dialog" aria-label="Keyboard shortcuts" onClick={(e) => e.stopPropagation()}>
        <h3>Keyboard shortcuts</h3>
        <table>
          <tbody>
            {SHORTCUTS.map(([k, what]) => (
              <tr key={k}>
                <td>
                  <kbd>{k}</kbd>
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button onClick={() => useUi.getState().setHelpOpen(false)}>Close</button>
      </div>
    </div>
  );
}
