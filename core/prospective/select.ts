/** Loads every live memory of some types within an owner scope (paged through the list query). */
import type { Memory } from '../model/memory.js';
import { scopeFilter, type OwnerScope } from '../model/owner.js';
import type { StoreReader } from '../store/port/port.js';

export function memoriesOfType(
  store: StoreReader,
  types: string[],
  scope: OwnerScope,
  opts: { statuses?: string[]; archived?: 'live' | 'archived' | 'all' } = {},
): Memory[] {
  const ids: string[] = [];
  const page = 5000;
  for (let offset = 0; ; offset += page) {
    const { rows } = store.queries.listMemories({
      types,
      ...scopeFilter(scope),
      ...(opts.statuses ? { statuses: opts.statuses } : {}),
      archived: opts.archived ?? 'live',
      sort: 'rowid',
      offset,
      limit: page,
    });
    ids.push(...rows.map((r) => r.id));
    if (rows.length < page) break;
  }
  const byId = store.getMany(ids);
  return ids.map((id) => byId.get(id)).filter((m): m is Memory => m !== undefined);
}
