/** The shapes recall answers with (shared by the API contract, the CLI and the renderer). */
import type { AccessEventView } from '../model/access-event.js';
import type { ScoreTerms } from '../model/memory.js';
import type { StoreAsOf } from '../model/history.js';

export type { ScoreTerms };

/** A built-in profile (`nooa-0.0.9`, `mnemo`) or one saved in the store. */
export type RecallProfileName = string;

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
  /**
   * mnemo's addition, after nooa's fields: the named, weighted contributions that sum to `score`
   * (within 0.001). nooa's twelve fields above are unchanged in name, order and value.
   */
  terms: ScoreTerms;
  /** Present when a conflict resolution superseded this memory (its id is what superseded it). */
  superseded_by?: string;
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
  /** The source's title (or the head of its content), so people need no hex id. */
  from_head: string;
  /** The profile-specific rule that set the factor, in words. */
  rule: string;
}

export interface RecallStats {
  candidates: number;
  dense: number;
  sparse: number;
  both: number;
  spread_only: number;
  ranked: number;
  /** The ranking itself. */
  elapsed_ms: number;
  /**
   * Through the API: the time the call spent before ranking, making ready the indexes it ranks
   * with (a first build on a store opened without current snapshots, a catch-up after other
   * processes' writes), so a UI can say what the person waited for besides the ranking.
   */
  prepare_ms?: number;
  /** Through the API: the indexes built while the call waited, and how long each took. */
  built?: { index: string; label: string; ms: number }[];
}

export interface ExplainResult {
  query: string;
  k: number;
  hops: number;
  /** The scope applied (null = no filter). */
  owner: string | null;
  /** The profile ranked with: a built-in name or a fitted profile's (RecallProfile.name). */
  profile: string;
  /** What was done with superseded memories (the profile's policy, or `include` on request). */
  superseded: 'exclude' | 'demote' | 'include';
  /** Superseded memories the ranking left out (policy `exclude`). */
  superseded_excluded: number;
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
  /** Present when a conflict resolution superseded this memory (only with `include_superseded` or a profile that ranks them). */
  superseded_by?: string;
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
  /** The target's title or the head of its content. */
  target_head: string;
  k: number;
  hops: number;
  owner: string | null;
  profile: string;
  tokens: string[];
  /**
   * in_top_k: returned; below_k: ranked but cut by k; not_candidate: never ranked; superseded: ranked,
   * then left out because a resolution superseded it (the profile's `superseded` is `exclude`).
   */
  status: 'in_top_k' | 'below_k' | 'not_candidate' | 'superseded';
  /** 0-based rank among every ranked row (candidates and spread-reached), or null. */
  rank: number | null;
  ranked: number;
  score: number | null;
  kth_score: number | null;
  /** score − kth_score (≥ 0 inside the top k; negative = how far short), or null. */
  margin: number | null;
  /** The target's terms; for a non-candidate they are computed as if it had been one (normalised against the real candidates). */
  terms: { source: Source | 'none'; cos: number; rel: number; rec: number; imp: number; spread: number; score: number };
  /** The target's score as named, weighted contributions (as explain rows' `terms`), summing to `terms.score`. */
  contributions: ScoreTerms;
  /** The row at the cut (the k-th, or the last ranked) that the target has to beat, with its contributions; rank 0-based. */
  kth: { rank: number; id: string; head: string; score: number; terms: ScoreTerms } | null;
  raw: { cos: number; ctx: number; rel: number; rec: number; imp: number; spread: number };
  visibility: { exists: true; archived: boolean; owner: string; visible: boolean; reason: string };
  legs: {
    dense: LegVerdict & { cos: number | null; rank: number | null; cutoff_cos: number | null; n_dense: number; min_similarity: number };
    /** nooa's substring leg (tokens matched); `on` false when the profile turns it off (then it found nothing). */
    sparse: LegVerdict & { on: boolean; matched: string[]; missed: string[]; score: number; rank: number | null; cutoff_score: number | null; n_sparse: number; fields: string[] };
    /** mnemo's BM25 leg; null when the profile has none. */
    bm25: (LegVerdict & { terms: string[]; rank: number | null; bm25: number | null; cutoff_bm25: number | null; n: number }) | null;
    spread: LegVerdict & {
      /** The spread term the score holds (after γ): edges + siblings + parent. */
      received: number;
      /** What the edge walk, the part_of siblings and the part_of parent gave (each after γ). */
      edges: number;
      siblings: number;
      parent: number;
      incoming: { from: string; edge_type: string; weight: number; from_is_candidate: boolean; status: string; contribution: number | null }[];
    };
  };
  /** The resolution that superseded the target, if one did (whatever the policy did with it). */
  superseded: SupersededInfo | null;
  /** Plain sentences, most important first. */
  explanation: string[];
}

