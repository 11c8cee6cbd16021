/**
 * Why (not)'s sentences, made only from the facts the result carries (its rank, margin, terms and
 * each leg's verdict), so a sentence can never say what the numbers beside it do not: the keyword
 * sentence names the leg that found the memory when its source says a keyword leg did, and the
 * spread sentence names the spread term the score holds. To say something new, add a fact to the
 * result (why-not.ts) and a sentence for it here.
 */
import { pyRound } from '../model/py-round.js';
import { supersededSentence } from './superseded-why.js';
import type { WhyNotResult } from './types.js';

/** The facts the sentences read: the result without its sentences. */
export type WhyNotFacts = Omit<WhyNotResult, 'explanation'>;

export function fmt(x: number | null): string {
  return x === null ? '—' : String(pyRound(x));
}

/** Plain sentences, most important first: where it stands, then one per leg. */
export function whyNotSentences(f: WhyNotFacts): string[] {
  const out: string[] = [];
  // People read ranks 1-based (#1 is the top); the JSON `rank` fields stay nooa's 0-based.
  if (f.superseded) out.push(supersededSentence(f.superseded));
  if (f.status === 'superseded') out.push(`left out of the ${f.ranked} ranked rows (it scored ${fmt(f.terms.score)})`);
  else if (f.status === 'in_top_k') out.push(`ranked #${f.rank! + 1} of ${f.ranked}, inside the top ${f.k} by ${fmt(f.margin)}`);
  else if (f.status === 'below_k') out.push(`ranked #${f.rank! + 1} of ${f.ranked}: ${fmt(-(f.margin ?? 0))} short of #${f.k}, the last result (${fmt(f.kth_score)})`);
  else {
    out.push(`not ranked: ${!f.visibility.visible ? f.visibility.reason : 'no leg found it and no spread reached it'}`);
    if (f.kth_score !== null && f.kth) out.push(`as a candidate it would score ${fmt(f.terms.score)} against ${fmt(f.kth_score)} for #${f.kth.rank + 1}, the last result`);
  }
  out.push(`dense: ${f.legs.dense.reason}`);
  if (f.legs.bm25) out.push(`keyword (BM25): ${f.legs.bm25.reason}`);
  if (f.legs.sparse.on || !f.legs.bm25) out.push(`keyword${f.legs.bm25 ? ' (substring)' : ''}: ${f.legs.sparse.reason}`);
  out.push(`spread: ${f.legs.spread.reason}`);
  return out;
}

/** The spread leg's sentence from its parts (each after γ), which add up to the spread term. */
export function spreadSentence(parts: { hops: number; received: number; edges: number; edgeCount: number; siblings: number; parent: number; blocked: string | null }): string {
  if (parts.hops === 0) return 'hops = 0: no spread';
  if (parts.received > 0) {
    const from: string[] = [];
    if (parts.edges > 0) from.push(`${fmt(parts.edges)} over ${parts.edgeCount} edge(s)`);
    if (parts.siblings > 0) from.push(`${fmt(parts.siblings)} from its part_of siblings`);
    if (parts.parent > 0) from.push(`${fmt(parts.parent)} from its part_of parent`);
    return `received ${fmt(parts.received)}${from.length ? `: ${from.join(', ')}` : ''}${parts.edges === 0 && parts.blocked ? `; ${parts.blocked}` : ''}`;
  }
  return parts.blocked ?? 'nothing reached it';
}
