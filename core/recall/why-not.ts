/**
 * Why (not): where one memory stands in a recall. If it was ranked: its rank, terms and margin
 * to the k-th result. If not: which leg missed it and why (scope, archived, cosine below the
 * dense cut, no keyword, keyword cut, spread edges cut by fanout or the floor), and the terms it
 * would have had as a candidate, normalised against the real candidate set.
 */
import type { EngineReader } from '../engine/engine.js';
import { cueSet, memoryHead, type Memory } from '../model/memory.js';
import { ownerMatches } from '../model/owner.js';
import { baseLevelActivation, sigmoid } from '../model/activation.js';
import { rankRequest, rowMeta } from './explain.js';
import { cooccurrenceCosines, entityShares } from './mnemo/stages.js';
import { recallCorpus, type Bounds, type Ranking } from './pipeline.js';
import type { SparseField } from './profile.js';
import type { ResolvedRequest } from './request.js';
import { pyRound } from '../model/py-round.js';
import { sparseLeg } from './sparse.js';
import { roundTerms, rowTerms } from './terms.js';
import { supersededInfo, supersededSentence } from './superseded-why.js';
import { asciiLower, jaccard, queryCues } from './tokens.js';
import type { WhyNotResult } from './types.js';

export function whyNot(engine: EngineReader, req: ResolvedRequest, targetIdOrPrefix: string): WhyNotResult {
  const store = engine.store;
  const id = store.requireId(targetIdOrPrefix);
  const m = store.get(id)!;
  const ranking = rankRequest(engine, req, { trace: true });
  const { knobs, features } = req.profile;
  const w = knobs.weights;
  const ranked = ranking.rows.findIndex((r) => r.id === id);
  // A superseded memory the profile left out was ranked first: its terms are what they would have been.
  const excluded = ranked < 0 ? ranking.excluded.find((e) => e.id === id) : undefined;
  const idx = excluded ? excluded.rank : ranked;
  const row = ranked >= 0 ? ranking.rows[ranked]! : (excluded?.row ?? null);
  const kthRow = ranking.rows.length ? ranking.rows[Math.min(req.k, ranking.rows.length) - 1]! : null;
  const kth = kthRow ? kthRow.activation : null;

  const q = engine.embedder.embedSync ? engine.embedder.embedSync(req.query) : new Float32Array(engine.embedder.dim);
  const vec = engine.vectors.get().vector(id) ?? store.getEmbedding(id);
  const cos = vec ? dot(vec, q) : null;
  const ctx = jaccard(queryCues(req.query), cueSet(m));
  const raw = {
    cos: cos ?? 0,
    ctx,
    rel: w.lambda_embed * (cos ?? 0) + (1 - w.lambda_embed) * ctx + (features.cooccurrence > 0 ? features.cooccurrence * cooccurrenceCosines(engine, req.query)(id) : 0),
    rec: sigmoid(baseLevelActivation(m.access_log, ranking.now, w.base_level_decay)),
    imp: m.importance / 10,
    spread: 0,
  };
  const norm = (v: number, b: Bounds) => (ranking.candidates === 0 || !(b.hi - b.lo >= knobs.normalise_epsilon) ? 0 : (v - b.lo) / (b.hi - b.lo));
  let terms: WhyNotResult['terms'];
  let contributions: WhyNotResult['contributions'];
  if (row) {
    raw.spread = row.spread / w.spread_gamma;
    terms = { source: row.source, cos: row.cos, rel: row.rel, rec: row.rec, imp: row.imp, spread: row.spread, score: row.activation };
    contributions = rowTerms(row, req.profile);
  } else {
    // As a candidate it would have been normalised against the real candidates; it was not found
    // by the BM25 leg (kw 0), and the entity boost applies to it as to any candidate.
    const rel = norm(raw.rel, ranking.bounds.rel);
    const rec = features.recency_scale === 'absolute' ? raw.rec : norm(raw.rec, ranking.bounds.rec);
    const imp = norm(raw.imp, ranking.bounds.imp);
    const pre = w.relevance * rel + w.recency * rec + w.importance * imp;
    const share = features.entity_boost > 0 ? entityShares(engine, req.query).share(id) : 0;
    const base = pre * (1 + features.entity_boost * share);
    contributions = rowTerms({ base, rel, rec, imp, spread: 0, kw: 0 }, req.profile);
    terms = { source: 'none', cos: raw.cos, rel, rec, imp, spread: 0, score: base };
  }
  let kthView: WhyNotResult['kth'] = null;
  if (kthRow) {
    const meta = rowMeta(engine, [kthRow.id]).get(kthRow.id);
    kthView = { rank: Math.min(req.k, ranking.rows.length) - 1, id: kthRow.id, head: meta?.head ?? '', score: pyRound(kthRow.activation), terms: roundTerms(rowTerms(kthRow, req.profile)) };
  }

  const inScope = ownerMatches(m.owner, req.owner);
  const visibility = {
    exists: true as const,
    archived: m.archived,
    owner: m.owner,
    visible: inScope && !m.archived,
    reason: m.archived ? 'archived: neither leg reads archived memories' : inScope ? 'live and inside the owner scope' : `owner ${JSON.stringify(m.owner)} is outside the scope ${JSON.stringify(req.owner)}`,
  };
  const dense = denseLeg(engine, req, ranking, m, cos, q, visibility.visible);
  const sparse = sparseVerdict(engine, req, ranking, m, features.sparse_fields, visibility.visible);
  const spreadLeg = spreadVerdict(engine, ranking, m, req);

  const status: WhyNotResult['status'] = excluded ? 'superseded' : idx < 0 ? 'not_candidate' : idx < req.k ? 'in_top_k' : 'below_k';
  const superseded = supersededInfo(engine, ranking, id);
  const margin = kth === null ? null : terms.score - kth;
  const explanation: string[] = [];
  // People read ranks 1-based (#1 is the top); the JSON `rank` fields stay nooa's 0-based.
  if (superseded) explanation.push(supersededSentence(superseded));
  if (status === 'superseded') explanation.push(`left out of the ${ranking.rows.length} ranked rows (it scored ${fmt(terms.score)})`);
  else if (status === 'in_top_k') explanation.push(`ranked #${idx + 1} of ${ranking.rows.length}, inside the top ${req.k} by ${fmt(margin)}`);
  else if (status === 'below_k') explanation.push(`ranked #${idx + 1} of ${ranking.rows.length}: ${fmt(-(margin ?? 0))} short of #${req.k}, the last result (${fmt(kth)})`);
  else {
    explanation.push(`not ranked: ${!visibility.visible ? visibility.reason : 'neither leg found it and no spread reached it'}`);
    if (kth !== null) explanation.push(`as a candidate it would score ${fmt(terms.score)} against ${fmt(kth)} for #${Math.min(req.k, ranking.rows.length)}, the last result`);
  }
  explanation.push(`dense: ${dense.reason}`);
  explanation.push(`keyword: ${sparse.reason}`);
  explanation.push(`spread: ${spreadLeg.reason}`);
  return {
    query: req.query,
    target: id,
    target_head: memoryHead(m),
    k: req.k,
    hops: req.hops,
    owner: req.owner,
    profile: req.profile.name,
    tokens: ranking.tokens,
    status,
    rank: idx >= 0 ? idx : null,
    ranked: ranking.rows.length,
    score: row ? row.activation : null,
    kth_score: kth,
    margin,
    terms,
    contributions: roundTerms(contributions),
    kth: kthView,
    raw,
    visibility,
    legs: { dense, sparse, spread: spreadLeg },
    superseded,
    explanation,
  };
}

