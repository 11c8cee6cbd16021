/** The Memories view's filters ⇄ its URL (`#/memories?type=…&owner=…&q=…&sort=…`). */
import type { ListFilter } from '../../api/hooks.js';
import { instantParam } from '../../state/instant.js';
import { buildHash, listParam } from '../../state/hash.js';

const SORTS = ['created_at', 'last_accessed', 'importance', 'salience', 'strength', 'access_count', 'type', 'owner', 'rowid'] as const;
export type SortField = (typeof SORTS)[number];

/** A half-open range [min, max); null ends are open. In the URL: `min~max` (either side may be empty). */
export interface Range {
  min: number | null;
  max: number | null;
}

export function parseRange(v: string | null): Range | null {
  if (!v) return null;
  const [a = '', b = ''] = v.split('~', 2);
  const num = (x: string) => (x.trim() === '' || !Number.isFinite(Number(x)) ? null : Number(x));
  const r = { min: num(a), max: num(b) };
  return r.min === null && r.max === null ? null : r;
}

export function formatRange(r: Range | null): string | null {
  return r ? `${r.min ?? ''}~${r.max ?? ''}` : null;
}

/**
 * An owner string is data and may hold a comma, which separates the owners of `owner=`: inside one
 * it is written `%2C` (and `%` as `%25`) before the URL encoding, so it survives URLSearchParams'
 * decoding as text that the split leaves whole. A `%` followed by anything else is kept as it is,
 * so links written before this read the same.
 */
export const ownerToParam = (owner: string): string => owner.replace(/%/g, '%25').replace(/,/g, '%2C');
export const ownerFromParam = (part: string): string => part.replace(/%(25|2C)/gi, (_, code: string) => (code === '25' ? '%' : ','));

export interface MemoryFilters {
  /** Memories with an edge (in or out) of one of these types. */
  edges: string[];
  /** Retention now, importance, and seconds since the last access (Overview drill-downs). */
  retention: Range | null;
  importance: Range | null;
  idle: Range | null;
  types: string[];
  owners: string[];
  statuses: string[];
  tags: string[];
  archived: 'live' | 'archived' | 'all';
  q: string;
  sort: SortField;
  dir: 'asc' | 'desc';
  /** The instant the list shows the store at (epoch seconds); null: live. Kept when a filter changes. */
  at: number | null;
}

export function filtersFromParams(p: URLSearchParams): MemoryFilters {
  const archived = p.get('archived');
  const sort = p.get('sort');
  return {
    edges: listParam(p, 'edge'),
    retention: parseRange(p.get('ret')),
    importance: parseRange(p.get('imp')),
    idle: parseRange(p.get('idle')),
    types: listParam(p, 'type'),
    // `owner=` (empty) selects unowned rows; the list is exact owner strings (ownersParam).
    owners: p.has('owner') ? (p.get('owner') ?? '').split(',').map(ownerFromParam) : [],
    statuses: listParam(p, 'status'),
    tags: listParam(p, 'tag'),
    archived: archived === 'archived' || archived === 'all' ? archived : 'live',
    q: p.get('q') ?? '',
    sort: (SORTS as readonly string[]).includes(sort ?? '') ? (sort as SortField) : 'created_at',
    dir: p.get('dir') === 'asc' ? 'asc' : 'desc',
    at: instantParam(p).at,
  };
}

export function filtersToHash(f: MemoryFilters): string {
  const base = buildHash('memories', null, {
    type: f.types,
    status: f.statuses,
    tag: f.tags,
    edge: f.edges,
    ret: formatRange(f.retention),
    imp: formatRange(f.importance),
    idle: formatRange(f.idle),
    archived: f.archived === 'live' ? null : f.archived,
    q: f.q,
    sort: f.sort === 'created_at' ? null : f.sort,
    dir: f.dir === 'desc' ? null : f.dir,
    at: f.at,
  });
  if (f.owners.length === 0) return base;
  const sep = base.includes('?') ? '&' : '?';
  return `${base}${sep}owner=${f.owners.map((o) => encodeURIComponent(ownerToParam(o))).join(',')}`;
}

/** A link to the Memories list with the default filters and `patch` (the Overview's facets, the Fleet's owners). */
export const memoriesHref = (patch: Partial<MemoryFilters>): string => `#${filtersToHash({ ...filtersFromParams(new URLSearchParams()), ...patch })}`;

export function toListInput(f: MemoryFilters): ListFilter {
  return {
    ...(f.types.length ? { types: f.types as ListFilter['types'] } : {}),
    ...(f.owners.length ? { owners: f.owners } : {}),
    ...(f.statuses.length ? { statuses: f.statuses as ListFilter['statuses'] } : {}),
    ...(f.tags.length ? { tags: f.tags } : {}),
    ...(f.edges.length ? { edge_types: f.edges as ListFilter['edge_types'] } : {}),
    ...(f.retention ? { retention: f.retention } : {}),
    ...(f.importance ? { importance: f.importance } : {}),
    ...(f.idle ? { idle: f.idle } : {}),
    ...(f.q.trim() ? { text: f.q.trim() } : {}),
    archived: f.archived,
    sort: f.sort,
    dir: f.dir,
  };
}

