/**
 * Stage 1 of the recall pipeline (pipeline.ts): the candidates of a query and what scoring reads
 * of each that no weight changes: the dense and keyword legs, the cosine, the cue overlap, the
 * BM25 score, the entity share and the corpus data (ring timestamps, importance). Split out of
 * `rank` so that a caller ranking one query under many profiles (`mnemo tune`) gathers once per
 * setting of the knobs listed in `candidateKey` and re-scores the rest: `rank` itself is
 * `scoreCandidates(gatherCandidates(...))`, so the two can never disagree.
 */
import type { EngineReader } from '../engine/engine.js';
import { derivedIndexKey } from '../engine/derived-key.js';
import { ownerMatches, type OwnerScope } from '../model/owner.js';
import { RecallCorpus } from './corpus.js';
import type { RecallProfile } from './profile.js';
import type { SlotData } from './slot-data.js';
import { sparseLeg, type SparseHit } from './sparse.js';
import { jaccard, queryCues, queryTokens } from './tokens.js';
import { bm25Leg, cooccurrenceCosines, entityShares } from './mnemo/stages.js';
import type { KeywordHit } from './mnemo/keyword-index.js';

export type Source = 'dense' | 'sparse' | 'both' | 'spread';

export interface DenseHit {
  id: string;
  cos: number;
}

/** What gathering reads of a rank request. */
export interface CandidateRequest {
  query: string;
  owner: OwnerScope;
  profile: RecallProfile;
  /** Test seam: the dense leg's answer as the reference recorded it (see RankRequest). */
  dense?: readonly DenseHit[];
}

export interface Candidate {
  id: string;
  source: Source;
  cos: number;
  /** Jaccard of the query's cues and the memory's cue set. */
  ctx: number;
  /** The corpus data of a live memory (null: not in the live corpus). */
  data: SlotData | null;
  /** mnemo: the BM25 leg's raw score (0 when the leg did not find it); absent without the leg. */
  kw?: number;
  /** mnemo: the share of the query's named entities this memory carries; absent when the boost is off. */
  ent?: number;
  /** mnemo: the co-occurrence cosine with the query; absent when the term is off. */
  sem?: number;
}

export interface Candidates {
  tokens: string[];
  /** False when the query ranks nothing (blank, no token, or an empty corpus). */
  ranks: boolean;
  dense: DenseHit[];
  sparse: SparseHit[];
  /** mnemo: the BM25 leg's hits as cut to its size (empty without the leg). */
  bm25: KeywordHit[];
  /** Dense hits, then keyword-only hits, in the order the legs found them (the sort's tie order). */
  list: Candidate[];
}

const RECALL_CORPUS = derivedIndexKey('recall.corpus', () => new RecallCorpus());

export function recallCorpus(engine: EngineReader): RecallCorpus {
  const corpus = engine.get(RECALL_CORPUS).get();
  corpus.ensureFresh();
  return corpus;
}

/** The recall corpus's Derived slot, for prepareRecallIndexes. */
export function recallCorpusIndex(engine: EngineReader) {
  return engine.get(RECALL_CORPUS);
}

/** The legs' hits before they are cut to the profile's sizes, and what assembling reads of each hit. */
export interface LegHits {
  tokens: string[];
  /** False when the query ranks nothing (blank, no token, or an empty corpus). */
  ranks: boolean;
  /** The legs' sizes these hits were gathered with: each leg's list is complete up to its size. */
  sizes: LegSizes;
  dense: DenseHit[];
  sparse: SparseHit[];
  bm25: KeywordHit[];
  /** Per id: the cosine (for keyword-only hits), the cue overlap, the corpus data, the entity share. */
  memo: Map<string, { cos?: number; ctx: number; data: SlotData | null; slot: number | undefined; ent?: number; sem?: number }>;
  query: { vector: Float32Array; cues: Set<string>; entities: { share: (id: string) => number } | null; semantic: ((id: string) => number) | null } | null;
}

export interface LegSizes {
  dense: number;
  sparse: number;
  bm25: number;
}

export function legSizes(profile: RecallProfile): LegSizes {
  return { dense: profile.knobs.n_dense, sparse: profile.knobs.n_sparse, bm25: profile.features.bm25?.n ?? 0 };
}

/**
 * Every input legHits reads besides the store and the legs' sizes: two requests with the same key
 * find the same hits, and each leg's hits for a size are the first that many of its hits for a
 * larger one (each leg ranks by a total order and cuts). Weights, decay, spread knobs, `now` and
 * the boosts' sizes are not in it (only whether the entity boost is on).
 */
export function legKey(req: CandidateRequest): string {
  const { knobs, features } = req.profile;
  const bm25 = features.bm25 ? { ...features.bm25, n: undefined } : null;
  return JSON.stringify([req.query, req.owner, knobs.min_similarity, knobs.max_tokens, features.substring_leg, features.sparse_fields, bm25, features.entity_boost > 0, features.cooccurrence > 0, req.dense ?? null]);
}

