/**
 * Observability: nooa's per-memory usage panel and store KPIs (field for field), and rows against
 * reads per memory type (how much of the store is ever read).
 */
import { z } from 'zod';
import { method } from '../define.js';
import { scopeField } from './recall.js';

/** `per_memory_usage`, nooa v0.0.9's fields and rounding. */
export interface MemoryUsage {
  id: string;
  fetches: number;
  recalled: number;
  searched: number;
  injected: number;
  reinforced: number;
  deref: number;
  last_channel: string | null;
  last_ts: number | null;
  last_session_ref: string | null;
  last_trace_ref: string | null;
  mean_rank: number | null;
  mean_score: number | null;
  injected_never_used: boolean;
  retention: number;
  prune_eta: number | null;
  strength: number;
  reinforcement_count: number;
}

/** `store_kpis`, nooa v0.0.9's fields and rounding. An empty scope gives `{total: 0, maintenance}`. */
export interface StoreKpis {
  total: number;
  by_type?: Record<string, number>;
  by_owner?: Record<string, number>;
  with_references?: number;
  never_fetched_pct?: number;
  fetch_concentration_top10pct?: number;
  total_fetches?: number;
  dedup_reinforces?: number;
  injected_memories?: number;
  injected_used_rate?: number;
  todos_open?: number;
  todos_closed?: number;
  todo_median_open_age_hours?: number | null;
  cross_owner_reads?: number;
  maintenance: { ts: number; kind: string; report: unknown }[];
}

export interface RowsVsReadsRow {
  type: string;
  rows: number;
  row_share: number;
  /** Fetches (recalled + searched + injected + deref counters). */
  reads: number;
  read_share: number;
  /** read_share / row_share (1 = read as often as its size suggests; null when it has no rows). */
  read_ratio: number | null;
  archived: number;
}

export interface RowsVsReads {
  scope: string | null;
  total_rows: number;
  total_reads: number;
  rows: RowsVsReadsRow[];
}

export const observeContract = {
  'stats.kpis': method<StoreKpis>()({
    description: 'Store KPIs as nooa computes them (store_kpis) for an owner scope.',
    input: z.object({ owner: scopeField }).optional().default({}),
  }),
  'stats.usage': method<{ rows: MemoryUsage[] }>()({
    description: 'The per-memory usage panel (per_memory_usage) for the given ids.',
    input: z.object({ ids: z.array(z.string().min(1).max(200)).min(1, 'give at least one id').max(10_000) }),
  }),
  'stats.rowsVsReads': method<RowsVsReads>()({
    description: 'Rows against reads per memory type: the share of the store each type holds and the share of reads it gets.',
    input: z.object({ owner: scopeField, include_archived: z.boolean().optional().default(false) }).optional().default({ include_archived: false }),
  }),
};
