/**
 * The Recall console's state in the URL hash (query, scope, k, hops, mode, the selected row and the
 * "why not?" target). Its own module so the console and its panels share it without importing
 * each other.
 */
import { instantParam } from '../../state/instant.js';
import { recallHash } from '../../state/last-recall.js';

export interface RecallParams {
  q: string;
  k: number;
  hops: number;
  owner: string;
  mode: 'explain' | 'recall';
  sel: string | null;
  why: string | null;
  /** The instant the console is set to (time travel); null: live. */
  at: number | null;
}

export function readParams(p: URLSearchParams): RecallParams {
  const num = (k: string, d: number, lo: number, hi: number) => {
    const v = Number(p.get(k));
    return p.has(k) && Number.isInteger(v) && v >= lo && v <= hi ? v : d;
  };
  return {
    q: p.get('q') ?? '',
    k: num('k', 10, 1, 1000),
    hops: num('hops', 1, 0, 4),
    owner: p.get('owner') ?? '',
    mode: p.get('mode') === 'recall' ? 'recall' : 'explain',
    sel: p.get('sel'),
    why: p.get('why'),
    at: instantParam(p).at,
  };
}

export function hashFor(r: RecallParams): string {
  return recallHash(r, { mode: r.mode === 'explain' ? null : r.mode, sel: r.sel, why: r.why, at: r.at });
}
