/**
 * A light reader of what usage and KPI figures need from each memory (counters, ring, guards),
 * without the full record decoder: a KPI pass over 100k memories parses each `data` once with
 * JSON.parse and nothing more. Defaults follow the lenient stored-record schema; promoted
 * columns (`owner`, `status`, `archived`) override the JSON as everywhere else.
 */
import { connectionOf } from './connection.js';
import type { AccessChannel } from '../../model/enums.js';
import type { AccessRecord, Memory } from '../../model/memory.js';
import type { OwnerScope } from '../../model/owner.js';
import { ownerClause } from '../shared/owner-sql.js';
import type { RowSource } from '../shared/store-handle.js';

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

/** The columns a usage record is read from (USAGE_COLUMNS), as either adapter returns them. */
export interface UsageRow {
  id: string;
  owner: string;
  status: string | null;
  archived: number;
  content: string;
  created_at: number;
  last_accessed: number;
  importance: number;
  strength: number;
  type: string;
  data: string;
}

export const USAGE_COLUMNS = 'id, owner, status, archived, content, created_at, last_accessed, importance, strength, type, data';

export function* iterUsageRecords(store: RowSource, scope: { owner?: OwnerScope; includeArchived?: boolean } = {}): Generator<UsageRecord> {
  const oc = ownerClause(scope.owner ?? null);
  const where = [scope.includeArchived ? '1' : 'archived = 0', oc.sql].join(' AND ');
  const rows = connectionOf(store).prepare(`SELECT ${USAGE_COLUMNS} FROM memories WHERE ${where} ORDER BY rowid`).iterate(...oc.params) as Iterable<UsageRow>;
  for (const row of rows) yield toUsage(row);
}

export function usageRecords(store: RowSource, ids: readonly string[]): Map<string, UsageRecord> {
  const out = new Map<string, UsageRecord>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    const rows = connectionOf(store).prepare(`SELECT ${USAGE_COLUMNS} FROM memories WHERE id IN (${chunk.map(() => '?').join(',')})`).all(...chunk) as UsageRow[];
    for (const r of rows) out.set(r.id, toUsage(r));
  }
  return out;
}

/** One row as a usage record (no full decode: `data` parsed once). */
export function toUsage(row: UsageRow): UsageRecord {
  let d: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(row.data) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) d = parsed as Record<string, unknown>;
  } catch {
    d = {};
  }
  const num = (k: string, fallback: number) => (typeof d[k] === 'number' ? (d[k] as number) : fallback);
  const created = num('created_at', row.created_at);
  return {
    id: row.id,
    type: (typeof d['type'] === 'string' ? d['type'] : row.type) as Memory['type'],
    status: (row.status ?? null) as Memory['status'],
    owner: row.owner ?? '',
    importance: num('importance', row.importance),
    strength: num('strength', row.strength),
    reinforcement_count: num('reinforcement_count', 0),
    created_at: created,
    last_accessed_at: num('last_accessed_at', typeof d['created_at'] === 'number' ? created : row.last_accessed),
    access_log: ring(d['access_log']),
    recalled_count: num('recalled_count', 0),
    searched_count: num('searched_count', 0),
    injected_count: num('injected_count', 0),
    reinforced_count: num('reinforced_count', 0),
    deref_count: num('deref_count', 0),
    archived: row.archived !== 0,
    references_count: Array.isArray(d['references']) ? d['references'].length : 0,
    title: typeof d['title'] === 'string' ? d['title'] : null,
    content: row.content,
  };
}

function ring(v: unknown): AccessRecord[] {
  if (!Array.isArray(v)) return [];
  const out: AccessRecord[] = [];
  for (const e of v) {
    if (typeof e === 'number') {
      out.push(entry({ ts: e, channel: 'created' }));
      continue;
    }
    if (!e || typeof e !== 'object') continue;
    const o = e as Record<string, unknown>;
    if (typeof o['ts'] !== 'number') continue;
    out.push(entry(o));
  }
  return out;
}

function entry(o: Record<string, unknown>): AccessRecord {
  const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : null);
  return {
    ts: o['ts'] as number,
    channel: (str('channel') ?? 'recalled') as AccessChannel,
    reader_owner: str('reader_owner') ?? '',
    session_ref: str('session_ref'),
    trace_ref: str('trace_ref'),
    query: str('query'),
    score: typeof o['score'] === 'number' ? (o['score'] as number) : null,
    rank: typeof o['rank'] === 'number' ? (o['rank'] as number) : null,
    components: o['components'] && typeof o['components'] === 'object' ? (o['components'] as AccessRecord['components']) : null,
  };
}
