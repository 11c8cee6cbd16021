/**
 * The one map from number keys to views. The top bar lists the views in this order and the
 * shortcuts follow it, so the ninth link is 9 and the tenth is 0 (the keys run 1…9, 0 along the
 * keyboard's top row).
 */
import type { ViewName } from './router.js';

export const VIEW_KEYS: { key: string; view: ViewName; label: string; help: string }[] = [
  { key: '1', view: 'memories', label: 'Memories', help: 'Memories' },
  { key: '2', view: 'graph', label: 'Graph', help: 'Graph' },
  { key: '3', view: 'recall', label: 'Recall', help: 'Recall console' },
  { key: '4', view: 'audit', label: 'Audit', help: 'Access audit' },
  { key: '5', view: 'overview', label: 'Overview', help: 'Overview' },
  { key: '6', view: 'reflection', label: 'Reflection', help: 'Reflection' },
  { key: '7', view: 'history', label: 'History', help: 'History (undo, redo)' },
  { key: '8', view: 'beliefs', label: 'Beliefs', help: 'Beliefs' },
  { key: '9', view: 'prospective', label: 'Intents', help: 'Intents and todos' },
  { key: '0', view: 'fleet', label: 'Fleet', help: 'Fleet' },
  // Past the number row: l for the Scorer lab, c for the conflict queue.
  { key: 'l', view: 'lab', label: 'Lab', help: 'Scorer lab' },
  // p for Privacy: redaction at the door, and erasing.
  { key: 'p', view: 'privacy', label: 'Privacy', help: 'Privacy: redaction and erasing' },
  { key: 'c', view: 'conflicts', label: 'Conflicts', help: 'Conflicts (what the store disagrees with itself about)' },
];

export function viewForKey(key: string): ViewName | null {
  return VIEW_KEYS.find((k) => k.key === key)?.view ?? null;
}
