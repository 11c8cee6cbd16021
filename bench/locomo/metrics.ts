/**
 * LLM-free retrieval metrics on LoCoMo (see the retrieval-metrics notes of the design docs):
 * turn-level evidence recall@k, recall_all@k, and session-level recall@k. Questions whose gold
 * evidence is empty after normalisation (four open-domain questions have none) have no defined
 * recall: they are left out of every average and counted separately as `unscored`.
 */
import { CATEGORY_NAMES, type Category } from './dataset.js';
import { sessionOf } from './evidence.js';

export interface QuestionResult {
  sampleId: string;
  qaIndex: number;
  category: Category;
  evidence: string[];
  /** Ranked dia_ids, best first (at most the largest k). */
  retrieved: string[];
}

/** |gold ∩ top-k| / |gold|. */
export function recallAt(evidence: readonly string[], retrieved: readonly string[], k: number): number {
  if (evidence.length === 0) return NaN;
  const top = new Set(retrieved.slice(0, k));
  let hit = 0;
  for (const id of evidence) if (top.has(id)) hit++;
  return hit / evidence.length;
}

/** 1 when every gold turn is in the top k. */
export function recallAllAt(evidence: readonly string[], retrieved: readonly string[], k: number): number {
  return recallAt(evidence, retrieved, k) === 1 ? 1 : 0;
}

/** The share of gold sessions that hold at least one of the top-k turns. */
export function sessionRecallAt(evidence: readonly string[], retrieved: readonly string[], k: number): number {
  const gold = new Set(evidence.map(sessionOf));
  if (gold.size === 0) return NaN;
  const top = new Set(retrieved.slice(0, k).map(sessionOf));
  let hit = 0;
  for (const s of gold) if (top.has(s)) hit++;
  return hit / gold.size;
}

export interface Figures {
  /** Scored questions (non-empty evidence). */
  n: number;
  recall: Record<string, number>;
  recall_all_at_10: number;
  session_recall_at_10: number;
}

export interface Summary {
  /** Per category name, plus `overall` = count-weighted over categories 1–4. */
  by_category: Record<string, Figures>;
  overall: Figures;
  questions: number;
  unscored: number;
}

function figures(results: readonly QuestionResult[], ks: readonly number[]): Figures {
  const scored = results.filter((r) => r.evidence.length > 0);
  const mean = (f: (r: QuestionResult) => number) => (scored.length === 0 ? 0 : scored.reduce((s, r) => s + f(r), 0) / scored.length);
  const recall: Record<string, number> = {};
  for (const k of ks) recall[`R@${k}`] = round(mean((r) => recallAt(r.evidence, r.retrieved, k)));
  return {
    n: scored.length,
    recall,
    recall_all_at_10: round(mean((r) => recallAllAt(r.evidence, r.retrieved, 10))),
    session_recall_at_10: round(mean((r) => sessionRecallAt(r.evidence, r.retrieved, 10))),
  };
}

export function summarize(results: readonly QuestionResult[], ks: readonly number[]): Summary {
  const byCategory: Record<string, Figures> = {};
  for (const cat of [1, 2, 3, 4] as const) {
    const inCat = results.filter((r) => r.category === cat);
    if (inCat.length > 0) byCategory[CATEGORY_NAMES[cat]] = figures(inCat, ks);
  }
  const counted = results.filter((r) => r.category >= 1 && r.category <= 4);
  return {
    by_category: byCategory,
    overall: figures(counted, ks),
    questions: counted.length,
    unscored: counted.filter((r) => r.evidence.length === 0).length,
  };
}

export function round(x: number, places = 4): number {
  const f = 10 ** places;
  return Math.round(x * f) / f;
}
