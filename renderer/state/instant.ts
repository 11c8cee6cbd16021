/**
 * The instant a view shows the store at (time travel), as it lives in the URL: `?at=<epoch
 * seconds>`, so a link shares it. No `at` means the live store. Instants are shown and typed in
 * UTC, like every other time in the workbench, so a shared link reads the same everywhere.
 */
import type { ViewName } from './hash.js';

/** The views that can show the store as of an instant; the instant follows navigation between them. */
export const TIME_TRAVEL_VIEWS: readonly ViewName[] = ['memories', 'memory', 'graph', 'recall'];

export interface InstantParam {
  /** The instant in whole epoch seconds, or null for the live store. */
  at: number | null;
  /** A sentence for people when the link's value was refused (the view then shows the live store). */
  error: string | null;
}

export function instantParam(params: URLSearchParams): InstantParam {
  const raw = params.get('at');
  if (raw === null || raw === '') return { at: null, error: null };
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n)) {
    return { at: null, error: `The link's instant "${raw}" is not a time in whole seconds since 1970; showing the store as it is now.` };
  }
  return { at: n, error: null };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "2026-12-02 06:24:10 UTC": to the second, since changes seconds apart are different instants. */
export function fmtInstant(at: number): string {
  const d = new Date(at * 1000);
  if (!Number.isFinite(d.getTime())) return String(at);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
}

/**
 * The text of a UTC time field for an instant: "2026-12-02 06:24:10", 24-hour. (A `datetime-local`
 * input showed the same value as a 12-hour local time in an en-US browser, under a UTC label.)
 */
export function toInputValue(at: number): string {
  return fmtInstant(at).replace(' UTC', '');
}

/** The instant a UTC time field names ("2026-12-02 06:24:10", the seconds optional, a T allowed); null when it is empty or not a date. */
export function fromInputValue(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0'] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

/**
 * One quick step (−1 h, +1 day, …) from the instant shown, or from `now` when the view is live.
 * A step that reaches `now` or later is the live store (null): the future is not history.
 */
export function stepInstant(at: number | null, seconds: number, now: number): number | null {
  const next = Math.floor((at ?? now) + seconds);
  return next >= now ? null : next;
}

/** "3 h earlier", "2 days earlier": how far back an instant is from `now`, for the banner. */
export function agoLabel(at: number, now: number): string {
  const s = Math.max(0, Math.round(now - at));
  if (s < 60) return s === 1 ? '1 second ago' : `${s} seconds ago`;
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (s >= size) {
      const n = Math.floor(s / size);
      return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
    }
  }
  return `${s} seconds ago`;
}

/**
 * The current route's hash with the instant set (or removed, for live), every other parameter kept
 * as it was: the time control changes when, not what.
 */
export function hashWithInstant(hash: string, at: number | null): string {
  const clean = hash.replace(/^#/, '');
  const [path = '', query = ''] = clean.split('?', 2) as [string?, string?];
  const params = new URLSearchParams(query);
  if (at === null) params.delete('at');
  else params.set('at', String(at));
  // URLSearchParams would write commas as %2C; the views write lists with bare commas.
  const qs = params.toString().replace(/%2C/gi, ',');
  return `${path || '/memories'}${qs ? `?${qs}` : ''}`;
}
