import { tagMemories } from '../../engine/tag-ops.js';
import { memoryFacets } from '../../store/facets.js';
import type { tagsContract } from '../contract/tags.js';
import type { HandlersFor } from './types.js';

export const tagsHandlers: HandlersFor<typeof tagsContract> = {
  'memory.tag': async (input, session) => {
    const r = await tagMemories(session.engine(), input.ids, input.add, input.remove);
    return { changed: r.changed, change_id: r.changeId };
  },
  'memory.facets': (input, session) => memoryFacets(session.engine().store.db, input.archived, input.tag_limit),
};
