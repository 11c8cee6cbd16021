/**
 * The counts behind the Overview, stats, the store panel and the Fleet view's owners.
 */

/** A bucket [min, max) of a numeric expression; either end may be absent. */
export interface CountBucket {
  min: number | null;
  max: number | null;
}

/** Promoted columns the Overview groups by. */
export type OverviewColumn = 'type' | 'owner' | 'status';

export interface RetentionPoint {
  id: string;
  type: string;
  retention: number;
  importance: number;
}

export interface ValueCount {
  value: string;
  n: number;
}

export interface KeyCount {
  /** The column's value; null for a NULL status. */
  k: string | null;
  n: number;
}

export interface SchemaVersions {
  /** nooa's `PRAGMA user_version`. */
  nooa: number;
  /** mnemo's own schema version (0 before mnemo's tables exist). */
  mnemo: number;
}

/** Promoted columns `stats.basic` groups by. */
export type StatsColumn = 'type' | 'owner' | 'status';

export interface TableCounts {
  /** Memory rows, archived included. */
  memories: number;
  archived: number;
  edges: number;
  /** Rows of the access-event table (0 before mnemo's tables exist). */
  events: number;
  /** Journalled changes (0 before mnemo's tables exist). */
  changes: number;
}

export interface OwnerSummaries {
  owners: OwnerSummary[];
  /** More owners than `limit`: the rows are the first `limit` in byte order. */
  truncated: boolean;
}

export interface OwnerSummary {
  /** The exact owner string (`""`: unowned memories). */
  owner: string;
  live: number;
  archived: number;
  /** Live memories per type. */
  by_type: Record<string, number>;
  /** Edges whose source is one of its memories (archived ones included). */
  edges_out: number;
  /** Access events on its memories, by any reader. */
  accesses: number;
  /**
   * Access events this owner made, as a reader, on memories of another role: the Access audit's
   * "cross-owner only" rule (isCrossOwner), so these add up to that filter's total.
   */
  foreign_reads: number;
  /** The newest `created_at` of its memories (rows keep no update time); null when it owns none. */
  last_created: number | null;
  /** The newest access event on its memories; null when none was read. */
  last_access: number | null;
}
