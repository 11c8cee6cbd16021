/**
 * Light reads the recall pipeline needs beyond MemoryStore's record API: owner and archived
 * flags of many ids at once (spread visibility), without decoding whole records.
 */
import { connectionOf } from './connection.js';
import type { RowSource } from '../shared/store-handle.js';

export interface OwnerState {
  owner: string;
  archived: boolean;
}

export function ownerStates(store: RowSource, ids: readonly string[]): Map<string, OwnerState> {
  const out = new Map<string, OwnerState>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    const rows = connectionOf(store)
      .prepare(`SELECT id, owner, archived FROM memories WHERE id IN (${chunk.map(() => '?').join(',')})`)
      .all(...chunk) as { id: string; owner: string; archived: number }[];
    for (const r of rows) out.set(r.id, { owner: r.owner, archived: r.archived !== 0 });
  }
  return out;
}
