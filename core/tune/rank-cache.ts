/**
 * Ranking one labelled query under many profiles, cheaply. Most of a recall's work does not depend
 * on the knobs a fit moves: the legs' candidates, their cosines, keyword scores and entity shares
 * (candidates.ts), and the edges the spreads walk. This cache gathers a query's candidates once per
 * candidate key (the leg sizes and keyword knobs: candidateKey) and memoises the graph lookups per
 * store and owner scope, then re-scores with the real pipeline's scoreCandidates, so a cached
 * ranking is the ranking `rank` gives (test/unit/tune-rank-cache.test.ts compares them).
 *
 * Exact only while the stores do not change: a fit over stores that another process may write
 * during the fit (the Scorer lab's) ranks without it.
 */
import type { Edge } from '../model/memory.js';
import { candidateKey, gatherCandidates, type Candidates } from '../recall/candidates.js';
import { rankGraphs, scoreCandidates, type RankGraphs, type Ranking } from '../recall/pipeline.js';
import type { RecallProfile } from '../recall/profile.js';
import type { SpreadGraph } from '../recall/spread.js';
import type { SiblingGraph } from '../recall/mnemo/stages.js';
import type { LabelledQuery, LabelledStore } from './labels.js';

/**
 * Candidate sets kept per query. A coordinate search moves one knob at a time, so the key of the
 * best point so far and the one being tried are what it asks for again; a few more cost memory
 * (a few hundred candidates per query) for little.
 */
const KEYS_PER_QUERY = 3;

interface StoreCache {
  byQuery: Map<LabelledQuery, Map<string, Candidates>>;
  graphs: Map<string, RankGraphs>;
}

export class RankCache {
  private readonly stores = new WeakMap<LabelledStore, StoreCache>();

  rank(store: LabelledStore, q: LabelledQuery, profile: RecallProfile): Ranking {
    const req = { query: q.query, hops: profile.knobs.hops, owner: q.owner, profile, now: q.asOf };
    const cache = this.storeCache(store);
    let sets = cache.byQuery.get(q);
    if (!sets) cache.byQuery.set(q, (sets = new Map()));
    const key = candidateKey(req);
    let candidates = sets.get(key);
    if (candidates) {
      // Most recently used last, so the oldest key is the one dropped.
      sets.delete(key);
    } else {
      candidates = gatherCandidates(store.engine, req);
      if (sets.size >= KEYS_PER_QUERY) sets.delete(sets.keys().next().value!);
    }
    sets.set(key, candidates);
    const graphKey = JSON.stringify([q.owner, profile.features.spread_through_archived]);
    let graphs = cache.graphs.get(graphKey);
    if (!graphs) cache.graphs.set(graphKey, (graphs = memoGraphs(rankGraphs(store.engine, q.owner, profile.features))));
    return scoreCandidates(store.engine, req, candidates, graphs);
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
