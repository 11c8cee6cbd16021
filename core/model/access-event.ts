/**
 * One access as the audit shows it: the logged record joined to the memory it read. A shape of the
 * model because two rooms on one layer show it (the access audit in observe, replay in recall).
 */
import type { CredentialRef } from './agent-credential.js';
import type { AccessComponents, ScoreTerms } from './memory.js';

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
  /** The agent credential the access was made with (null: a local reader, or logged before credentials existed). */
  credential: CredentialRef | null;
}
