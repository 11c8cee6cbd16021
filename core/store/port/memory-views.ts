/**
 * The memory list, its facets, review heads, duplicate candidates, owner states, usage records and
 * the graph view, as the port's queries return them.
 */
import type { Memory } from '../../model/memory.js';
import type { OwnerScope } from '../../model/owner.js';

/** The memory list's filters, sort and page. */
export interface ListFilter {
  types?: string[];
  owner?: string;
  owners?: string[];
  statuses?: string[];
  archived?: 'live' | 'archived' | 'all';
  text?: string;
  tags?: string[];
  ids?: string[];
  /** Memories with an edge (out or in) of one of these types. */
  edge_types?: string[];
  /** Retention at `now` in [min, max) (needs `now` and `half_life_hours`). */
  retention?: NumRange;
  importance?: NumRange;
  /** Seconds since the last access at `now`, in [min, max). */
  idle?: NumRange;
  now?: number;
  half_life_hours?: number;
  sort?: string;
  dir?: 'asc' | 'desc';
  offset?: number;
  limit?: number;
}

export interface ListRow {
  id: string;
  type: string;
  title: string | null;
  content: string;
  owner: string;
  status: string | null;
  archived: number;
  importance: number;
  salience: number;
  strength: number;
  access_count: number;
  created_at: number;
  last_accessed: number;
  tags: string | null;
}

export interface FacetRow {
  value: string;
  n: number;
}

export interface MemoryHead {
  type: string;
  owner: string;
  title: string | null;
  /** The content's first characters (enough for a text filter over what the card shows). */
  content: string;
}

export interface DuplicateCandidateRow {
  id: string;
  type: string;
  owner: string;
  created_at: number;
  strength: number;
  archived: number;
  content: string;
}

export interface OwnerState {
  owner: string;
  archived: boolean;
}

export type UsageRecord = Pick<
  Memory,
  | 'id'
  | 'type'
  | 'status'
  | 'owner'
  | 'importance'
  | 'strength'
  | 'reinforcement_count'
  | 'created_at'
  | 'last_accessed_at'
  | 'access_log'
  | 'recalled_count'
  | 'searched_count'
  | 'injected_count'
  | 'reinforced_count'
  | 'deref_count'
  | 'archived'
> & { references_count: number; title: string | null; content: string };

export interface GraphFilter {
  focus?: string | null;
  hops?: number;
  owner?: OwnerScope;
  edgeTypes?: readonly string[];
  types?: readonly string[];
  includeArchived?: boolean;
  limit?: number;
}

export interface GraphResult {
  nodes: (GraphNodeRow & { depth: number | null })[];
  edges: GraphEdgeRow[];
  /** How many nodes the request would have reached without the limit. */
  reachable: number;
  truncated: boolean;
}

export interface GraphNodeRow {
  id: string;
  type: string;
  owner: string;
  importance: number;
  strength: number;
  archived: number;
  title: string | null;
  content: string;
}

export interface GraphEdgeRow {
  src: string;
  dst: string;
  type: string;
  weight: number;
}

/** A half-open numeric range [min, max); either end may be absent. */
export interface NumRange {
  min?: number | null | undefined;
  max?: number | null | undefined;
}

/** The memory list's facet counts: values per column, tags over the newest rows, live and archived totals. */
export interface MemoryFacets {
  /** How many rows the tags were counted over, when fewer than the set; null when all of it. */
  tags_sampled: number | null;
  types: FacetRow[];
  owners: FacetRow[];
  /** Statuses without the unset one. */
  statuses: FacetRow[];
  tags: FacetRow[];
  live: number;
  archived: number;
}
