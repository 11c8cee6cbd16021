/**
 * The mnemo profile's extra stages, called from the recall pipeline when their feature is on:
 * the BM25 candidate leg, the entity boost, the co-occurrence cosine, and the sibling and parent
 * spreads. The indexes behind them are per-engine Derived singletons, in memory, kept in step with
 * the store.
 */
import type { EngineReader } from '../../engine/engine.js';
import { derivedIndexKey } from '../../engine/derived-key.js';
import { ownerMatches, type OwnerScope } from '../../model/owner.js';
import type { PathStep } from '../spread.js';
import { CooccurrenceIndex, type BuiltSpace } from './cooccurrence-index.js';
import { cooccurrenceTerms } from './cooccurrence-space.js';
import { EntityIndex } from './entity-index.js';
import type { Bm25LegKnobs } from './features.js';
import { KeywordIndex, type KeywordHit } from './keyword-index.js';
import { PartOfIndex } from './part-of-index.js';
import { queryTerms } from './query-terms.js';
import type { RecallProfile } from '../profile.js';

/** One BM25 index per tokenisation (the profile's `stem` knob picks one). */
const KEYWORD_INDEX = {
  porter: derivedIndexKey('recall.mnemo.bm25.porter', () => new KeywordIndex(true)),
  plain: derivedIndexKey('recall.mnemo.bm25.plain', () => new KeywordIndex(false)),
};
const PART_OF_INDEX = derivedIndexKey('recall.mnemo.part_of', () => new PartOfIndex());
const ENTITY_INDEX = derivedIndexKey('recall.mnemo.entities', () => new EntityIndex());
const COOCCURRENCE_INDEX = derivedIndexKey('recall.mnemo.cooccurrence', () => new CooccurrenceIndex());

export function cooccurrenceSpace(engine: EngineReader): BuiltSpace {
  return engine.get(COOCCURRENCE_INDEX).get().space();
}

/** Each memory's co-occurrence cosine with the query (0 for a memory the space does not hold). */
export function cooccurrenceCosines(engine: EngineReader, query: string): (id: string) => number {
  const { space, slotOf, changed } = cooccurrenceSpace(engine);
  const q = space.embed(cooccurrenceTerms(query));
  return (id) => {
    const own = changed.get(id);
    if (own !== undefined) return own ? dot(own, q) : 0;
    const slot = slotOf.get(id);
    return slot === undefined ? 0 : space.cosine(slot, q);
  };
}

export function keywordIndex(engine: EngineReader, stem: boolean): KeywordIndex {
  return engine.get(KEYWORD_INDEX[stem ? 'porter' : 'plain']).get();
}

export function partOfIndex(engine: EngineReader): PartOfIndex {
  return engine.get(PART_OF_INDEX).get();
}

export function entityIndex(engine: EngineReader): EntityIndex {
  return engine.get(ENTITY_INDEX).get();
}

export interface Bm25LegResult {
  terms: string[];
  hits: KeywordHit[];
}

export function bm25Leg(engine: EngineReader, query: string, knobs: Readonly<Bm25LegKnobs>, scope: OwnerScope): Bm25LegResult {
  const terms = queryTerms(query, { stopWords: knobs.stop_words, questionWords: knobs.question_words, maxTerms: knobs.max_terms });
  const index = keywordIndex(engine, knobs.stem);
  const hits = index.search({
    terms,
    limit: knobs.n,
    contextWeight: knobs.context_weight,
    ...(scope === null ? {} : { visible: (owner: string) => ownerMatches(owner, scope) }),
  });
  return { terms, hits };
}

/** The entities the query names, and each memory's share of them. */
export function entityShares(engine: EngineReader, query: string): { entities: string[]; share: (id: string) => number } {
  const index = entityIndex(engine);
  const entities = index.entitiesIn(query);
  return { entities, share: (id) => index.overlap(id, entities) };
}

export interface SiblingGraph {
  /** Targets of the memory's `part_of` edges. */
  parentsOf(id: string): readonly string[];
  /** Sources of `part_of` edges into the parent. */
  childrenOf(parent: string): readonly string[];
  /** Live and inside the owner scope (the only nodes that may receive or relay). */
  visible(id: string): boolean;
}

