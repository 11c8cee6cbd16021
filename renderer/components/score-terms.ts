/**
 * The bar data for a score: one segment per named term, in the order they add up, so the bar is
 * the score. Pure (no DOM), so a test can check that the segments sum to the score.
 */
import type { ScoreTerms } from '../../core/api/contract/index.js';

export const TERM_ORDER = ['rel', 'rec', 'imp', 'kw', 'ent', 'spread'] as const;
export type TermKey = (typeof TERM_ORDER)[number];

export const TERM_LABEL: Record<TermKey, string> = {
  rel: 'relevance',
  rec: 'recency',
  imp: 'importance',
  kw: 'keyword (BM25)',
  ent: 'entity boost',
  spread: 'spread',
};

export interface Segment {
  key: TermKey;
  label: string;
  value: number;
}

/** The terms present, in order (a nooa row has four, a mnemo row six). */
export function barSegments(terms: ScoreTerms): Segment[] {
  const out: Segment[] = [];
  for (const key of TERM_ORDER) {
    const value = terms[key];
    if (value !== undefined) out.push({ key, label: TERM_LABEL[key], value });
  }
  return out;
}

export function segmentsSum(segments: readonly Segment[]): number {
  return segments.reduce((s, x) => s + x.value, 0);
}

/**
 * nooa's weights (1 · rel + 0.5 · rec + 0.5 · imp + spread, spread already γ-scaled), for an access
 * logged before terms were stored: its ring components are all there is.
 */
export const NOOA_WEIGHTS = { rel: 1.0, rec: 0.5, imp: 0.5, spread: 1.0 } as const;

export function termsFromComponents(c: { rel: number; rec: number; imp: number; spread: number }): ScoreTerms {
  return { rel: NOOA_WEIGHTS.rel * c.rel, rec: NOOA_WEIGHTS.rec * c.rec, imp: NOOA_WEIGHTS.imp * c.imp, spread: NOOA_WEIGHTS.spread * c.spread };
}
