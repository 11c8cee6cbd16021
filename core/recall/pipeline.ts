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
import type { EngineReader } from '../engine/engine.js';
import { derivedIndexKey } from '../engine/derived-key.js';
import { ownerMatches, type OwnerScope } from '../model/owner.js';
import { sigmoid } from '../model/activation.js';
import { Adjacency } from './adjacency.js';
import type { RecallCorpus } from './corpus.js';
import { gatherCandidates, recallCorpus, recallCorpusIndex, type CandidateRequest, type Candidates, type DenseHit, type Source } from './candidates.js';
import type { RecallProfile, SupersededPolicy } from './profile.js';
import { resolutionsOf, type Supersession } from '../engine/resolutions.js';
import { spread, type EdgeFate, type PathStep, type SpreadGraph } from './spread.js';
import type { SparseHit } from './sparse.js';
import type { KeywordHit } from './mnemo/keyword-index.js';
import { parentSpread, partOfIndex, prepareStageIndexes, siblingSpread, type SiblingGraph } from './mnemo/stages.js';

export type { Source, DenseHit };
export { recallCorpus };

export interface RankRequest extends CandidateRequest {
  hops: number;
  now: number;
  /**
   * Test seam: the dense leg's answer as the reference recorded it (before the min_similarity
   * filter). Calls whose 50-candidate cut was decided by numpy's unstable tie-breaking can only
   * be compared this way.
   */
  dense?: readonly DenseHit[];
  /** Record every edge the spread considered (why-not). */
  trace?: boolean;
  /** Overrides the profile's `superseded` policy for this request (`--include-superseded`). */
  superseded?: SupersededPolicy;
}

export interface RawTerms {
  cos: number;
  ctx: number;
  rel: number;
  rec: number;
  imp: number;
  /** mnemo: the BM25 leg's score (0 when the leg did not find it). */
  kw?: number;
  /** mnemo: the share of the query's named entities this memory carries. */
  ent?: number;
  /** mnemo: the co-occurrence cosine (included in rel, times its weight). */
  sem?: number;
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
  /** mnemo: the normalised BM25 term and the entity share (absent when the feature is off). */
  kw?: number;
  ent?: number;
  /** Set when a resolution superseded this memory (it is ranked only under `demote` or `include`). */
  superseded_by?: string;
}

/** A superseded memory the policy left out of the rows, with the place it had. */
export interface SupersededRow {
  id: string;
  supersession: Supersession;
  /** Its 0-based rank before it was left out. */
  rank: number;
  row: RankedRow;
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
  /** mnemo: the BM25 leg's hits as cut to its size (empty without the leg). */
  bm25: KeywordHit[];
  bounds: { rel: Bounds; rec: Bounds; imp: Bounds };
  candidates: number;
  trace: EdgeFate[];
  elapsedMs: number;
  /** The policy applied to superseded memories, and those it left out. */
  supersededPolicy: SupersededPolicy;
  excluded: SupersededRow[];
}

/** The edge adjacency of one engine, kept in step with its store (the corpus: candidates.ts). */
const RECALL_ADJACENCY = derivedIndexKey('recall.adjacency', () => new Adjacency());

export function recallAdjacency(engine: EngineReader): Adjacency {
  return engine.get(RECALL_ADJACENCY).get();
}

/** The next turn of the event loop: what a stepped index build lets run between its steps. */
/** One turn of the event loop: a stepped index build pauses here so other calls are answered. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Brings every index a recall with this profile ranks over up to date, a build step at a time, so
 * a server answers other calls (the workbench's progress poll) during a first build that takes
 * seconds; the recall that follows finds them ready. Without it, the recall builds them itself, in one go.
 */
