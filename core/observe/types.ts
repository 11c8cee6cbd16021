/** The shapes of usage and KPI answers (shared by the API contract, the CLI and the renderer). */

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
