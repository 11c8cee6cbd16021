/**
 * nooa v0.0.9's recall pipeline (`RetrievalEngine._pipeline`), stage by stage:
 *   candidates (dense KNN + substring keyword leg) → raw terms (rel, rec, imp) → min-max
 *   normalisation over the candidates → base score → spread → activation → stable sort.
 * It returns every ranked row unrounded with its terms and spread paths; explain rows, recall
 * results and why-not answers are views of it.
 *
 * Tie order (deterministic, documented in docs/recall.md): dense hits by cosine, ties by rowid;
 * keyword hits by tokens matched, ties in first-seen order (token order, then rowid); rows by
 * activation with a stable sort over [dense hits, keyword-only hits, spread-only nodes in the
 * order first reached].
 */
import type { Engine } from '../engine/engine.js';
import { Derived } from '../engine/derived.js';
import { ownerMatches, ownerMatchesSql, type OwnerScope } from '../model/owner.js';
import { ownerStates } from '../store/recall-reads.js';
import { sigmoid } from './activation.js';
import { RecallCorpus } from './corpus.js';
import type { RecallProfile } from './profile.js';
import { spread, type EdgeFate, type PathStep, type SpreadGraph } from './spread.js';
import { sparseLeg, type SparseHit } from './sparse.js';
import { jaccard, queryCues, queryTokens } from './tokens.js';

export type Source = 'dense' | 'sparse' | 'both' | 'spread';

export interface DenseHit {
  id: string;
  cos: number;
}

export interface RankRequest {
  query: string;
  hops: number;
  owner: OwnerScope;
  profile: RecallProfile;
  now: number;
  /**
   * Test seam: the dense leg's answer as the reference recorded it (before the min_similarity
   * filter). Calls whose 50-candidate cut was decided by numpy's unstable tie-breaking can only
   * be compared this way.
   */
  dense?: readonly DenseHit[];
  /** Record every edge the spread considered (why-not). */
  trace?: boolean;
}

export interface RawTerms {
  cos: number;
  ctx: number;
  rel: number;
  rec: number;
  imp: number;
}

export interface RankedRow {
  id: string;
  source: Source;
  /** s_base + γ·spread, unrounded. */
  activation: number;
  base: number;
  cos: number;
  rel: number;
  rec: number;
  imp: number;
  /** γ·spread. */
  spread: number;
  raw: RawTerms | null;
}

export interface Bounds {
  lo: number;
  hi: number;
}

export interface Ranking {
  query: string;
  hops: number;
  owner: OwnerScope;
  profile: RecallProfile;
  now: number;
  tokens: string[];
  rows: RankedRow[];
  paths: Map<string, PathStep[]>;
  dense: DenseHit[];
  sparse: SparseHit[];
  bounds: { rel: Bounds; rec: Bounds; imp: Bounds };
  candidates: number;
  trace: EdgeFate[];
  elapsedMs: number;
}

export function recallCorpus(engine: Engine): RecallCorpus {
  const derived = engine.extension('recall.corpus', (e) => new Derived(e.store, new RecallCorpus()));
  const corpus = derived.get();
  corpus.ensureFresh();
  return corpus;
}

export function emptyRanking(req: RankRequest, tokens: string[] = []): Ranking {
  const b = { lo: 0, hi: 0 };
  return {
    query: req.query,
    hops: req.hops,
    owner: req.owner,
    profile: req.profile,
    now: req.now,
    tokens,
    rows: [],
    paths: new Map(),
    dense: [],
    sparse: [],
    bounds: { rel: b, rec: b, imp: b },
    candidates: 0,
    trace: [],
    elapsedMs: 0,
  };
}

/** ACT-R base-level activation over ring timestamps already filtered to the ACT-R channels. */
export function recencyRaw(actr: Float64Array, now: number, decay: number): number {
  let sum = 0;
  for (let i = 0; i < actr.length; i++) sum += Math.max(now - actr[i]!, 1) ** -decay;
  return sigmoid(sum > 0 ? Math.log(sum) : -10);
}

export function normaliser(values: readonly number[], epsilon: number): { bounds: Bounds; norm: (v: number) => number } {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const flat = !(hi - lo >= epsilon);
  return { bounds: { lo, hi }, norm: (v) => (flat ? 0 : (v - lo) / (hi - lo)) };
}

