/** The shapes of the access audit (shared by the API contract, the CLI and the renderer). */
import type { AccessComponents } from '../model/memory.js';
import type { ExplainRow, RecallProfileName, ScoreTerms } from '../recall/types.js';

export interface AccessEventView {
  /** Row id in mnemo_access_events; null for an entry read from a ring (store without the table). */
  event_id: number | null;
  memory_id: string;
  ts: number;
  channel: string;
  reader_owner: string;
  session_ref: string | null;
  trace_ref: string | null;
  query: string | null;
  score: number | null;
  rank: number | null;
  components: AccessComponents | null;
  strength_after: number | null;
  reinforce: boolean;
  backfilled: boolean;
  /** The memory's current owner, type and head (null when the memory is gone). */
  memory_owner: string | null;
  memory_type: string | null;
  head: string | null;
  /** Reader and owner both non-empty and of different roles. */
  cross_owner: boolean;
  /** Recall context recorded by mnemo (hops, scope, k, profile), when known. */
  context: { hops?: number; owner?: string | null; k?: number; profile?: string } | null;
  /** The score's named contributions, summing to `score` (recalls logged by mnemo since the terms column; null otherwise). */
  terms: ScoreTerms | null;
}

export interface AccessListResult {
  /** `events` = the mnemo_access_events table; `rings` = the 64-entry rings (store without the table). */
  source: 'events' | 'rings';
  total: number;
  events: AccessEventView[];
}

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
  rerun: { query: string; hops: number; owner: string | null; k: number; profile: RecallProfileName; now: number; assumed: string[] };
  /** What was logged, and what the same query gives now (after = null: no longer ranked at all). */
  before: ComponentSnapshot;
  after: ComponentSnapshot | null;
  /** after − before per numeric field (null where either side is missing). */
  delta: Record<keyof ComponentSnapshot, number | null>;
  in_top_k_now: boolean;
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
