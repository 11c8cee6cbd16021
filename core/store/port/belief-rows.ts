/**
 * The belief layer's rows: dimensions, the delta log, aliases and rejected pairs.
 */

export interface AliasRow {
  alias: string;
  canonical: string;
  divergence: number | null;
  shared: number | null;
  merged_at: number;
}

export interface DeltaRow {
  id: number;
  entity: string;
  attribute: string;
  observed_entity: string;
  value: string;
  t: number;
  reliability: number | null;
  epsilon: number;
  prior: DistJson;
  posterior: DistJson;
  surprise: number;
  evidence: string;
  source: string;
  memory_id: string | null;
  observation_id: string | null;
  recorded_at: number;
}

export interface DimensionRow {
  entity: string;
  attribute: string;
  distribution: DistJson;
  t_last: number;
  deltas: number;
  mode: string | null;
}

export type DistJson = Record<string, number>;

export type NewDelta = Omit<DeltaRow, 'id'>;

export interface RejectionRow {
  a: string;
  b: string;
  rejected_at: number;
}
