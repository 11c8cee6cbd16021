/** The shapes forgetting answers with (shared by the API contract, the CLI and the renderer). */
import type { AccessComponents } from '../model/memory.js';
import type { AccessTally } from './access-tally.js';

/** One memory as `mnemo retention --json` prints it, plus what a list view needs. */
export interface RetentionRow {
  id: string;
  retention: number;
  protected: boolean;
  should_prune: boolean;
  prune_eta: number | null;
  type: string;
  owner: string;
  head: string;
  strength: number;
  last_accessed_at: number;
  created_at: number;
  archived: boolean;
  /** Why it is kept, or why it goes. */
  reason: string;
}

export interface CurveMarker {
  ts: number;
  channel: string;
  touching: boolean;
  /** Where the access was found: the ring on the record, the event table, or both. */
  origin: 'ring' | 'events' | 'both';
  event_id: number | null;
  reader_owner: string;
  session_ref: string | null;
  query: string | null;
  score: number | null;
  rank: number | null;
  components: AccessComponents | null;
  /** Strength right after this access, when known or reconstructed. */
  strength_after: number | null;
}

export interface RetentionCurve {
  id: string;
  head: string;
  type: string;
  owner: string;
  archived: boolean;
  created_at: number;
  now: number;
  until: number;
  threshold: number;
  half_life_hours: number;
  protected: boolean;
  protection_reason: string | null;
  should_prune: boolean;
  prune_reason: string;
  prune_eta: number | null;
  retention_now: number;
  stability_hours_now: number;
  /** R(t) sampled from created_at to `until`; past samples use the strength and last access in force at t. */
  samples: { t: number; r: number; strength: number }[];
  /** Strength after each touching access (reconstructed back from the current strength where not logged). */
  strength_steps: { t: number; strength: number; channel: string; exact: boolean }[];
  markers: CurveMarker[];
  /** The markers counted the way every counter of the detail view counts them (the creation apart, touching or not). */
  accesses: AccessTally;
}

export interface PruneResult {
  applied: boolean;
  action: 'archive' | 'delete';
  scope: string | null;
  now: number;
  /** Memories the policy prunes (dry run) or pruned (apply), in store order. */
  candidates: { id: string; retention: number; reason: string; type: string; owner: string; head: string }[];
  pruned: string[];
  stopped: boolean;
  change_id: number | null;
}
