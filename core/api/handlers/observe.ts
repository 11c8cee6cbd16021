import { notFound } from '../../errors.js';
import { parseOwnerScope } from '../../model/owner.js';
import { storeKpis } from '../../observe/kpis.js';
import { rowsVsReads } from '../../observe/rows-vs-reads.js';
import { perMemoryUsage } from '../../observe/usage.js';
import { usageRecords } from '../../store/usage-rows.js';
import type { observeContract } from '../contract/observe.js';
import type { HandlersFor } from './types.js';

export const observeHandlers: HandlersFor<typeof observeContract> = {
  'stats.kpis': (input, session) => {
    const engine = session.engine();
    return storeKpis(engine, parseOwnerScope(input.owner), engine.now());
  },
  'stats.usage': (input, session) => {
    const engine = session.engine();
    const ids = input.ids.map((i) => engine.store.requireId(i));
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
  'stats.rowsVsReads': (input, session) => rowsVsReads(session.engine(), parseOwnerScope(input.owner), input.include_archived),
};