/** A resolution as explain and why-not name it. */
export interface SupersededInfo {
  by: string;
  by_head: string;
  at: number;
  /** The journalled change that made it (null when the journal no longer shows it). */
  change_id: number | null;
  /** What the ranking did with it: left out, demoted, or ranked as any other. */
  policy: 'exclude' | 'demote' | 'include';
  /** Its 0-based rank before it was left out (policy exclude; null when it was not ranked at all). */
  rank_if_included: number | null;
}

export interface RecallProfileInfo {
  name: string;
  store_profile: RecallProfileName;
  config: Record<string, unknown>;
  differences: string[];
}

/** A logged recall re-run against the store as it is now (recall/replay.ts). */
export interface ComponentSnapshot {
  rank: number | null;
  score: number | null;
  source: string | null;
  cos: number | null;
  rel: number | null;
  rec: number | null;
  imp: number | null;
  spread: number | null;
}

export interface ReplayResult {
  event: AccessEventView;
  rerun: { query: string; hops: number; owner: string | null; k: number; profile: string; now: number; assumed: string[] };
  /** What was logged, and what the same query gives now (after = null: no longer ranked at all). */
  before: ComponentSnapshot;
  after: ComponentSnapshot | null;
  /** after − before per numeric field (null where either side is missing). */
  delta: Record<keyof ComponentSnapshot, number | null>;
  in_top_k_now: boolean;
  /** The instant the re-run saw the store at (as_of_then: just before the access was logged); null = the store as it is now. */
  as_of: StoreAsOf | null;
  /** Whether the re-run ranks the logged results in the logged order at their logged ranks (null when the access logged no ranks). */
  reproduces_logged_ranking: boolean | null;
  /** Every row the query ranks now (the denominator of "now #14 of 264"). */
  ranked_now: number;
  /** The move in words, ranks 1-based: "was #3, now #14 of 264: no longer in the top 10". */
  movement: string;
  /** The score's named contributions then (null when the access predates the terms column) and now, and now − then per term. */
  terms: { before: ScoreTerms | null; after: ScoreTerms | null; delta: ScoreTerms | null };
  /** The other memories logged by the same recall (same ts, query and reader), in logged rank order; `head` null when the memory is gone. */
  logged_results: { memory_id: string; head: string | null; memory_type: string | null; rank: number | null; score: number | null; event_id: number | null }[];
  now_rows: ExplainRow[];
  notes: string[];
}

/** One knob or feature where two profiles differ (`knobs.weights.recency`, `features.bm25.n`, …). */
export interface ProfileDiffRow {
  key: string;
  a: unknown;
  b: unknown;
}

export interface ProfileSummary {
  name: string;
  builtin: boolean;
  /** The profile a saved one started from (null for a built-in one). */
  base: string | null;
  is_default: boolean;
  created_at: number | null;
  updated_at: number | null;
}

export interface ProfileView {
  name: string;
  builtin: boolean;
  base: string | null;
  is_default: boolean;
  /** `{ knobs, features }`, the shape of a profile file without its name and base. */
  config: Record<string, unknown>;
  /** Against its base (a = base, b = this profile); empty for a built-in profile. */
  diff_from_base: ProfileDiffRow[];
}

export interface ProfileSaved {
  name: string;
  base: string;
  /** A saved profile of that name was replaced. */
  replaced: boolean;
  /** The journalled change (null when the profile saved is identical to what was there). */
  change_id: number | null;
  config: Record<string, unknown>;
  /** Against its base (a = base, b = the profile saved). */
  diff: ProfileDiffRow[];
}
