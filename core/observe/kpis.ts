/**
 * nooa's `store_kpis` over the live memories of an owner scope: size by type and role, how much
 * of the store is ever fetched and how concentrated fetches are, injection efficacy, todos,
 * cross-owner reads, and the last maintenance rows.
 */
import type { EngineReader } from '../engine/engine.js';
import { isCrossOwner, roleOf, type OwnerScope } from '../model/owner.js';
import { pyRound } from '../model/py-round.js';
import type { StoreKpis } from './types.js';
import { fetchesOf, injectionFollowedByUse } from './usage.js';
import { iterUsageRecords } from '../store/queries/usage.js';
import { maintenanceHistory } from '../store/queries/maintenance-log.js';

const WEEK_HOURS = 168;

export function storeKpis(engine: EngineReader, owner: OwnerScope, now: number): StoreKpis {
  const maintenance = maintenanceHistory(engine.store, 5);
  const byType: Record<string, number> = {};
  const byOwner: Record<string, number> = {};
  const fetches: number[] = [];
  let total = 0;
  let withRefs = 0;
  let old = 0;
  let oldNever = 0;
  let dedup = 0;
  let injectedMemories = 0;
  let verifiable = 0;
  let used = 0;
  let todosOpen = 0;
  let todosClosed = 0;
  const openAges: number[] = [];
  let crossOwner = 0;
  for (const m of iterUsageRecords(engine.store, { owner })) {
    total++;
    byType[m.type] = (byType[m.type] ?? 0) + 1;
    const role = m.owner === '' ? '(unowned)' : roleOf(m.owner);
    byOwner[role] = (byOwner[role] ?? 0) + 1;
    if (m.references_count > 0) withRefs++;
    const f = fetchesOf(m);
    fetches.push(f);
    if ((now - m.created_at) / 3600 > WEEK_HOURS) {
      old++;
      if (f === 0) oldNever++;
    }
    dedup += m.reinforced_count;
    if (m.injected_count > 0) injectedMemories++;
    const injUse = injectionFollowedByUse(m.access_log);
    if (injUse !== null) {
      verifiable++;
      if (injUse) used++;
    }
    if (m.type === 'todo') {
      if (m.status === 'open') {
        todosOpen++;
        openAges.push((now - m.created_at) / 3600);
      } else if (m.status === 'done' || m.status === 'dropped') todosClosed++;
    }
    for (const e of m.access_log) if (isCrossOwner(e.reader_owner, m.owner)) crossOwner++;
  }
  if (total === 0) return { total: 0, maintenance };
  const allFetches = fetches.reduce((a, b) => a + b, 0);
  const topN = Math.ceil(total * 0.1);
  const topFetches = [...fetches].sort((a, b) => b - a).slice(0, topN).reduce((a, b) => a + b, 0);
  return {
    total,
    by_type: byType,
    by_owner: byOwner,
    with_references: withRefs,
    never_fetched_pct: old ? pyRound((100 * oldNever) / old, 1) : 0.0,
    fetch_concentration_top10pct: allFetches ? pyRound(topFetches / allFetches, 3) : 0.0,
    total_fetches: allFetches,
    dedup_reinforces: dedup,
    injected_memories: injectedMemories,
    injected_used_rate: verifiable ? pyRound(used / verifiable, 3) : 0.0,
    todos_open: todosOpen,
    todos_closed: todosClosed,
    todo_median_open_age_hours: openAges.length ? pyRound(median(openAges), 1) : null,
    cross_owner_reads: crossOwner,
    maintenance,
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