export interface SiblingSpread {
  /** id → contribution before γ. */
  spread: Map<string, number>;
  paths: Map<string, PathStep[]>;
}

/**
 * Each `part_of` parent of a candidate carries the best base score among its candidate children;
 * every visible child of that parent (candidates or not) receives weight × that score. A memory
 * with a strong sibling is likelier to matter: a question about one moment of a conversation
 * is answered by the turns around it.
 */
export function siblingSpread(seed: ReadonlyMap<string, number>, weight: number, maxSiblings: number, graph: SiblingGraph, withPaths = true): SiblingSpread {
  const spread = new Map<string, number>();
  const paths = new Map<string, PathStep[]>();
  if (weight <= 0) return { spread, paths };
  const best = new Map<string, number>();
  for (const [id, base] of seed) {
    for (const parent of graph.parentsOf(id)) {
      if (!graph.visible(parent)) continue;
      if (base > (best.get(parent) ?? -Infinity)) best.set(parent, base);
    }
  }
  return relayToChildren(best, weight, maxSiblings, graph, 'sibling', withPaths);
}

/**
 * Each candidate that is a visible `part_of` parent passes weight × its own base score to every
 * visible child (candidates or not). A turn inherits what its session matched: the session
 * memory's date and speakers say when and between whom, which no single turn repeats.
 */
export function parentSpread(seed: ReadonlyMap<string, number>, weight: number, maxSiblings: number, graph: SiblingGraph, withPaths = true): SiblingSpread {
  if (weight <= 0) return { spread: new Map(), paths: new Map() };
  const parents = new Map<string, number>();
  for (const [id, base] of seed) if (graph.visible(id) && graph.childrenOf(id).length > 0) parents.set(id, base);
  return relayToChildren(parents, weight, maxSiblings, graph, 'parent', withPaths);
}

/** Every visible child of each parent receives weight × the parent's activation (parents above maxSiblings children, and activations ≤ 0, relay nothing). */
function relayToChildren(parents: ReadonlyMap<string, number>, weight: number, maxSiblings: number, graph: SiblingGraph, via: 'sibling' | 'parent', withPaths: boolean): SiblingSpread {
  const spread = new Map<string, number>();
  const paths = new Map<string, PathStep[]>();
  for (const [parent, act] of parents) {
    if (act <= 0) continue;
    const children = graph.childrenOf(parent);
    if (children.length > maxSiblings) continue;
    const contrib = weight * act;
    for (const child of children) {
      if (!graph.visible(child)) continue;
      spread.set(child, (spread.get(child) ?? 0) + contrib);
      if (!withPaths) continue;
      let list = paths.get(child);
      if (!list) paths.set(child, (list = []));
      // One step of its own (whatever hops is), its factor the profile's weight for this spread,
      // so weight × type_factor × from_activation is the contribution shown.
      list.push({ from: parent, edge_type: 'part_of', weight: 1, hop: 1, type_factor: weight, from_activation: act, contrib, via });
    }
  }
  return { spread, paths };
}

/** Brings the mnemo stages' indexes for these features up to date, a build step at a time (Derived.getReady). */
export async function prepareStageIndexes(engine: EngineReader, features: RecallProfile['features'], pause: () => Promise<void>): Promise<void> {
  if (features.bm25) await engine.get(KEYWORD_INDEX[features.bm25.stem ? 'porter' : 'plain']).getReady(pause);
  if (features.entity_boost > 0) await engine.get(ENTITY_INDEX).getReady(pause);
  if (features.cooccurrence > 0) {
    await engine.get(COOCCURRENCE_INDEX).getReady(pause);
    // The space itself is built on first use; build it here, where callers expect the long work.
    cooccurrenceSpace(engine);
  }
  if (features.sibling_spread > 0 || features.parent_spread > 0) await engine.get(PART_OF_INDEX).getReady(pause);
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k]! * b[k]!;
  return s;
}
