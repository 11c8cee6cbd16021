/**
 * Forgetting: retention now and over time, the prune guards, and pruning itself (dry run or
 * apply, journalled so it can be undone).
 */
import { z } from 'zod';
import type { AccessComponents } from '../../model/memory.js';
import { method } from '../define.js';
import { scopeField } from './recall.js';

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

export const retentionContract = {
  'retention.list': method<{ total: number; rows: RetentionRow[] }>()({
    description: 'Retention, protection, prune decision and prune ETA per memory, filtered and sorted.',
    input: z.object({
      owner: scopeField,
      include_archived: z.boolean().optional().default(false),
      only: z.enum(['all', 'should_prune', 'protected', 'unprotected']).optional().default('all'),
      sort: z.enum(['id', 'retention', 'prune_eta', 'rowid']).optional().default('id'),
      offset: z.number().int().min(0).optional().default(0),
      limit: z.number().int().min(1).max(1_000_000).optional().default(1000),
    }),
  }),
  'retention.curve': method<RetentionCurve>()({
    description: 'The forgetting curve of one memory: R(t) from creation to now + 90 days (or `until`), strength steps, prune threshold and ETA, and a marker per access.',
    input: z.object({
      id: z.string().min(1, 'id is required').max(200),
      until: z.number().optional(),
      samples: z.number().int().min(10).max(5000).optional().default(400),
    }),
  }),
  'retention.prune': method<PruneResult>()({
    description: 'Prune what the forgetting policy says should go (archive by default). `apply: false` is a dry run.',
    input: z.object({
      apply: z.boolean().optional().default(false),
      owner: scopeField,
      action: z.enum(['archive', 'delete']).optional(),
    }),
    mutates: true,
  }),
};
