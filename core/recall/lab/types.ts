/** The shapes the Scorer lab answers with (shared by the API contract and the renderer). */
import type { ScoreTerms } from '../../model/memory.js';

/** A query of the lab's set: typed, or taken from the access log with the scope it ran under. */
export interface LabQuery {
  query: string;
  /** Owner scope to rank under (null: everyone). */
  owner: string | null;
}

export interface LoggedQueryView extends LabQuery {
  reader_owner: string;
  accesses: number;
  first_ts: number;
  last_ts: number;
}

/** One ranked memory under one profile: score = the sum of its terms (within rounding). */
export interface LabRow {
  rank: number;
  id: string;
  head: string;
  /** Who owns it: rows whose heads tie are told apart by it (and their ids). */
  owner: string;
  score: number;
  terms: ScoreTerms;
}

export type RankMove = 'up' | 'down' | 'same' | 'new' | 'dropped';

/**
 * How one memory moved from profile A's top k to B's. `by` is the number of places (up or down).
 * `component` is the term whose change moved its score most, `component_delta` that change
 * (B − A); the term deltas add up to `score_delta`. Null where the memory is not ranked deep
 * enough under one profile to compare terms.
 */
export interface LabMove {
  id: string;
  head: string;
  rank_a: number | null;
  rank_b: number | null;
  move: RankMove;
  by: number;
  score_a: number | null;
  score_b: number | null;
  score_delta: number | null;
  terms_delta: ScoreTerms | null;
  component: keyof ScoreTerms | null;
  component_delta: number | null;
}

/** Retrieval metrics of one ranking against a query's labels (null: the query has no labels). */
export interface LabMetrics {
  recall: number | null;
  mrr: number | null;
  ndcg: number | null;
}

export interface LabQueryResult extends LabQuery {
  /** The relevant memories by the label source (empty: none known for this query). */
  labels: string[];
  a: { rows: LabRow[]; metrics: LabMetrics };
  b: { rows: LabRow[]; metrics: LabMetrics };
  /** |top k of A ∩ top k of B| / k. */
  overlap: number;
  moves: LabMove[];
}

export interface LabCompareResult {
  a: string;
  b: string;
  k: number;
  label_source: string;
  /** A plain sentence naming the label rule and its bias. */
  label_rule: string;
  queries: LabQueryResult[];
}

export interface LabSweepPoint {
  value: number;
  /** Mean over the labelled queries (null: none labelled). */
  recall: number | null;
  mrr: number | null;
  ndcg: number | null;
  /** Mean rank overlap of the top k with the profile's own (unswept) ranking. */
  overlap: number;
  /** How many queries had labels. */
  labelled: number;
}

export interface LabSweepResult {
  profile: string;
  knob: string;
  /** The knob's value in the profile (the plot marks it). */
  current: number;
  k: number;
  label_source: string;
  points: LabSweepPoint[];
}
