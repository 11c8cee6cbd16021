import { parseOwnerScope, roleOf } from '../../model/owner.js';
import { notFound } from '../../errors.js';
import { storeKpis } from '../../observe/kpis.js';
import { rowsVsReads } from '../../observe/rows-vs-reads.js';
import { perMemoryUsage } from '../../observe/usage.js';
import type { statsContract } from '../contract/stats.js';
import type { HandlersFor } from './types.js';
import type { StatsColumn } from '../../store/port/port.js';
import { archivedCount, countsByColumn, edgeCountsByType } from '../../store/queries/counts.js';
import { usageRecords } from '../../store/queries/usage.js';
import { accessEventCount } from '../../store/queries/access-log.js';
import { requireMemoryId } from '../../store/queries/memory-lookups.js';

export const statsHandlers: HandlersFor<typeof statsContract> = {
  'stats.basic': (input, session) => {
    const store = session.reading().store;
    const scope = parseOwnerScope(input.owner);
    const group = (col: StatsColumn) => Object.fromEntries(countsByColumn(store, col, scope).map((r) => [r.k ?? '(none)', r.n]));
    const byOwnerExact = group('owner');
    const byOwner: Record<string, number> = {};
    for (const [o, n] of Object.entries(byOwnerExact)) {
      const k = o === '' ? '(unowned)' : roleOf(o);
      byOwner[k] = (byOwner[k] ?? 0) + n;
    }
    const total = Object.values(group('type')).reduce((a, b) => a + b, 0);
    const archived = archivedCount(store, scope);
    const edgesByType = Object.fromEntries(edgeCountsByType(store).map((r) => [r.k, r.n]));
    return {
      total,
      live: total - archived,
      archived,
      by_type: group('type'),
      by_owner: byOwner,
      by_status: group('status'),
      edges: Object.values(edgesByType).reduce((a, b) => a + b, 0),
      edges_by_type: edgesByType,
      access_events: accessEventCount(store),
    };
  },
  'stats.kpis': (input, session) => {
    const engine = session.reading();
    return storeKpis(engine, parseOwnerScope(input.owner), engine.now());
  },
  'stats.usage': (input, session) => {
    const engine = session.reading();
    const ids = input.ids.map((i) => requireMemoryId(engine.store, i));
    const records = usageRecords(engine.store, ids);
    const now = engine.now();
    return {
      rows: ids.map((id) => {
        const rec = records.get(id);
        if (!rec) throw notFound(`no memory with id ${id}`, { id });
        return perMemoryUsage(rec, now);
      }),
    };
  },
  'stats.rowsVsReads': (input, session) => rowsVsReads(session.reading(), parseOwnerScope(input.owner), input.include_archived),
};
