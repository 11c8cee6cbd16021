/**
 * Retention, protection, prune decision and prune ETA for every memory in scope (archived rows
 * included on request, as nooa's fixture lists them), filtered, sorted and paged.
 */
import type { EngineReader } from '../engine/engine.js';
import { memoryHead } from '../model/memory.js';
import type { OwnerScope } from '../model/owner.js';
import { DEFAULT_FORGET_POLICY, isProtected, pruneDecision, pruneEta, type ForgetPolicy } from './policy.js';
import type { RetentionRow } from './types.js';
import type { UsageRecord } from '../store/port/port.js';

export interface RetentionQuery {
  owner?: OwnerScope;
  includeArchived?: boolean;
  only?: 'all' | 'should_prune' | 'protected' | 'unprotected';
  sort?: 'id' | 'retention' | 'prune_eta' | 'rowid';
  offset?: number;
  limit?: number;
  policy?: ForgetPolicy;
}

export function retentionRow(m: UsageRecord, now: number, policy: ForgetPolicy = DEFAULT_FORGET_POLICY): RetentionRow {
  const d = pruneDecision(m, now, policy);
  return {
    id: m.id,
    retention: d.retention,
    protected: isProtected(m, policy),
    should_prune: d.prune,
    prune_eta: pruneEta(m, policy),
    type: m.type,
    owner: m.owner,
    head: memoryHead(m),
    strength: m.strength,
    last_accessed_at: m.last_accessed_at,
    created_at: m.created_at,
    archived: m.archived,
    reason: d.reason,
  };
}

export function retentionList(engine: EngineReader, now: number, q: RetentionQuery = {}): { total: number; rows: RetentionRow[] } {
  const policy = q.policy ?? DEFAULT_FORGET_POLICY;
  let rows: RetentionRow[] = [];
  for (const m of engine.store.queries.iterUsageRecords({ owner: q.owner ?? null, includeArchived: q.includeArchived ?? false })) {
    const row = retentionRow(m, now, policy);
    const only = q.only ?? 'all';
    if (only === 'should_prune' && !row.should_prune) continue;
    if (only === 'protected' && !row.protected) continue;
    if (only === 'unprotected' && row.protected) continue;
    rows.push(row);
  }
  const sort = q.sort ?? 'id';
  if (sort === 'id') rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  else if (sort === 'retention') rows.sort((a, b) => a.retention - b.retention);
  else if (sort === 'prune_eta') rows.sort((a, b) => (a.prune_eta ?? Infinity) - (b.prune_eta ?? Infinity));
  const total = rows.length;
  const offset = q.offset ?? 0;
  rows = rows.slice(offset, offset + (q.limit ?? total));
  return { total, rows };
}