/** What gatherCandidates reads: legKey and the legs' sizes. */
export function candidateKey(req: CandidateRequest): string {
  return JSON.stringify([legKey(req), legSizes(req.profile)]);
}

export function gatherCandidates(engine: EngineReader, req: CandidateRequest): Candidates {
  return assembleCandidates(engine, req, legHits(engine, req, legSizes(req.profile)));
}

/** Each leg's hits, at most `sizes` of each (the dense seam, when given, as given). */
export function legHits(engine: EngineReader, req: CandidateRequest, sizes: LegSizes): LegHits {
  const { knobs, features } = req.profile;
  const tokens = queryTokens(req.query, knobs.max_tokens);
  const none: LegHits = { tokens, ranks: false, sizes, dense: [], sparse: [], bm25: [], memo: new Map(), query: null };
  // nooa answers a blank query with []; a query with no [a-z0-9] token would only rank by
  // recency and importance (its embedding is zero), so mnemo answers it with [] in every profile.
  if (req.query.trim() === '' || tokens.length === 0) return none;
  const corpus = recallCorpus(engine);
  if (!corpus.hasLive()) return none;
  const vectors = engine.vectors.get();
  const q = engine.embedder.embedSync ? engine.embedder.embedSync(req.query) : null;
  if (!q) throw new Error('recall needs a synchronous embedder for the query; embed it first');
  const scope = req.owner;
  const dense = req.dense
    ? req.dense.map((h) => ({ id: h.id, cos: h.cos }))
    : vectors.knn(q, sizes.dense, scope === null ? undefined : { owner: (owner) => ownerMatches(owner, scope) });
  const sparse = features.substring_leg ? sparseLeg(corpus, tokens, features.sparse_fields, scope, sizes.sparse) : [];
  const bm25 = features.bm25 ? bm25Leg(engine, req.query, { ...features.bm25, n: sizes.bm25 }, scope).hits : [];
  const entities = features.entity_boost > 0 ? entityShares(engine, req.query) : null;
  const semantic = features.cooccurrence > 0 ? cooccurrenceCosines(engine, req.query) : null;
  return { tokens, ranks: true, sizes, dense, sparse, bm25, memo: new Map(), query: { vector: q, cues: queryCues(req.query), entities, semantic } };
}

/**
 * The candidates of the legs' hits cut to the request's sizes: dense hits (cos ≥ min_similarity),
 * then keyword hits not already found, the substring leg's before the BM25 leg's.
 */
export function assembleCandidates(engine: EngineReader, req: CandidateRequest, legs: LegHits): Candidates {
  const { knobs, features } = req.profile;
  if (!legs.ranks || !legs.query) return { tokens: legs.tokens, ranks: false, dense: [], sparse: [], bm25: [], list: [] };
  const { vector, cues, entities, semantic } = legs.query;
  const corpus = recallCorpus(engine);
  const vectors = engine.vectors.get();
  const dense = req.dense ? legs.dense : legs.dense.slice(0, knobs.n_dense);
  const sparse = legs.sparse.slice(0, knobs.n_sparse);
  const cands = new Map<string, { source: Source; cos: number | undefined }>();
  for (const h of dense) if (h.cos >= knobs.min_similarity) cands.set(h.id, { source: 'dense', cos: h.cos });
  for (const hit of sparse) {
    const c = cands.get(hit.id);
    if (c) c.source = 'both';
    else cands.set(hit.id, { source: 'sparse', cos: undefined });
  }
  // mnemo: the BM25 leg adds its own candidates (a keyword hit, like the substring leg's).
  const kwScore = new Map<string, number>();
  const bm25 = features.bm25 ? legs.bm25.slice(0, features.bm25.n) : [];
  if (features.bm25) {
    for (const hit of bm25) {
      kwScore.set(hit.id, hit.score);
      const c = cands.get(hit.id);
      if (c) {
        if (c.source === 'dense') c.source = 'both';
      } else cands.set(hit.id, { source: 'sparse', cos: undefined });
    }
  }
  const list: Candidate[] = [];
  for (const [id, c] of cands) {
    let m = legs.memo.get(id);
    if (!m) {
      const slot = corpus.slot(id);
      const data = slot !== undefined ? corpus.dataOf(slot) : null;
      legs.memo.set(id, (m = { ctx: data ? jaccard(cues, data.cues) : 0, data, slot }));
      if (entities) m.ent = entities.share(id);
      if (semantic) m.sem = semantic(id);
    }
    if (c.cos === undefined && m.cos === undefined) m.cos = vectors.dotWith(id, vector) ?? 0;
    const cand: Candidate = { id, source: c.source, cos: c.cos ?? m.cos!, ctx: m.ctx, data: m.data };
    if (features.bm25) cand.kw = kwScore.get(id) ?? 0;
    if (entities) cand.ent = m.ent!;
    if (semantic) cand.sem = m.sem!;
    list.push(cand);
  }
  return { tokens: legs.tokens, ranks: true, dense: dense.map((h) => ({ id: h.id, cos: h.cos })), sparse, bm25, list };
}
