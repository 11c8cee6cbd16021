/**
 * The lab's names as plain data (no store, no engine), so the API contract can build its schemas
 * from them without pulling the lab's code in: the label sources and the knobs a sweep can move.
 */

/** labels.ts implements each. */
export const LABEL_SOURCE_NAMES = ['used-later', 'logged-top-k', 'none'] as const;
export type LabelSourceName = (typeof LABEL_SOURCE_NAMES)[number];

export interface SweepKnob {
  path: string;
  integer: boolean;
  /** The range a sweep over it defaults to. */
  min: number;
  max: number;
}

export const SWEEP_KNOBS: readonly SweepKnob[] = [
  { path: 'knobs.weights.relevance', integer: false, min: 0, max: 3 },
  { path: 'knobs.weights.recency', integer: false, min: 0, max: 3 },
  { path: 'knobs.weights.importance', integer: false, min: 0, max: 3 },
  { path: 'knobs.weights.lambda_embed', integer: false, min: 0, max: 1 },
  { path: 'knobs.weights.base_level_decay', integer: false, min: 0.1, max: 1.5 },
  { path: 'knobs.weights.spread_gamma', integer: false, min: 0, max: 2 },
  { path: 'knobs.per_hop_decay', integer: false, min: 0, max: 1 },
  { path: 'knobs.per_hop_fanout', integer: true, min: 0, max: 20 },
  { path: 'knobs.n_dense', integer: true, min: 10, max: 200 },
  { path: 'knobs.n_sparse', integer: true, min: 10, max: 200 },
  { path: 'knobs.activation_floor', integer: false, min: 0, max: 0.5 },
  { path: 'features.entity_boost', integer: false, min: 0, max: 3 },
  { path: 'features.sibling_spread', integer: false, min: 0, max: 2 },
  { path: 'features.parent_spread', integer: false, min: 0, max: 4 },
  { path: 'features.cooccurrence', integer: false, min: 0, max: 4 },
  { path: 'features.bm25.weight', integer: false, min: 0, max: 6 },
  { path: 'features.bm25.context_weight', integer: false, min: 0, max: 2 },
];
export const SWEEP_KNOB_PATHS = SWEEP_KNOBS.map((k) => k.path) as [string, ...string[]];

