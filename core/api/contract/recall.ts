/**
 * Recall: the scoring pipeline as a dry run (`recall.explain`), as a touching read (`recall.run`,
 * `recall.search`), as a spontaneous injection (`recall.inject`), and the question the reference
 * cannot answer (`recall.whyNot`). Types only depend on zod, so the renderer can import them.
 */
import { z } from 'zod';
import { method } from '../define.js';

export const PROFILE_NAMES = ['nooa-0.0.9', 'mnemo'] as const;
export type RecallProfileName = (typeof PROFILE_NAMES)[number];

export const MAX_K = 1000;
export const MAX_HOPS = 4;

export const queryField = z.string().max(20_000, 'query is longer than 20000 characters; shorten it');
export const kField = z
  .number({ error: 'k must be a number' })
  .int('k must be an integer')
  .min(1, 'k must be at least 1 (how many results to return)')
  .max(MAX_K, `k must be at most ${MAX_K}`);
export const hopsField = z
  .number({ error: 'hops must be a number' })
  .int('hops must be an integer')
  .min(0, 'hops must be at least 0 (0 = no spread)')
  .max(MAX_HOPS, `hops must be at most ${MAX_HOPS}`);
/** Owner scope: absent, null or "*" = everyone; "role" = every instance of a role; "role@inst" = one instance. */
export const scopeField = z.string().max(200).nullable().optional();

export const recallInput = z.object({
  query: queryField,
  k: kField.optional(),
  hops: hopsField.optional(),
  owner: scopeField,
  /** Scores with another profile than the store's (comparison, conformance). */
  profile: z.enum(PROFILE_NAMES).optional(),
});

export type Source = 'dense' | 'sparse' | 'both' | 'spread';

/** One explain row, exactly the reference's shape (numbers rounded to 4 places as Python's round). */
export interface ExplainRow {
  rank: number;
  id: string;
  score: number;
  source: Source;
  cos: number;
  rel: number;
  rec: number;
  imp: number;
  /** γ·spread. */
  spread: number;
  type: string;
  owner: string;
  head: string;
}

/** One edge that carried activation into a row: the row's `spread` is the sum of `contribution`s. */
export interface SpreadPath {
  from: string;
  edge_type: string;
  weight: number;
  hop: number;
  /** 1.0 for causal edges, 0.6 for the others. */
  type_factor: number;
  /** The activation the source carried into this hop (its base score at hop 1). */
  from_activation: number;
  /** γ · δ^h · from_activation · weight · type_factor (unrounded). */
  contribution: number;
}

export interface RecallStats {
  candidates: number;
  dense: number;
  sparse: number;
  both: number;
  spread_only: number;
  ranked: number;
  elapsed_ms: number;
}

export interface ExplainResult {
  query: string;
  k: number;
  hops: number;
  /** The scope applied (null = no filter). */
  owner: string | null;
  profile: RecallProfileName;
  now: number;
  /** Keyword-leg tokens, first occurrence order, at most 12. */
  tokens: string[];
  rows: ExplainRow[];
  /** Spread paths into each returned row, keyed by row id (absent = no spread). */
  paths: Record<string, SpreadPath[]>;
  stats: RecallStats;
}

export interface RecallItem {
  id: string;
  rank: number;
  score: number;
  type: string;
  title: string | null;
  content: string;
  owner: string;
  tags: string[];
  status: string | null;
}

export interface RecallResult extends ExplainResult {
  channel: 'recalled' | 'searched' | 'injected';
  /** The accesses written (one per returned memory). */
  logged: number;
  items: RecallItem[];
}

export interface LegVerdict {
  hit: boolean;
  reason: string;
}

export interface WhyNotResult {
  query: string;
  target: string;
  k: number;
  hops: number;
  owner: string | null;
  profile: RecallProfileName;
  tokens: string[];
  /** in_top_k: returned; below_k: ranked but cut by k; not_candidate: never ranked; not_found: no such memory. */
  status: 'in_top_k' | 'below_k' | 'not_candidate';
  /** 0-based rank among every ranked row (candidates and spread-reached), or null. */
  rank: number | null;
  ranked: number;
  score: number | null;
  kth_score: number | null;
  /** score − kth_score (≥ 0 inside the top k; negative = how far short), or null. */
  margin: number | null;
  /** The target's terms; for a non-candidate they are computed as if it had been one (normalised against the real candidates). */
  terms: { source: Source | 'none'; cos: number; rel: number; rec: number; imp: number; spread: number; score: number };
  raw: { cos: number; ctx: number; rel: number; rec: number; imp: number; spread: number };
  visibility: { exists: true; archived: boolean; owner: string; visible: boolean; reason: string };
  legs: {
    dense: LegVerdict & { cos: number | null; rank: number | null; cutoff_cos: number | null; n_dense: number; min_similarity: number };
    sparse: LegVerdict & { matched: string[]; missed: string[]; score: number; rank: number | null; cutoff_score: number | null; n_sparse: number; fields: string[] };
    spread: LegVerdict & {
      incoming: { from: string; edge_type: string; weight: number; from_is_candidate: boolean; status: string; contribution: number | null }[];
    };
  };
  /** Plain sentences, most important first. */
  explanation: string[];
}

export interface RecallProfileInfo {
  name: RecallProfileName;
  store_profile: RecallProfileName;
  config: Record<string, unknown>;
  differences: string[];
}

export const recallContract = {
  'recall.explain': method<ExplainResult>()({
    description: 'Dry run of the recall pipeline: ranked rows with every term and the spread paths into each. Writes nothing.',
    input: recallInput,
  }),
  'recall.run': method<RecallResult>()({
    description: 'Deliberate recall: ranks, then logs one `recalled` access per returned memory (touching: strength +1, recency now).',
    input: recallInput,
    mutates: true,
  }),
  'recall.search': method<RecallResult>()({
    description: 'Search: recall without spread (hops 0), logged on the `searched` channel (touching).',
    input: recallInput.omit({ hops: true }),
    mutates: true,
  }),
  'recall.inject': method<RecallResult>()({
    description: 'Spontaneous injection: ranks without touching, then logs `injected` (strength, recency and base-level activation unchanged).',
    input: recallInput,
    mutates: true,
  }),
  'recall.whyNot': method<WhyNotResult>()({
    description: 'Why a memory is (not) in the top k: its rank among all candidates or the leg that missed it, its terms, its margin to the k-th result.',
    input: recallInput.extend({ target: z.string().min(1, 'target id is required').max(200) }),
  }),
  'recall.profile': method<RecallProfileInfo>()({
    description: 'The scoring profile in effect (or the one named) with every knob and how it differs from nooa v0.0.9.',
    input: z.object({ profile: z.enum(PROFILE_NAMES).optional() }).optional().default({}),
  }),
};
