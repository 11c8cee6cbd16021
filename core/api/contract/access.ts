/**
 * The access audit: every logged access (the uncapped `mnemo_access_events` table, or the rings
 * on the records for a store that has none), replaying one against the store as it is now, and
 * the two touching channels that are not recall (`deref`, `reinforced`).
 */
import { z } from 'zod';
import { ACCESS_CHANNELS } from '../../model/enums.js';
import type { AccessComponents, Memory } from '../../model/memory.js';
import { method } from '../define.js';
import { hopsField, kField, scopeField, type ExplainRow, type RecallProfileName } from './recall.js';

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
}

export const accessListInput = z.object({
  channels: z.array(z.enum(ACCESS_CHANNELS)).optional(),
  reader_owner: z.string().max(200).optional(),
  cross_owner_only: z.boolean().optional(),
  /** Substring of the logged query text. */
  query: z.string().max(500).optional(),
  memory_id: z.string().min(1).max(200).optional(),
  since: z.number().optional(),
  until: z.number().optional(),
  order: z.enum(['asc', 'desc']).optional().default('desc'),
  offset: z.number().int().min(0).optional().default(0),
  limit: z.number().int().min(1).max(5000).optional().default(100),
});

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
  /** The other memories logged by the same recall (same ts, query and reader), in logged rank order. */
  logged_results: { memory_id: string; rank: number | null; score: number | null; event_id: number | null }[];
  now_rows: ExplainRow[];
  notes: string[];
}

export const accessContract = {
  'access.list': method<AccessListResult>()({
    description: 'Logged accesses, newest first, filtered by channel, reader, cross-owner, query text or memory; paged.',
    input: accessListInput,
  }),
  'access.replay': method<ReplayResult>()({
    description: 'Re-run a logged access against the store as it is now and show how each component moved.',
    input: z.object({
      event_id: z.number().int().min(1, 'event_id is a row id of mnemo_access_events (≥ 1)'),
      hops: hopsField.optional(),
      owner: scopeField,
      k: kField.optional(),
    }),
  }),
  'access.deref': method<{ memory: Memory; logged: boolean }>()({
    description: 'Dereference a memory (`memory:<id>`): returns it and logs a touching `deref` access.',
    input: z.object({ id: z.string().min(1, 'id is required').max(200) }),
    mutates: true,
  }),
  'access.reinforce': method<{ memory: Memory; logged: boolean }>()({
    description: 'Reinforce a memory: logs a touching `reinforced` access (strength +1 unless bump is false).',
    input: z.object({ id: z.string().min(1, 'id is required').max(200), bump: z.boolean().optional().default(true) }),
    mutates: true,
  }),
};
