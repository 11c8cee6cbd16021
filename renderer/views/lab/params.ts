/** The lab's address: `#/lab?a=mnemo&b=nooa-0.0.9&k=10&src=logged&sel=<query>&knob=<path>`. */
import { buildHash } from '../../state/router.js';

export type QuerySource = 'logged' | 'typed';

export interface LabParams {
  a: string;
  b: string;
  k: number;
  src: QuerySource;
  /** The query whose two rankings are shown side by side. */
  sel: string | null;
  knob: string;
}

export const DEFAULT_KNOB = 'knobs.weights.recency';

export function readLabParams(p: URLSearchParams): LabParams {
  const k = Number(p.get('k'));
  return {
    a: p.get('a') || 'mnemo',
    b: p.get('b') || 'nooa-0.0.9',
    k: Number.isInteger(k) && k >= 1 && k <= 50 ? k : 10,
    src: p.get('src') === 'typed' ? 'typed' : 'logged',
    sel: p.get('sel'),
    knob: p.get('knob') || DEFAULT_KNOB,
  };
}

export function labHash(p: LabParams): string {
  return `#${buildHash('lab', null, { a: p.a, b: p.b, k: p.k, src: p.src, sel: p.sel, knob: p.knob === DEFAULT_KNOB ? null : p.knob })}`;
}

/** One query per line, blank lines dropped, each at most 2000 characters, at most 200. */
export function typedQueries(text: string): string[] {
  return [...new Set(text.split('\n').map((l) => l.trim()).filter(Boolean))].slice(0, 200).map((q) => q.slice(0, 2000));
}
