/**
 * Labelled queries: what the tuner fits against. A query is asked of one engine (a store) as of
 * an instant, and some of the memories in that store are the ones it should find. Sources
 * (a benchmark's questions, a store's own access log, a list the Scorer lab is given) all come
 * down to these shapes, so the fitting never knows where its labels came from.
 */
import type { EngineReader } from '../engine/engine.js';
import type { OwnerScope } from '../model/owner.js';

export interface LabelledQuery {
  /** For reports (a benchmark's question id, a logged recall's event id). */
  id: string;
  query: string;
  /** The owner scope the query is asked with; null = every owner. */
  owner: OwnerScope;
  /** The ranking's clock (epoch seconds): recency is read as of then. */
  asOf: number;
  /** The memories the query should find (non-empty: a query without any has no defined recall). */
  relevant: readonly string[];
}

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
