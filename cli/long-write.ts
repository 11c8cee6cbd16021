/**
 * A long write run by a one-shot command (`mnemo reflect --apply`, `mnemo undo`, `mnemo redo`):
 * its progress on stderr as the engine reports it (journal.progress: a line when the phase changes
 * and at each further tenth, with the time left at the pace kept), and Ctrl-C cancels it through
 * journal.cancel, so the store is left as it was. Quiet for a job that ends within a second.
 */
import type { ApiSession } from '../core/api/context.js';
import type { WriteJobState } from '../core/api/contract/journal.js';
import { call } from '../core/api/service.js';
import { onInterrupt } from './signals.js';

/** How often the progress is read, and how long a job runs before it says anything. */
const LOOK_MS = 1000;

/** ", about 40 s left", ", about 9 min left", or nothing without a pace. */
export function etaWords(s: number | null): string {
  if (s === null) return '';
  return s < 60 ? `, about ${Math.max(1, s)} s left` : `, about ${Math.round(s / 60)} min left`;
}

function line(what: string, p: WriteJobState): string {
  const share = p.total > 0 ? ` ${p.done.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} ${p.unit ?? ''} (${Math.floor((100 * p.done) / p.total)} %)` : '';
  return `${what}: ${p.cancelling && p.phase !== 'take-back' ? 'cancelling… ' : ''}${p.phase_label ?? 'starting'}${share}${etaWords(p.eta_s)}`;
}

export async function asLongWrite<T>(session: ApiSession, what: string, say: (line: string) => void, work: () => Promise<T>): Promise<T> {
  let last = '';
  const timer = setInterval(() => {
    void call(session, 'journal.progress', {}).then((p) => {
      if (!p.running) return;
      const tenth = p.total > 0 ? Math.floor((10 * p.done) / p.total) : 0;
      const key = `${p.phase}:${tenth}:${p.cancelling}`;
      if (key === last) return;
      last = key;
      say(line(what, p));
    });
  }, LOOK_MS);
  const stopListening = onInterrupt(() => void call(session, 'journal.cancel', {}), say);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    stopListening();
  }
}

/** Whether an error is the cancelled job's own ending (the store is as it was). */
export function cancelledJob(err: unknown): boolean {
  return (err as { details?: Record<string, unknown> } | null)?.details?.['cancelled'] === true;
}

/** Exit status of a command whose job was cancelled by Ctrl-C: 128 + SIGINT, as the shell reports it. */
export const CANCELLED_EXIT = 130;
