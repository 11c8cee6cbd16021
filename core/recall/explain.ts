/**
 * Explain: a dry run of the pipeline shown as nooa's explain rows (numbers rounded to 4 places
 * with Python's rounding) plus the spread paths into each row. It neither touches nor logs.
 */
import type { EngineReader } from '../engine/engine.js';
import { memoryHead } from '../model/memory.js';
import { CAUSAL_EDGE_TYPES } from '../model/enums.js';
import { rank, recallCorpus, type DenseHit, type Ranking } from './pipeline.js';
import type { PathStep } from './spread.js';
import { resolveRequest, type RecallInput, type ResolvedRequest } from './request.js';
import { pyRound } from '../model/py-round.js';
import { roundTerms, rowTerms } from './terms.js';
import type { ExplainResult, ExplainRow, SpreadPath } from './types.js';

export interface RowMeta {
  type: string;
  owner: string;
  head: string;
}

/** Type, owner and head for ids: live memories from the recall corpus, others from the store. */
export function rowMeta(engine: EngineReader, ids: readonly string[]): Map<string, RowMeta> {
  const corpus = recallCorpus(engine);
  const out = new Map<string, RowMeta>();
  const missing: string[] = [];
  for (const id of ids) {
    const slot = corpus.slot(id);
    if (slot === undefined) {
      missing.push(id);
      continue;
    }
    const d = corpus.dataOf(slot);
    out.set(id, { type: d.type, owner: corpus.owners[slot]!, head: memoryHead({ title: d.title, content: corpus.contents[slot]! }) });
  }
  if (missing.length) {
    for (const [id, m] of engine.store.getMany(missing)) out.set(id, { type: m.type, owner: m.owner, head: memoryHead(m) });
  }
  return out;
}

export function explainRows(engine: EngineReader, ranking: Ranking, k: number): ExplainRow[] {
  const top = ranking.rows.slice(0, k);
  const meta = rowMeta(engine, top.map((r) => r.id));
  return top.map((r, i) => {
    const m = meta.get(r.id);
    return {
      rank: i,
      id: r.id,
      score: pyRound(r.activation),
      source: r.source,
      cos: pyRound(r.cos),
      rel: pyRound(r.rel),
      rec: pyRound(r.rec),
      imp: pyRound(r.imp),
      spread: pyRound(r.spread),
      type: m?.type ?? '',
      owner: m?.owner ?? '',
      head: m?.head ?? '',
      terms: roundTerms(rowTerms(r, ranking.profile)),
      ...(r.superseded_by ? { superseded_by: r.superseded_by } : {}),
    };
  });
}

/** Why a path step has its factor: nooa's edge rule, or mnemo's sibling or parent spread. */
function pathRule(step: PathStep, decay: number): string {
  if (step.via === 'parent') {
    return `parent: part_of a candidate; mnemo gives it ${step.type_factor} × that parent's base score (one step, not an edge walk)`;
  }
  if (step.via === 'sibling') {
    return `sibling: shares the part_of parent with a candidate; mnemo gives it ${step.type_factor} × that candidate's base score (one step, not an edge walk)`;
  }
  const kind = CAUSAL_EDGE_TYPES.has(step.edge_type) ? `causal edge (${step.edge_type}): ×1` : `associative edge (${step.edge_type}): ×0.6`;
  return `${kind}, hop ${step.hop} decay ×${pyRound(decay ** step.hop)}`;
}

export function spreadPaths(engine: EngineReader, ranking: Ranking, ids: readonly string[]): Record<string, SpreadPath[]> {
  const gamma = ranking.profile.knobs.weights.spread_gamma;
  const decay = ranking.profile.knobs.per_hop_decay;
  const out: Record<string, SpreadPath[]> = {};
  const sources = new Set<string>();
  for (const id of ids) for (const s of ranking.paths.get(id) ?? []) sources.add(s.from);
  const meta = sources.size ? rowMeta(engine, [...sources]) : new Map<string, RowMeta>();
  for (const id of ids) {
    const steps = ranking.paths.get(id);
    if (!steps?.length) continue;
    out[id] = steps.map((s) => ({
      from: s.from,
      edge_type: s.edge_type,
      weight: s.weight,
      hop: s.hop,
      type_factor: s.type_factor,
      from_activation: s.from_activation,
      contribution: gamma * s.contrib,
      from_head: meta.get(s.from)?.head ?? '',
      rule: pathRule(s, decay),
    }));
  }
  return out;
}

export function explainResult(engine: EngineReader, req: ResolvedRequest, ranking: Ranking): ExplainResult {
  const rows = explainRows(engine, ranking, req.k);
  const count = (s: string) => ranking.rows.filter((r) => r.source === s).length;
  return {
    query: req.query,
    k: req.k,
    hops: req.hops,
    owner: req.owner,
    profile: req.profile.name,
    superseded: ranking.supersededPolicy,
    superseded_excluded: ranking.excluded.length,
    now: ranking.now,
    tokens: ranking.tokens,
    rows,
    paths: spreadPaths(engine, ranking, rows.map((r) => r.id)),
    stats: {
      candidates: ranking.candidates,
      dense: count('dense'),
      sparse: count('sparse'),
      both: count('both'),
      spread_only: count('spread'),
      ranked: ranking.rows.length,
      elapsed_ms: ranking.elapsedMs,
    },
  };
}

export function rankRequest(engine: EngineReader, req: ResolvedRequest, extra: { dense?: readonly DenseHit[]; trace?: boolean; now?: number } = {}): Ranking {
  return rank(engine, { query: req.query, hops: req.hops, owner: req.owner, profile: req.profile, superseded: req.superseded, now: engine.now(), ...extra });
}

/** `recall.explain`: default k = 10 and the profile's hops, as nooa's explain(). */
export function explain(engine: EngineReader, input: RecallInput, extra: { dense?: readonly DenseHit[] } = {}): ExplainResult {
  // One check for other processes' commits for the ranking and the rows and paths shown with it.
  return engine.store.readFresh(() => {
    const req = resolveRequest(engine, input, { k: 10 });
    return explainResult(engine, req, rankRequest(engine, req, extra));
  });
}
