/**
 * Ranking one labelled query under many profiles, cheaply. Most of a recall's work does not depend
 * on the knobs a fit moves: the legs' hits, their cosines, keyword scores and entity shares
 * (candidates.ts), and the edges the spreads walk. This cache runs a query's legs once per leg key
 * (legKey: the keyword knobs) at the largest leg sizes, cuts them to each profile's sizes (a leg's
 * hits for a size are the first of its hits for a larger one), keeps the candidate sets so cut,
 * and memoises the graph lookups per store and owner scope; then it re-scores with the real
 * pipeline's scoreCandidates, so a cached ranking is the ranking `rank` gives
 * (test/unit/tune-rank-cache.test.ts compares them).
 *
 * Exact only while the stores do not change: a fit over stores that another process may write
 * during the fit (the Scorer lab's) ranks without it.
 */
import type { Edge } from '../model/memory.js';
import { assembleCandidates, candidateKey, legHits, legKey, legSizes, type Candidates, type LegHits } from '../recall/candidates.js';
import { rankGraphs, scoreCandidates, type RankGraphs, type Ranking } from '../recall/pipeline.js';
import type { RecallProfile } from '../recall/profile.js';
import type { SpreadGraph } from '../recall/spread.js';
import type { SiblingGraph } from '../recall/mnemo/stages.js';
import type { LabelledQuery, LabelledStore } from './labels.js';

/**
 * Leg hits and candidate sets kept per query. A coordinate search moves one knob at a time, so
 * the key of the best point so far and the one being tried are what it asks for again; a few
 * more cost memory (a few hundred hits per query) for little.
 */
const KEYS_PER_QUERY = 3;

/**
 * The legs are run with at least this many hits each (the leg-size knobs' largest value), so a
 * move of a leg-size knob cuts hits already found instead of searching again.
 */
const GATHERED_LEG_SIZE = 300;

interface QueryCache {
  legs: Map<string, LegHits>;
  candidates: Map<string, Candidates>;
}

interface StoreCache {
  byQuery: Map<LabelledQuery, QueryCache>;
  graphs: Map<string, RankGraphs>;
}

/** The cached value under the key, made most recently used; `make` fills a miss, dropping the least recently used beyond KEYS_PER_QUERY. */
function lru<V>(map: Map<string, V>, key: string, make: () => V, fits: (v: V) => boolean = () => true): V {
  let v = map.get(key);
  if (v !== undefined && fits(v)) map.delete(key);
  else {
    map.delete(key);
    v = make();
    if (map.size >= KEYS_PER_QUERY) map.delete(map.keys().next().value!);
  }
  map.set(key, v);
  return v;
}

export class RankCache {
  private readonly stores = new WeakMap<LabelledStore, StoreCache>();

  rank(store: LabelledStore, q: LabelledQuery, profile: RecallProfile): Ranking {
    const req = { query: q.query, hops: profile.knobs.hops, owner: q.owner, profile, now: q.asOf };
    const cache = this.storeCache(store);
    let perQuery = cache.byQuery.get(q);
    if (!perQuery) cache.byQuery.set(q, (perQuery = { legs: new Map(), candidates: new Map() }));
    const legs = perQuery.legs;
    const candidates = lru(perQuery.candidates, candidateKey(req), () => {
      const need = legSizes(profile);
      const wide = { dense: Math.max(GATHERED_LEG_SIZE, need.dense), sparse: Math.max(GATHERED_LEG_SIZE, need.sparse), bm25: Math.max(GATHERED_LEG_SIZE, need.bm25) };
      const covers = (h: LegHits) => h.sizes.dense >= need.dense && h.sizes.sparse >= need.sparse && h.sizes.bm25 >= need.bm25;
      const hits = lru(legs, legKey(req), () => legHits(store.engine, req, wide), covers);
      return assembleCandidates(store.engine, req, hits);
    });
    const graphKey = JSON.stringify([q.owner, profile.features.spread_through_archived]);
    let graphs = cache.graphs.get(graphKey);
    if (!graphs) cache.graphs.set(graphKey, (graphs = memoGraphs(rankGraphs(store.engine, q.owner, profile.features))));
    // The tuner reads ranks only: the spread paths (explain's) are not built.
    return scoreCandidates(store.engine, req, candidates, { graphs, paths: false });
  }

  private storeCache(store: LabelledStore): StoreCache {
    let cache = this.stores.get(store);
    if (!cache) this.stores.set(store, (cache = { byQuery: new Map(), graphs: new Map() }));
    return cache;
  }
}

/** The same graphs, each lookup answered once per id and then from memory. */
function memoGraphs(g: RankGraphs): RankGraphs {
  return { spread: memoSpreadGraph(g.spread), siblings: memoSiblingGraph(g.siblings) };
}

function memoSpreadGraph(g: SpreadGraph): SpreadGraph {
  const edges = new Map<string, Edge[] | undefined>();
  const visible = new Map<string, boolean>();
  return {
    edgesFrom(ids) {
      const missing = ids.filter((id) => !edges.has(id));
      if (missing.length > 0) {
        const found = g.edgesFrom(missing);
        for (const id of missing) edges.set(id, found.get(id));
      }
      const out = new Map<string, Edge[]>();
      for (const id of ids) {
        const list = edges.get(id);
        if (list) out.set(id, list);
      }
      return out;
    },
    visible(targets) {
      const missing = targets.filter((t) => !visible.has(t));
      if (missing.length > 0) {
        const test = g.visible(missing);
        for (const t of missing) visible.set(t, test(t));
      }
      return (id) => visible.get(id) ?? g.visible([id])(id);
    },
  };
}

function memoSiblingGraph(g: SiblingGraph): SiblingGraph {
  const visible = new Map<string, boolean>();
  return {
    parentsOf: (id) => g.parentsOf(id),
    childrenOf: (parent) => g.childrenOf(parent),
    visible(id) {
      let v = visible.get(id);
      if (v === undefined) visible.set(id, (v = g.visible(id)));
      return v;
    },
  };
}
