import { retentionCurve } from '../../forget/curve.js';
import { prune } from '../../forget/prune.js';
import { retentionList } from '../../forget/retention-list.js';
import { parseOwnerScope } from '../../model/owner.js';
import type { retentionContract } from '../contract/retention.js';
import type { HandlersFor } from './types.js';

export const retentionHandlers: HandlersFor<typeof retentionContract> = {
  'retention.list': (input, session) => {
    const engine = session.reading();
    return retentionList(engine, engine.now(), {
      owner: parseOwnerScope(input.owner),
      includeArchived: input.include_archived,
      only: input.only,
      sort: input.sort,
      offset: input.offset,
      limit: input.limit,
    });
  },
  'retention.curve': (input, session) => retentionCurve(session.readingAt(input.at), input.id, { ...(input.until !== undefined ? { until: input.until } : {}), samples: input.samples }),
  'retention.prune': (input, session) => {
    const engine = session.engine();
    const owner = parseOwnerScope(input.owner);
    const now = engine.now();
    const out = prune(engine, { now, owner, dryRun: !input.apply, ...(input.action ? { action: input.action } : {}) });
    return { applied: input.apply, action: out.action, scope: owner, now, candidates: out.candidates, pruned: out.pruned, stopped: out.stopped, change_id: out.changeId };
  },
};
