/**
 * The store badge's words about held counts (StoreBadge.tsx): which change holds them and since
 * when, from store.info's own `counts_held`, so the badge never shows a count that disagrees with
 * the list without saying why.
 */
import type { CountsHeld } from '../../core/api/contract/index.js';
import { fmtTime } from './format-time.js';

/** Beside the live count: short, the change that holds it. */
export function heldNote(held: CountsHeld): string {
  return ` (held during change #${held.change_id})`;
}

/** On hover: when the count was taken, what is being written, and when the count follows it. */
export function heldTitle(path: string, held: CountsHeld): string {
  return `${path}\nCounted at ${fmtTime(held.counted_at)}. Change #${held.change_id} (${held.label}, ${held.mode}) is being written in batches by another writer, so its rows are part-way: the list and the graph follow it now, and this count when it ends.`;
}
