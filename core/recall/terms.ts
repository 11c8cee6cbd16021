/**
 * The named, already-weighted contributions that make a row's score. They add up to the score
 * (activation) exactly, up to float rounding, under every profile:
 *   rel + rec + imp [+ kw] [+ ent] + spread = activation.
 * The entity boost multiplies the base, so it is shown as what it adds: base − base before the
 * boost. kw and ent appear only when the profile has the feature, so a nooa row shows nooa's four.
 */
import type { RankedRow } from './pipeline.js';
import type { RecallProfile } from './profile.js';
import { pyRound } from '../model/py-round.js';
import type { ScoreTerms } from './types.js';

export function rowTerms(row: Pick<RankedRow, 'base' | 'rel' | 'rec' | 'imp' | 'spread' | 'kw'> & Partial<Pick<RankedRow, 'activation' | 'superseded_by'>>, profile: RecallProfile): ScoreTerms {
  const { weights: w } = profile.knobs;
  const { features } = profile;
  const rel = w.relevance * row.rel;
  const rec = w.recency * row.rec;
  const imp = w.importance * row.imp;
  const kw = features.bm25 ? features.bm25.weight * (row.kw ?? 0) : undefined;
  const beforeBoost = rel + rec + imp + (kw ?? 0);
  // A spread-only row has no base: nothing was boosted.
  const ent = features.entity_boost > 0 ? (row.base === 0 ? 0 : row.base - beforeBoost) : undefined;
  // A demoted superseded row lost part of its activation: shown as a term of its own, so the terms still add up.
  const full = row.base + row.spread;
  const superseded = row.superseded_by && row.activation !== undefined && row.activation !== full ? row.activation - full : undefined;
  return { rel, rec, imp, ...(kw !== undefined ? { kw } : {}), ...(ent !== undefined ? { ent } : {}), spread: row.spread, ...(superseded !== undefined ? { superseded } : {}) };
}

/** Terms rounded as the row's other numbers are (4 places); their sum stays within 0.001 of the rounded score. */
export function roundTerms(t: ScoreTerms): ScoreTerms {
  return {
    rel: pyRound(t.rel),
    rec: pyRound(t.rec),
    imp: pyRound(t.imp),
    ...(t.kw !== undefined ? { kw: pyRound(t.kw) } : {}),
    ...(t.ent !== undefined ? { ent: pyRound(t.ent) } : {}),
    spread: pyRound(t.spread),
    ...(t.superseded !== undefined ? { superseded: pyRound(t.superseded) } : {}),
  };
}

export function termsSum(t: ScoreTerms): number {
  return t.rel + t.rec + t.imp + (t.kw ?? 0) + (t.ent ?? 0) + t.spread + (t.superseded ?? 0);
}

/** after − before per term present on both sides (a term only one side has is compared to 0). */
export function termsDelta(before: ScoreTerms | null, after: ScoreTerms | null): ScoreTerms | null {
  if (!before || !after) return null;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])] as (keyof ScoreTerms)[];
  const out: Partial<Record<keyof ScoreTerms, number>> = {};
  for (const k of keys) out[k] = pyRound((after[k] ?? 0) - (before[k] ?? 0));
  return out as ScoreTerms;
}
