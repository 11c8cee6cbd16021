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
import { bm25Leg, entityShares } from './mnemo/stages.js';

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
}

export interface Candidates {
  tokens: string[];
  /** False when the query ranks nothing (blank, no token, or an empty corpus). */
  ranks: boolean;
  dense: DenseHit[];
  sparse: SparseHit[];
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

/**
 * Every input gatherCandidates reads besides the store: two requests with the same key gather the
 * same candidates from the same store. Weights, decay, spread knobs, `now` and the boosts' sizes
 * are not in it (only whether the entity boost is on).
 */
export function candidateKey(req: CandidateRequest): string {
  const { knobs, features } = req.profile;
  return JSON.stringify([
    req.query,
    req.owner,
    knobs.n_dense,
    knobs.n_sparse,
    knobs.min_similarity,
    knobs.max_tokens,
    features.substring_leg,
    features.sparse_fields,
    features.bm25,
    features.entity_boost > 0,
  ]);
}

export function gatherCandidates(engine: EngineReader, req: CandidateRequest): Candidates {
  const { knobs, features } = req.profile;
  const tokens = queryTokens(req.query, knobs.max_tokens);
  const none: Candidates = { tokens, ranks: false, dense: [], sparse: [], list: [] };
  // nooa answers a blank query with []; a query with no [a-z0-9] token would only rank by
  // recency and importance (its embedding is zero), so mnemo answers it with [] in every profile.
  if (req.query.trim() === '' || tokens.length === 0) return none;
  const corpus = recallCorpus(engine);
  if (!corpus.hasLive()) return none;
  const vectors = engine.vectors.get();
  const q = engine.embedder.embedSync ? engine.embedder.embedSync(req.query) : null;
  if (!q) throw new Error('recall needs a synchronous embedder for the query; embed it first');

  // Dense hits (cos ≥ min_similarity), then keyword hits not already found.
  const scope = req.owner;
  const dense = req.dense
    ? req.dense.map((h) => ({ id: h.id, cos: h.cos }))
    : vectors.knn(q, knobs.n_dense, scope === null ? undefined : (_id, owner) => ownerMatches(owner, scope));
  const cands = new Map<string, { slot: number | undefined; source: Source; cos: number }>();
  for (const h of dense) if (h.cos >= knobs.min_similarity) cands.set(h.id, { slot: corpus.slot(h.id), source: 'dense', cos: h.cos });
  const sparse = features.substring_leg ? sparseLeg(corpus, tokens, features.sparse_fields, scope, knobs.n_sparse) : [];
  for (const hit of sparse) {
    const c = cands.get(hit.id);
    if (c) c.source = 'both';
    else cands.set(hit.id, { slot: hit.slot, source: 'sparse', cos: vectors.dotWith(hit.id, q) ?? 0 });
  }
  // mnemo: the BM25 leg adds its own candidates (a keyword hit, like the substring leg's).
  const kwScore = new Map<string, number>();
  if (features.bm25) {
    for (const hit of bm25Leg(engine, req.query, features.bm25, scope).hits) {
      kwScore.set(hit.id, hit.score);
      const c = cands.get(hit.id);
      if (c) {
        if (c.source === 'dense') c.source = 'both';
      } else cands.set(hit.id, { slot: corpus.slot(hit.id), source: 'sparse', cos: vectors.dotWith(hit.id, q) ?? 0 });
    }
  }
  const entities = features.entity_boost > 0 ? entityShares(engine, req.query) : null;
  const cues = queryCues(req.query);
  const list: Candidate[] = [];
  for (const [id, c] of cands) {
    const data = c.slot !== undefined ? corpus.dataOf(c.slot) : null;
    const cand: Candidate = { id, source: c.source, cos: c.cos, ctx: data ? jaccard(cues, data.cues) : 0, data };
    if (features.bm25) cand.kw = kwScore.get(id) ?? 0;
    if (entities) cand.ent = entities.share(id);
    list.push(cand);
  }
  return { tokens, ranks: true, dense: dense.map((h) => ({ id: h.id, cos: h.cos })), sparse, list };
}