export function rank(engine: Engine, req: RankRequest): Ranking {
  const started = performance.now();
  const { knobs, features } = req.profile;
  const w = knobs.weights;
  const tokens = queryTokens(req.query, knobs.max_tokens);
  // nooa answers a blank query with []; a query with no [a-z0-9] token would only rank by
  // recency and importance (its embedding is zero), so mnemo answers it with [] in every profile.
  if (req.query.trim() === '' || tokens.length === 0) return emptyRanking(req, tokens);
  const corpus = recallCorpus(engine);
  if (!corpus.hasLive()) return emptyRanking(req, tokens);
  const vectors = engine.vectors.get();
  const q = engine.embedder.embedSync ? engine.embedder.embedSync(req.query) : null;
  if (!q) throw new Error('recall needs a synchronous embedder for the query; embed it first');

  // 1. Candidates: dense hits (cos ≥ min_similarity), then keyword hits not already found.
  const scope = req.owner;
  const dense = req.dense
    ? req.dense.map((h) => ({ id: h.id, cos: h.cos }))
    : vectors.knn(q, knobs.n_dense, scope === null ? undefined : (_id, owner) => ownerMatchesSql(owner, scope));
  const cands = new Map<string, { slot: number | undefined; source: Source; cos: number }>();
  for (const h of dense) if (h.cos >= knobs.min_similarity) cands.set(h.id, { slot: corpus.slot(h.id), source: 'dense', cos: h.cos });
  const sparse = sparseLeg(corpus, tokens, features.sparse_fields, scope, knobs.n_sparse);
  for (const hit of sparse) {
    const c = cands.get(hit.id);
    if (c) c.source = 'both';
    else cands.set(hit.id, { slot: hit.slot, source: 'sparse', cos: vectors.dotWith(hit.id, q) ?? 0 });
  }

  // 2. Raw terms, min-max normalised over the candidate set, and the base score.
  const cues = queryCues(req.query);
  const ids = [...cands.keys()];
  const raws: RawTerms[] = ids.map((id) => {
    const c = cands.get(id)!;
    const d = c.slot !== undefined ? corpus.data[c.slot]! : null;
    const ctx = d ? jaccard(cues, d.cues) : 0;
    return {
      cos: c.cos,
      ctx,
      rel: w.lambda_embed * c.cos + (1 - w.lambda_embed) * ctx,
      rec: d ? recencyRaw(d.actr, req.now, w.base_level_decay) : sigmoid(-10),
      imp: d ? d.importance / 10 : 0.5,
    };
  });
  const nRel = normaliser(raws.map((r) => r.rel), knobs.normalise_epsilon);
  const nRec = normaliser(raws.map((r) => r.rec), knobs.normalise_epsilon);
  const nImp = normaliser(raws.map((r) => r.imp), knobs.normalise_epsilon);
  const rows: RankedRow[] = [];
  const seed = new Map<string, number>();
  ids.forEach((id, i) => {
    const r = raws[i]!;
    const rel = nRel.norm(r.rel);
    const rec = nRec.norm(r.rec);
    const imp = nImp.norm(r.imp);
    const base = w.relevance * rel + w.recency * rec + w.importance * imp;
    seed.set(id, base);
    rows.push({ id, source: cands.get(id)!.source, activation: base, base, cos: r.cos, rel, rec, imp, spread: 0, raw: r });
  });

  // 3. Spread (owner-gated; archived targets gated too unless the profile keeps nooa's fault).
  let paths = new Map<string, PathStep[]>();
  let trace: EdgeFate[] = [];
  if (req.hops >= 1) {
    const result = spread(seed, { ...knobs, hops: req.hops }, spreadGraph(engine, corpus, scope, features.spread_through_archived), { trace: req.trace ?? false });
    paths = result.paths;
    trace = result.trace ?? [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const [id, s] of result.spread) {
      const g = w.spread_gamma * s;
      const row = byId.get(id);
      if (row) {
        row.spread = g;
        row.activation = row.base + g;
      } else {
        rows.push({ id, source: 'spread', activation: g, base: 0, cos: 0, rel: 0, rec: 0, imp: 0, spread: g, raw: null });
      }
    }
  }

  // 4. Rank: stable sort by activation (Array.prototype.sort is stable).
  rows.sort((a, b) => b.activation - a.activation);
  return {
    query: req.query,
    hops: req.hops,
    owner: scope,
    profile: req.profile,
    now: req.now,
    tokens,
    rows,
    paths,
    dense: dense.map((h) => ({ id: h.id, cos: h.cos })),
    sparse,
    bounds: { rel: nRel.bounds, rec: nRec.bounds, imp: nImp.bounds },
    candidates: ids.length,
    trace,
    elapsedMs: performance.now() - started,
  };
}

function spreadGraph(engine: Engine, corpus: RecallCorpus, scope: OwnerScope, throughArchived: boolean): SpreadGraph {
  return {
    edgesFrom: (ids) => engine.store.edgesFrom(ids),
    visible: (targets) => {
      const missing = targets.filter((t) => corpus.slot(t) === undefined);
      const others = missing.length ? ownerStates(engine.store, missing) : new Map();
      return (id) => {
        const slot = corpus.slot(id);
        if (slot !== undefined) return ownerMatches(corpus.owners[slot]!, scope);
        const st = others.get(id);
        if (!st) return false; // a dangling edge target is never reached
        if (st.archived && !throughArchived) return false;
        return ownerMatches(st.owner, scope);
      };
    },
  };
}
