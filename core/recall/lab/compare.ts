/**
 * The lab's A/B: each query ranked under two profiles, with every memory's rank move and the term
 * that moved its score most, the per-query metrics against the chosen labels, and the overlap of
 * the two top k. Read-only: nothing is logged or touched.
 */
import type { EngineReader } from '../../engine/engine.js';
import type { ScoreTerms } from '../../model/memory.js';
import { pyRound } from '../../model/py-round.js';
import type { RecallProfile } from '../profile.js';
import { termsDelta } from '../terms.js';
import { labelsFor } from './labels.js';
import { rankingMetrics, rankOverlap } from './metrics.js';
import { depthFor, labRanking } from './rankings.js';
import type { LabCompareResult, LabMove, LabQuery, LabQueryResult, LabRow } from './types.js';

export interface CompareInput {
  queries: readonly LabQuery[];
  a: RecallProfile;
  b: RecallProfile;
  k: number;
  /** A label source's name; absent: the store's default (labels.ts). */
  labels?: string | undefined;
}

/** The term whose change is largest in size (ties: the first in the terms' own order). */
function largestTerm(delta: ScoreTerms): { key: keyof ScoreTerms; value: number } {
  let best: { key: keyof ScoreTerms; value: number } = { key: 'rel', value: delta.rel };
  for (const [key, value] of Object.entries(delta) as [keyof ScoreTerms, number][]) {
    if (Math.abs(value) > Math.abs(best.value)) best = { key, value };
  }
  return best;
}

function moveOf(id: string, rowA: LabRow | undefined, rowB: LabRow | undefined, k: number): LabMove {
  const inA = rowA !== undefined && rowA.rank < k;
  const inB = rowB !== undefined && rowB.rank < k;
  const rankA = rowA?.rank ?? null;
  const rankB = rowB?.rank ?? null;
  const move = !inA ? 'new' : !inB ? 'dropped' : rankB! < rankA! ? 'up' : rankB! > rankA! ? 'down' : 'same';
  const delta = rowA && rowB ? termsDelta(rowA.terms, rowB.terms) : null;
  const top = delta ? largestTerm(delta) : null;
  return {
    id,
    head: (rowB ?? rowA)!.head,
    rank_a: rankA,
    rank_b: rankB,
    move,
    by: rankA !== null && rankB !== null ? Math.abs(rankA - rankB) : 0,
    score_a: rowA?.score ?? null,
    score_b: rowB?.score ?? null,
    score_delta: rowA && rowB ? pyRound(rowB.score - rowA.score) : null,
    terms_delta: delta,
    component: top?.key ?? null,
    component_delta: top?.value ?? null,
  };
}

function compareOne(engine: EngineReader, q: LabQuery, input: CompareInput, labels: string[]): LabQueryResult {
  const depth = depthFor(input.k);
  const deepA = labRanking(engine, q, input.a, depth);
  const deepB = labRanking(engine, q, input.b, depth);
  const byIdA = new Map(deepA.map((r) => [r.id, r]));
  const byIdB = new Map(deepB.map((r) => [r.id, r]));
  const topA = deepA.slice(0, input.k);
  const topB = deepB.slice(0, input.k);
  const ids = [...new Set([...topB.map((r) => r.id), ...topA.map((r) => r.id)])];
  const relevant = new Set(labels);
  return {
    ...q,
    labels,
    a: { rows: topA, metrics: rankingMetrics(deepA.map((r) => r.id), relevant, input.k) },
    b: { rows: topB, metrics: rankingMetrics(deepB.map((r) => r.id), relevant, input.k) },
    overlap: rankOverlap(topA.map((r) => r.id), topB.map((r) => r.id), input.k),
    moves: ids.map((id) => moveOf(id, byIdA.get(id), byIdB.get(id), input.k)),
  };
}

export function compareProfiles(engine: EngineReader, input: CompareInput): LabCompareResult {
  const { source, labels } = labelsFor(engine, input.labels, input.queries.map((q) => q.query), input.k);
  return {
    a: input.a.name,
    b: input.b.name,
    k: input.k,
    label_source: source.name,
    label_rule: source.rule,
    queries: input.queries.map((q) => compareOne(engine, q, input, labels.get(q.query) ?? [])),
  };
}