export async function prepareRecallIndexes(engine: EngineReader, profile: RecallProfile, pause: () => Promise<void> = nextTurn): Promise<void> {
  await engine.vectors.getReady(pause);
  await recallCorpusIndex(engine).getReady(pause);
  await engine.get(RECALL_ADJACENCY).getReady(pause);
  await prepareStageIndexes(engine, profile.features, pause);
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
    bm25: [],
    bounds: { rel: b, rec: b, imp: b },
    candidates: 0,
    trace: [],
    elapsedMs: 0,
    supersededPolicy: req.superseded ?? req.profile.features.superseded,
    excluded: [],
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

export function rank(engine: EngineReader, req: RankRequest): Ranking {
  const started = performance.now();
  // One check for other processes' commits for the whole ranking, not one per index it reads.
  const ranking = engine.store.readFresh(() => applySupersededPolicy(engine, req, scoreCandidates(engine, req, gatherCandidates(engine, req))));
  ranking.elapsedMs = performance.now() - started;
  return ranking;
}

/** A demoted superseded memory keeps this share of its activation. */
export const DEMOTION = 0.5;

/**
 * What the profile (or the request) does with superseded memories, after scoring: every row is
 * scored as before, so the others' normalised terms and spread do not move; `exclude` then drops
 * the superseded rows (remembering where they were, for why-not), `demote` halves their activation
 * and sorts again, `include` keeps them. Every superseded row that stays is marked.
 */
export function applySupersededPolicy(engine: EngineReader, req: RankRequest, ranking: Ranking): Ranking {
  const policy = req.superseded ?? req.profile.features.superseded;
  ranking.supersededPolicy = policy;
  const superseded = resolutionsOf(engine).supersededAt(engine.store, req.now);
  if (superseded.size === 0 || ranking.rows.length === 0) return ranking;
  const kept: RankedRow[] = [];
  let demoted = false;
  ranking.rows.forEach((row, rank) => {
    const s = superseded.get(row.id);
    if (!s) return kept.push(row);
    if (policy === 'exclude') return ranking.excluded.push({ id: row.id, supersession: s, rank, row: { ...row, superseded_by: s.by } });
    row.superseded_by = s.by;
    if (policy === 'demote') {
      row.activation *= DEMOTION;
      demoted = true;
    }
    kept.push(row);
  });
  if (demoted) kept.sort((a, b) => b.activation - a.activation);
  ranking.rows = kept;
  return ranking;
}

/** What a caller re-scoring one store many times may pass: memoised graphs, and whether it needs the spread paths. */
export interface ScoreOptions {
  graphs?: RankGraphs;
  /** Default true; false leaves `paths` empty (the ranks and activations are the same). */
  paths?: boolean;
}

/** The graphs the spreads walk. */
export interface RankGraphs {
  spread: SpreadGraph;
  siblings: SiblingGraph;
}

export function rankGraphs(engine: EngineReader, scope: OwnerScope, features: RecallProfile['features']): RankGraphs {
  const corpus = recallCorpus(engine);
  return { spread: spreadGraph(engine, corpus, scope, features.spread_through_archived), siblings: siblingGraph(engine, corpus, scope) };
}

/**
 * Stages 2 to 4 over gathered candidates: raw terms, min-max normalisation, base score, spread,
 * sort. `candidates` must come from gatherCandidates with a request of the same candidateKey;
 * everything else of the request (weights, decay, spread knobs, boosts, `now`, hops) is read here.
 */
export function scoreCandidates(engine: EngineReader, req: RankRequest, candidates: Candidates, opts: ScoreOptions = {}): Ranking {
  const { graphs, paths: withPaths = true } = opts;
  const { knobs, features } = req.profile;
  const w = knobs.weights;
  if (!candidates.ranks) return emptyRanking(req, candidates.tokens);
  const scope = req.owner;

  // 2. Raw terms, min-max normalised over the candidate set, and the base score.
  const list = candidates.list;
  const raws: RawTerms[] = list.map((c) => {
    const d = c.data;
    return {
      cos: c.cos,
      ctx: c.ctx,
      rel: w.lambda_embed * c.cos + (1 - w.lambda_embed) * c.ctx + features.cooccurrence * (c.sem ?? 0),
      rec: d ? recencyRaw(d.actr, req.now, w.base_level_decay) : sigmoid(-10),
      imp: d ? d.importance / 10 : 0.5,
      ...(features.bm25 ? { kw: c.kw ?? 0 } : {}),
      ...(features.entity_boost > 0 ? { ent: c.ent ?? 0 } : {}),
      ...(features.cooccurrence > 0 ? { sem: c.sem ?? 0 } : {}),
    };
  });
  const nRel = normaliser(raws.map((r) => r.rel), knobs.normalise_epsilon);
  const nRec = normaliser(raws.map((r) => r.rec), knobs.normalise_epsilon);
  const nImp = normaliser(raws.map((r) => r.imp), knobs.normalise_epsilon);
  const nKw = normaliser(raws.map((r) => r.kw ?? 0), knobs.normalise_epsilon);
  const rows: RankedRow[] = [];
  const seed = new Map<string, number>();
  list.forEach((c, i) => {
    const r = raws[i]!;
    const rel = nRel.norm(r.rel);
    const rec = features.recency_scale === 'absolute' ? r.rec : nRec.norm(r.rec);
    const imp = nImp.norm(r.imp);
    let base = w.relevance * rel + w.recency * rec + w.importance * imp;
    const row: RankedRow = { id: c.id, source: c.source, activation: 0, base: 0, cos: r.cos, rel, rec, imp, spread: 0, raw: r };
    if (features.bm25) {
      row.kw = nKw.norm(r.kw ?? 0);
      base += features.bm25.weight * row.kw;
    }
    if (features.entity_boost > 0) {
      row.ent = r.ent ?? 0;
      base *= 1 + features.entity_boost * row.ent;
    }
    row.base = row.activation = base;
    seed.set(c.id, base);
    rows.push(row);
  });

  // 3. Spread (owner-gated; archived targets gated too unless the profile keeps nooa's fault).
  let paths = new Map<string, PathStep[]>();
  let trace: EdgeFate[] = [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const addSpread = (id: string, s: number) => {
    const row = byId.get(id);
    if (row) {
      row.spread += w.spread_gamma * s;
      row.activation = row.base + row.spread;
    } else {
      const g = w.spread_gamma * s;
      const fresh: RankedRow = { id, source: 'spread', activation: g, base: 0, cos: 0, rel: 0, rec: 0, imp: 0, spread: g, raw: null };
      rows.push(fresh);
      byId.set(id, fresh);
    }
  };
  if (req.hops >= 1) {
    const walk = graphs?.spread ?? spreadGraph(engine, recallCorpus(engine), scope, features.spread_through_archived);
    const result = spread(seed, { ...knobs, hops: req.hops }, walk, { trace: req.trace ?? false, paths: withPaths });
    paths = result.paths;
    trace = result.trace ?? [];
    for (const [id, s] of result.spread) addSpread(id, s);
  }
  // mnemo: part_of siblings share context (a spread of its own, shown in the same paths).
  let partOf: SiblingGraph | undefined;
  const siblings = () => (partOf ??= graphs?.siblings ?? siblingGraph(engine, recallCorpus(engine), scope));
  if (features.sibling_spread > 0 && req.hops >= 1) {
    const sib = siblingSpread(seed, features.sibling_spread, features.max_siblings, siblings(), withPaths);
    for (const [id, s] of sib.spread) addSpread(id, s);
    for (const [id, steps] of sib.paths) paths.set(id, [...(paths.get(id) ?? []), ...steps]);
  }
  // mnemo: a part_of parent that is a candidate passes its own score to its children.
  if (features.parent_spread > 0 && req.hops >= 1) {
    const down = parentSpread(seed, features.parent_spread, features.max_siblings, siblings(), withPaths);
    for (const [id, s] of down.spread) addSpread(id, s);
    for (const [id, steps] of down.paths) paths.set(id, [...(paths.get(id) ?? []), ...steps]);
  }

  // 4. Rank: stable sort by activation (Array.prototype.sort is stable).
  rows.sort((a, b) => b.activation - a.activation);
  return {
    query: req.query,
    hops: req.hops,
    owner: scope,
    profile: req.profile,
    now: req.now,
    tokens: candidates.tokens,
    rows,
    paths,
    dense: candidates.dense.map((h) => ({ id: h.id, cos: h.cos })),
    sparse: candidates.sparse,
    bm25: candidates.bm25,
    bounds: { rel: nRel.bounds, rec: nRec.bounds, imp: nImp.bounds },
    candidates: list.length,
    trace,
    elapsedMs: 0,
    supersededPolicy: req.superseded ?? req.profile.features.superseded,
    excluded: [],
  };
}

function siblingGraph(engine: EngineReader, corpus: RecallCorpus, scope: OwnerScope): SiblingGraph {
  const partOf = partOfIndex(engine);
  return {
    parentsOf: (id) => partOf.parentsOf(id),
    childrenOf: (parent) => partOf.childrenOf(parent),
    visible: (id) => {
      const slot = corpus.slot(id);
      return slot !== undefined && ownerMatches(corpus.owners[slot]!, scope);
    },
  };
}

function spreadGraph(engine: EngineReader, corpus: RecallCorpus, scope: OwnerScope, throughArchived: boolean): SpreadGraph {
  const adjacency = recallAdjacency(engine);
  return {
    edgesFrom: (ids) => adjacency.edgesFrom(ids),
    visible: (targets) => {
      // Targets outside the live corpus are archived or dangling; only nooa's profile lets
      // archived ones receive activation, so only then are their owners looked up.
      const missing = throughArchived ? targets.filter((t) => corpus.slot(t) === undefined) : [];
      const others = missing.length ? engine.store.queries.ownerStates(missing) : new Map<string, { owner: string; archived: boolean }>();
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

