/** The Memories view's filters ⇄ its URL (`#/memories?type=…&owner=…&q=…&sort=…`). */
import type { ListFilter } from '../../api/hooks.js';
import { buildHash, listParam } from '../../state/router.js';

const SORTS = ['created_at', 'last_accessed', 'importance', 'salience', 'strength', 'access_count', 'type', 'owner', 'rowid'] as const;
export type SortField = (typeof SORTS)[number];

export interface MemoryFilters {
  types: string[];
  owners: string[];
  statuses: string[];
  tags: string[];
  archived: 'live' | 'archived' | 'all';
  q: string;
  sort: SortField;
  dir: 'asc' | 'desc';
}

export function filtersFromParams(p: URLSearchParams): MemoryFilters {
  const archived = p.get('archived');
  const sort = p.get('sort');
  return {
    types: listParam(p, 'type'),
    // `owner=` (empty) selects unowned rows; the list is exact owner strings.
    owners: p.has('owner') ? (p.get('owner') ?? '').split(',') : [],
    statuses: listParam(p, 'status'),
    tags: listParam(p, 'tag'),
    archived: archived === 'archived' || archived === 'all' ? archived : 'live',
    q: p.get('q') ?? '',
    sort: (SORTS as readonly string[]).includes(sort ?? '') ? (sort as SortField) : 'created_at',
    dir: p.get('dir') === 'asc' ? 'asc' : 'desc',
  };
}

export function filtersToHash(f: MemoryFilters): string {
  const base = buildHash('memories', null, {
    type: f.types,
    status: f.statuses,
    tag: f.tags,
    archived: f.archived === 'live' ? null : f.archived,
    q: f.q,
    sort: f.sort === 'created_at' ? null : f.sort,
    dir: f.dir === 'desc' ? null : f.dir,
  });
  if (f.owners.length === 0) return base;
  const sep = base.includes('?') ? '&' : '?';
  return `${base}${sep}owner=${f.owners.map(encodeURIComponent).join(',')}`;
}

export function toListInput(f: MemoryFilters): ListFilter {
  return {
    ...(f.types.length ? { types: f.types as ListFilter['types'] } : {}),
    ...(f.owners.length ? { owners: f.owners } : {}),
    ...(f.statuses.length ? { statuses: f.statuses as ListFilter['statuses'] } : {}),
    ...(f.tags.length ? { tags: f.tags } : {}),
    ...(f.q.trim() ? { text: f.q.trim() } : {}),
    archived: f.archived,
    sort: f.sort,
    dir: f.dir,
  };
}
