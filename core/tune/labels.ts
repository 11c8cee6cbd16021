/**
 * Labelled queries: what the tuner fits against. A query is asked of one engine (a store) as of
 * an instant, and some of the memories in that store are the ones it should find. Sources
 * (a benchmark's questions, a store's own access log, a list the Scorer lab is given) all come
 * down to these shapes, so the fitting never knows where its labels came from.
 */
import type { EngineReader } from '../engine/engine.js';
import type { LabelledQuery } from '../recall/used-later.js';

export type { LabelledQuery };

/** Queries asked of one engine. The engine's derived indexes are built on first use and reused by every evaluation. */
export interface LabelledStore {
  engine: EngineReader;
  queries: readonly LabelledQuery[];
  /**
   * When given, only these memory ids are ranked items: others are skipped before the cut at k
   * (LoCoMo's session memories are containers, not turns a question can cite).
   */
  rankable?: ReadonlySet<string>;
}

export type LabelledSet = readonly LabelledStore[];

export function queryCount(set: LabelledSet): number {
  return set.reduce((n, s) => n + s.queries.length, 0);
}