function denseLeg(engine: EngineReader, req: ResolvedRequest, ranking: Ranking, m: Memory, cos: number | null, q: Float32Array, visible: boolean): WhyNotResult['legs']['dense'] {
  const { n_dense, min_similarity } = req.profile.knobs;
  const base = { n_dense, min_similarity, cos, cutoff_cos: ranking.dense[n_dense - 1]?.cos ?? null };
  const pos = ranking.dense.findIndex((h) => h.id === m.id);
  if (pos >= 0) {
    if (ranking.dense[pos]!.cos >= min_similarity) return { ...base, hit: true, rank: pos, reason: `found at #${pos + 1} of the ${n_dense} nearest (cos ${fmt(cos)})` };
    return { ...base, hit: false, rank: pos, reason: `among the ${n_dense} nearest but cos ${fmt(cos)} < min_similarity ${min_similarity}` };
  }
  if (!visible) return { ...base, hit: false, rank: null, reason: m.archived ? 'archived memories are not in the vector index' : 'outside the owner scope' };
  if (cos === null) return { ...base, hit: false, rank: null, reason: 'it has no usable embedding' };
  const scope = req.owner;
  const all = engine.vectors.get().knn(q, engine.vectors.get().size, scope === null ? undefined : (_id, owner) => ownerMatches(owner, scope));
  const r = all.findIndex((h) => h.id === m.id);
  return { ...base, hit: false, rank: r >= 0 ? r : null, reason: `cos ${fmt(cos)} ranks ${r >= 0 ? `#${r + 1}` : '—'} among visible memories; the cut is the ${n_dense} nearest (cos ≥ ${fmt(base.cutoff_cos)})` };
}

function sparseVerdict(engine: EngineReader, req: ResolvedRequest, ranking: Ranking, m: Memory, fields: readonly SparseField[], visible: boolean): WhyNotResult['legs']['sparse'] {
  const n = req.profile.knobs.n_sparse;
  const parts: string[] = [];
  for (const f of fields) {
    if (f === 'content') parts.push(m.content);
    else if (f === 'title' && m.title) parts.push(m.title);
    else if (f === 'tags' && m.tags.length) parts.push(m.tags.join('\n'));
  }
  const text = asciiLower(parts.join('\n'));
  const matched = ranking.tokens.filter((t) => text.includes(t));
  const missed = ranking.tokens.filter((t) => !text.includes(t));
  const cutoff = ranking.sparse[n - 1]?.count ?? null;
  const base = { matched, missed, score: matched.length, cutoff_score: cutoff, n_sparse: n, fields: [...fields] };
  const pos = ranking.sparse.findIndex((h) => h.id === m.id);
  if (pos >= 0) return { ...base, hit: true, rank: pos, reason: `found at #${pos + 1}: matched ${matched.join(', ')}` };
  if (ranking.tokens.length === 0) return { ...base, hit: false, rank: null, reason: 'the query has no keyword tokens' };
  if (!visible) return { ...base, hit: false, rank: null, reason: m.archived ? 'archived memories are not searched' : 'outside the owner scope' };
  if (matched.length === 0) return { ...base, hit: false, rank: null, reason: `no token (${ranking.tokens.join(', ')}) occurs in its ${fields.join('/')}` };
  const all = sparseLeg(recallCorpus(engine), ranking.tokens, fields, req.owner, Number.MAX_SAFE_INTEGER);
  const r = all.findIndex((h) => h.id === m.id);
  return { ...base, hit: false, rank: r >= 0 ? r : null, reason: `matched ${matched.length} token(s) (${matched.join(', ')}) but ranks ${r >= 0 ? `#${r + 1}` : '—'}; only the first ${n} are kept (cut at ${cutoff} token(s))` };
}

function spreadVerdict(engine: EngineReader, ranking: Ranking, m: Memory, req: ResolvedRequest): WhyNotResult['legs']['spread'] {
  const gamma = req.profile.knobs.weights.spread_gamma;
  const candidates = new Set(ranking.rows.filter((r) => r.source !== 'spread').map((r) => r.id));
  const seen = new Set<string>();
  const incoming: WhyNotResult['legs']['spread']['incoming'] = [];
  for (const f of ranking.trace) {
    if (f.to !== m.id) continue;
    seen.add(`${f.from}|${f.edge_type}`);
    incoming.push({ from: f.from, edge_type: f.edge_type, weight: f.weight, from_is_candidate: candidates.has(f.from), status: `${f.status} (hop ${f.hop})`, contribution: f.status === 'contributed' ? gamma * f.contrib : f.contrib ? gamma * f.contrib : null });
  }
  for (const e of engine.store.incoming(m.id)) {
    if (seen.has(`${e.src}|${e.type}`)) continue;
    incoming.push({ from: e.src, edge_type: e.type, weight: e.weight, from_is_candidate: false, status: 'source_not_reached', contribution: null });
  }
  const got = incoming.filter((i) => i.status.startsWith('contributed'));
  if (req.hops === 0) return { hit: false, incoming, reason: 'hops = 0: no spread' };
  if (got.length) return { hit: true, incoming, reason: `received ${fmt(got.reduce((s, i) => s + (i.contribution ?? 0), 0))} over ${got.length} edge(s)` };
  if (!ownerMatches(m.owner, req.owner)) return { hit: false, incoming, reason: 'outside the owner scope: spread never enters it' };
  if (incoming.length === 0) return { hit: false, incoming, reason: 'no edge points at it' };
  const counts = new Map<string, number>();
  for (const i of incoming) counts.set(i.status.split(' ')[0]!, (counts.get(i.status.split(' ')[0]!) ?? 0) + 1);
  return { hit: false, incoming, reason: `no edge carried activation (${[...counts].map(([s, n]) => `${n} ${s}`).join(', ')})` };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function fmt(x: number | null): string {
  return x === null ? '—' : String(pyRound(x));
}
