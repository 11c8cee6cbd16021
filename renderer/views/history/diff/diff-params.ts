/**
 * The diff view's state in the URL: `#/history/diff?from=<epoch s>&to=<epoch s>&kind=<kind>&limit=<n>`,
 * so a link names exactly the two instants compared. A link without instants is completed (the
 * last day up to now) and written back, so what is on screen always has a shareable address.
 */
import { buildHash } from '../../../state/hash.js';

export const DIFF_PAGE = 200;
/** The engine's cap on each list (store.diff's MAX_DIFF_ROWS). */
export const DIFF_MAX = 10_000;
export const DAY = 86_400;

export interface DiffParams {
  from: number;
  to: number;
  /** One kind of change to list ("added", "unlinked", …); null: every kind. */
  kind: string | null;
  /** How many rows of each list to ask for ("show more" raises it). */
  limit: number;
  /** True when the link lacked an instant and one was filled in (the view writes the URL back). */
  completed: boolean;
  /** A sentence for people about a value of the link that was refused. */
  error: string | null;
}

const seconds = (raw: string | null): number | null => (raw !== null && /^\d+$/.test(raw.trim()) && Number.isSafeInteger(Number(raw)) ? Number(raw) : null);

export function diffParams(p: URLSearchParams, now: number): DiffParams {
  const errors: string[] = [];
  let to = seconds(p.get('to'));
  let from = seconds(p.get('from'));
  if (p.get('to') && to === null) errors.push(`The link's "to" instant "${p.get('to')}" is not a time in whole seconds since 1970.`);
  if (p.get('from') && from === null) errors.push(`The link's "from" instant "${p.get('from')}" is not a time in whole seconds since 1970.`);
  const completed = to === null || from === null;
  to ??= Math.floor(now);
  from ??= to - DAY;
  if (from > to) {
    errors.push('The link compares a later instant with an earlier one; the two are shown the other way round.');
    [from, to] = [to, from];
  }
  const rawLimit = Number(p.get('limit') ?? DIFF_PAGE);
  const limit = Number.isInteger(rawLimit) && rawLimit >= 1 ? Math.min(rawLimit, DIFF_MAX) : DIFF_PAGE;
  return { from, to, kind: p.get('kind') || null, limit, completed, error: errors.length ? errors.join(' ') : null };
}

export function diffHash(d: { from: number; to: number; kind?: string | null; limit?: number }): string {
  return buildHash('history', 'diff', { from: d.from, to: d.to, kind: d.kind ?? null, limit: d.limit === undefined || d.limit === DIFF_PAGE ? null : d.limit });
}
