/**
 * Keyboard shortcuts: 1–9 and 0 switch views, / focuses search, t toggles the theme, Ctrl+Z undoes,
 * ? shows this list. They act only while focus is not in a control; Esc leaves one.
 */
import { useEffect } from 'react';
import { platform } from '../platform/browser.js';
import { VIEW_KEYS, viewForKey } from '../state/keymap.js';
import { buildHash, navigate } from '../state/router.js';
import { useUi } from '../state/ui.js';

export const SHORTCUTS: [string, string][] = [
  ...VIEW_KEYS.map((k): [string, string] => [k.key, k.help]),
  ['/', 'Search in the current view'],
  ['t', 'Toggle light / dark theme'],
  ['Ctrl+Z', 'Undo the last change (outside text fields)'],
  ['Enter', 'Open the focused row'],
  ['Esc', 'Leave the field or button that has focus; then clear the selection, close this help'],
  ['?', 'Show these shortcuts'],
];

export function useShortcuts(): void {
  useEffect(
    () =>
      platform.onKeyDown((e) => {
        if (e.ctrlKey || e.metaKey || e.altKey) return;
        if (e.key === 'Escape') {
          // A control that used Esc itself (an edit it cancelled, a dialog it closed) said so.
          if (!e.defaultPrevented && platform.leaveControl(e)) return;
          useUi.getState().setHelpOpen(false);
          useUi.getState().clearSelected();
          return;
        }
        // Only where focus is not in a control that takes the key: "t" on a focused button is not the theme.
        if (platform.controlTarget(e)) return;
        const view = viewForKey(e.key);
        if (view) {
          navigate(buildHash(view));
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
