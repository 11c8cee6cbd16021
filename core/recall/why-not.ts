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
import { bm25Leg, cooccurrenceCosines, entityShares, keywordIndex } from './mnemo/stages.js';
import { queryTerms } from './mnemo/query-terms.js';
import { recallCorpus, type Bounds, type Ranking } from './pipeline.js';
import type { SparseField } from './profile.js';
import type { ResolvedRequest } from './request.js';
import { pyRound } from '../model/py-round.js';
import { sparseLeg } from './sparse.js';
import { roundTerms, rowTerms } from './terms.js';
import { supersededInfo } from './superseded-why.js';
import { asciiLower, jaccard, queryCues } from './tokens.js';
import type { WhyNotResult } from './types.js';
import { fmt, spreadSentence, whyNotSentences, type WhyNotFacts } from './why-not-sentences.js';
import { memoryEmbedding, requireMemoryId } from '../store/queries/memory-lookups.js';

export function whyNot(engine: EngineReader, req: ResolvedRequest, targetIdOrPrefix: string): WhyNotResult {
  const store = engine.store;
  const id = requireMemoryId(store, targetIdOrPrefix);
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
  const vec = engine.vectors.get().vector(id) ?? memoryEmbedding(store, id);
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
  const bm25 = bm25Verdict(engine, req, ranking, m, visibility.visible);
  const spreadLeg = spreadVerdict(engine, ranking, m, req, row?.spread ?? 0);

  const status: WhyNotResult['status'] = excluded ? 'superseded' : idx < 0 ? 'not_candidate' : idx < req.k ? 'in_top_k' : 'below_k';
  const superseded = supersededInfo(engine, ranking, id);
  const margin = kth === null ? null : terms.score - kth;
  const facts: WhyNotFacts = {
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
    legs: { dense, sparse, bm25, spread: spreadLeg },
    superseded,
  };
  return { ...facts, explanation: whyNotSentences(facts) };
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
  const all = engine.vectors.get().knn(q, engine.vectors.get().size, scope === null ? undefined : { owner: (owner) => ownerMatches(owner, scope) });
  const r = all.findIndex((h) => h.id === m.id);
  const ties = base.cutoff_cos !== null && fmt(cos) === fmt(base.cutoff_cos);
  const cut = ties ? `its cos rounds to the cut's (${fmt(base.cutoff_cos)}), but only the ${n_dense} nearest are kept and it comes after them` : `the cut is the ${n_dense} nearest (cos ≥ ${fmt(base.cutoff_cos)})`;
  return { ...base, hit: false, rank: r >= 0 ? r : null, reason: `cos ${fmt(cos)} ranks ${r >= 0 ? `#${r + 1}` : '—'} among visible memories; ${cut}` };
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
  const on = req.profile.features.substring_leg;
  const base = { on, matched, missed, score: matched.length, cutoff_score: cutoff, n_sparse: n, fields: [...fields] };
  if (!on) return { ...base, hit: false, rank: null, reason: 'off in this profile' };
  const pos = ranking.sparse.findIndex((h) => h.id === m.id);
  if (pos >= 0) return { ...base, hit: true, rank: pos, reason: `found at #${pos + 1}: matched ${matched.join(', ')}` };
  if (ranking.tokens.length === 0) return { ...base, hit: false, rank: null, reason: 'the query has no keyword tokens' };
  if (!visible) return { ...base, hit: false, rank: null, reason: m.archived ? 'archived memories are not searched' : 'outside the owner scope' };
  if (matched.length === 0) return { ...base, hit: false, rank: null, reason: `no token (${ranking.tokens.join(', ')}) occurs in its ${fields.join('/')}` };
  const all = sparseLeg(recallCorpus(engine), ranking.tokens, fields, req.owner, Number.MAX_SAFE_INTEGER);
  const r = all.findIndex((h) => h.id === m.id);
  return { ...base, hit: false, rank: r >= 0 ? r : null, reason: `matched ${matched.length} token(s) (${matched.join(', ')}) but ranks ${r >= 0 ? `#${r + 1}` : '—'}; only the first ${n} are kept (cut at ${cutoff} token(s))` };
}

/** mnemo's BM25 leg: where it ranks the memory, against the hits the ranking kept (null without the leg). */
function bm25Verdict(engine: EngineReader, req: ResolvedRequest, ranking: Ranking, m: Memory, visible: boolean): WhyNotResult['legs']['bm25'] {
  const knobs = req.profile.features.bm25;
  if (!knobs) return null;
  const terms = queryTerms(req.query, { stopWords: knobs.stop_words, questionWords: knobs.question_words, maxTerms: knobs.max_terms });
  const cutoff = ranking.bm25.length >= knobs.n ? ranking.bm25[knobs.n - 1]!.score : null;
  const base = { terms, n: knobs.n, cutoff_bm25: cutoff };
  const pos = ranking.bm25.findIndex((h) => h.id === m.id);
  if (pos >= 0) return { ...base, hit: true, rank: pos, bm25: ranking.bm25[pos]!.score, reason: `found at #${pos + 1} of its ${knobs.n} best matches (bm25 ${fmt(ranking.bm25[pos]!.score)})` };
  if (terms.length === 0) return { ...base, hit: false, rank: null, bm25: null, reason: 'the query has no keyword terms' };
  if (!visible) return { ...base, hit: false, rank: null, bm25: null, reason: m.archived ? 'archived memories are not searched' : 'outside the owner scope' };
  const all = bm25Leg(engine, req.query, { ...knobs, n: keywordIndex(engine, knobs.stem).size + 1 }, req.owner).hits;
  const r = all.findIndex((h) => h.id === m.id);
  if (r < 0) return { ...base, hit: false, rank: null, bm25: null, reason: `no query term (${terms.join(', ')}) is in its text` };
  return { ...base, hit: false, rank: r, bm25: all[r]!.score, reason: `ranks #${r + 1} (bm25 ${fmt(all[r]!.score)}); only the first ${knobs.n} are kept (cut at ${fmt(cutoff)})` };
}

/**
 * Spread, from the same paths that made the row's spread term: the edge walk, then mnemo's part_of
 * sibling and parent spreads. `received` is the row's term, so the sentence names the number shown.
 */
function spreadVerdict(engine: EngineReader, ranking: Ranking, m: Memory, req: ResolvedRequest, received: number): WhyNotResult['legs']['spread'] {
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
  const steps = ranking.paths.get(m.id) ?? [];
  const part = (via: 'sibling' | 'parent' | undefined) => gamma * steps.filter((s) => s.via === via).reduce((sum, s) => sum + s.contrib, 0);
  const edges = part(undefined);
  const siblings = part('sibling');
  const parent = part('parent');
  const edgeCount = incoming.filter((i) => i.status.startsWith('contributed')).length;
  let blocked: string | null = null;
  if (!ownerMatches(m.owner, req.owner)) blocked = 'outside the owner scope: spread never enters it';
  else if (incoming.length === 0) blocked = 'no edge points at it';
  else if (edgeCount === 0) {
    const counts = new Map<string, number>();
    for (const i of incoming) counts.set(i.status.split(' ')[0]!, (counts.get(i.status.split(' ')[0]!) ?? 0) + 1);
    blocked = `no edge carried activation (${[...counts].map(([s, n]) => `${n} ${s}`).join(', ')})`;
  }
  const reason = spreadSentence({ hops: req.hops, received, edges, edgeCount, siblings, parent, blocked });
  return { hit: req.hops > 0 && received > 0, received, edges, siblings, parent, incoming, reason };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

