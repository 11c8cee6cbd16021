/** The lab's address: `#/lab?a=mnemo&b=nooa-0.0.9&k=10&src=logged&labels=<source>&sel=<query>&knob=<path>`. */
import type { LabelSourceName } from '../../../core/api/contract/lab.js';
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
  /** The label source; null: the store's default (used-later where the log has used recalls, else logged-top-k). */
  labels: LabelSourceName | null;
}

export const LABEL_SOURCES: readonly LabelSourceName[] = ['used-later', 'logged-top-k', 'none'];

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
    labels: LABEL_SOURCES.find((l) => l === p.get('labels')) ?? null,
  };
}

export function labHash(p: LabParams): string {
  return `#${buildHash('lab', null, { a: p.a, b: p.b, k: p.k, src: p.src, labels: p.labels, sel: p.sel, knob: p.knob === DEFAULT_KNOB ? null : p.knob })}`;
}

/** One query per line, blank lines dropped, each at most 2000 characters, at most 200. */
export function typedQueries(text: string): string[] {
  return [...new Set(text.split('\n').map((l) => l.trim()).filter(Boolean))].slice(0, 200).map((q) => q.slice(0, 2000));
}
