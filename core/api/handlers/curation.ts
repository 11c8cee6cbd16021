import { findDuplicates } from '../../engine/duplicates.js';
import { parseOwnerScope } from '../../model/owner.js';
import { MAX_SELECT_IDS, type curationContract } from '../contract/curation.js';
import { DEFAULT_FORGET_POLICY } from '../../forget/policy.js';
import { listIds } from '../../store/list-ids.js';
import { textFilter } from './memory.js';
import type { HandlersFor } from './types.js';

export const curationHandlers: HandlersFor<typeof curationContract> = {
  'memory.ids': (input, session) => {
    const engine = session.engine();
    // The same filter as memory.list (text through its index), so the ids are exactly the rows listed.
    const filter = textFilter(engine, input);
    return listIds(engine.store.db, { ...filter, now: engine.now(), half_life_hours: DEFAULT_FORGET_POLICY.decay_half_life_hours }, MAX_SELECT_IDS);
  },
  'curation.duplicates': (input, session) =>
    findDuplicates(session.engine(), { scope: parseOwnerScope(input.owner), same_owner: input.same_owner, dismissed: input.dismissed, offset: input.offset, limit: input.limit }),
};
