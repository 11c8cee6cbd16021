import { parseOwnerScope, roleOf } from '../../model/owner.js';
import { notFound } from '../../errors.js';
import { storeKpis } from '../../observe/kpis.js';
import { rowsVsReads } from '../../observe/rows-vs-reads.js';
import { perMemoryUsage } from '../../observe/usage.js';
import type { statsContract } from '../contract/stats.js';
import type { HandlersFor } from './types.js';
import type { StatsColumn } from '../../store/port/port.js';

export const statsHandlers: HandlersFor<typeof statsContract> = {
  'stats.basic': (input, session) => {
    const store = session.reading().store;
    const scope = parseOwnerScope(input.owner);
    const group = (col: StatsColumn) => Object.fromEntries(store.queries.countsByColumn(col, scope).map((r) => [r.k ?? '(none)', r.n]));
    const byOwnerExact = group('owner');
    const byOwner: Record<string, number> = {};
    for (const [o, n] of Object.entries(byOwnerExact)) {
      const k = o === '' ? '(unowned)' : roleOf(o);
      byOwner[k] = (byOwner[k] ?? 0) + n;
    }
    const total = Object.values(group('type')).reduce((a, b) => a + b, 0);
    const archived = store.queries.archivedCount(scope);
    const edgesByType = Object.fromEntries(store.queries.edgeCountsByType().map((r) => [r.k, r.n]));
    return {
      total,
      live: total - archived,
      archived,
      by_type: group('type'),
      by_owner: byOwner,
      by_status: group('status'),
      edges: Object.values(edgesByType).reduce((a, b) => a + b, 0),
      edges_by_type: edgesByType,
      access_events: store.accessEventCount(),
    };
  },
  'stats.kpis': (input, session) => {
    const engine = session.reading();
    return storeKpis(engine, parseOwnerScope(input.owner), engine.now());
  },
  'stats.usage': (input, session) => {
    const engine = session.reading();
    const ids = input.ids.map((i) => engine.store.requireId(i));
    const records = engine.store.queries.usageRecords(ids);
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
