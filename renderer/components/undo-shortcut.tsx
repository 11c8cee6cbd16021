/**
 * Ctrl+Z (⌘Z) outside a text field undoes the newest change still applied in the journal, the same
 * undo History offers, and says what it undid (or why it could not). Inside a text field the
 * browser's own text undo keeps the key.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { call } from '../api/client.js';
import { describeError } from '../api/errors.js';
import { keys } from '../api/keys.js';
import { platform } from '../platform/browser.js';
import { useNotice } from '../state/notice.js';

export function isUndoKey(e: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }): boolean {
  return (e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'z';
}

export function useUndoShortcut(): void {
  const qc = useQueryClient();
  useEffect(() => {
    let running = false;
    return platform.onKeyDown((e) => {
      if (!isUndoKey(e) || platform.typingTarget(e)) return;
      e.preventDefault();
      if (running) return;
      running = true;
      const { show } = useNotice.getState();
      void (async () => {
        try {
          const recent = await call('journal.history', { limit: 50, offset: 0 });
          const last = recent.find((c) => c.state === 'applied');
          if (!last) {
            show({ kind: 'info', text: 'Nothing to undo: no change in the journal is still applied.' });
            return;
          }
          await call('journal.undo', { change_id: last.id });
          await qc.invalidateQueries({ queryKey: keys.all });
          show({ kind: 'info', text: `Undid change #${last.id}: ${last.label}. History can redo it.` });
        } catch (err) {
          const m = describeError(err);
          show({ kind: 'error', text: `Undo refused. ${m.sentence}` });
        } finally {
          running = false;
        }
      })();
    });
  }, [qc]);
}

export function NoticeBar() {
  const notice = useNotice((s) => s.notice);
  const clear = useNotice((s) => s.clear);
  if (!notice) return null;
  return (
    <div className={`notice-bar ${notice.kind}`} role="status" data-testid="notice">
      <span>{notice.text}</span>
      <a className="button" href="#/history">
        History
      </a>
      <button onClick={clear} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
