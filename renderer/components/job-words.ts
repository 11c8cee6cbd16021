/**
 * The words on a long job's bar (JobProgress.tsx), from what journal.progress says: the phase, n of
 * N of its units with the share, the time left, how long it has run, and "cancelling…" from the
 * moment Cancel is pressed.
 */
import type { WriteJobState } from '../../core/api/contract/journal.js';

/** "about 40 s left", "about 9 min left"; null while there is no pace yet. */
export function etaText(s: number | null): string | null {
  if (s === null) return null;
  if (s < 60) return `about ${Math.max(1, s)} s left`;
  if (s < 3600) return `about ${Math.round(s / 60)} min left`;
  return `about ${(s / 3600).toFixed(1)} h left`;
}

/** "12 s", "3 min 05 s". */
export function elapsedText(s: number): string {
  const whole = Math.floor(s);
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

const UNIT: Record<string, [string, string]> = {
  rows: ['row', 'rows'],
  items: ['item', 'items'],
  memories: ['memory', 'memories'],
  steps: ['step', 'steps'],
  seconds: ['second', 'seconds'],
};

function countText(p: WriteJobState): string {
  const [one, many] = UNIT[p.unit ?? 'items'] ?? ['item', 'items'];
  const fmt = (n: number) => (p.unit === 'seconds' ? n.toFixed(1) : n.toLocaleString('en-US'));
  return `${fmt(p.done)} of ${fmt(p.total)} ${p.total === 1 ? one : many}`;
}

const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** What the bar's line says, from the engine's state and whether Cancel was pressed here. */
export function jobLine(what: string, p: WriteJobState | undefined, cancelPressed: boolean): { text: string; share: number | null } {
  const cancelling = cancelPressed || p?.cancelling === true;
  if (!p || !p.running || p.phase === null) return { text: cancelling ? `${what}: cancelling…` : `${what}…`, share: null };
  const share = p.total > 0 ? Math.min(1, p.done / p.total) : null;
  const counted = share === null ? '' : `: ${countText(p)} (${Math.floor(share * 100)} %)`;
  const eta = etaText(p.eta_s);
  if (cancelling && p.phase !== 'take-back') return { text: `${what}: cancelling… stopping after the current step`, share };
  const head = cancelling ? `${what}: cancelling… ${p.phase_label}` : `${what}: ${p.phase_label}`;
  return { text: `${sentence(head)}${counted}${eta ? ` · ${eta}` : ''}`, share };
}
