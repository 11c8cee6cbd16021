import { linkManyMemories, linkMemories, unlinkMemories } from '../../engine/memory-ops.js';
import type { edgeContract } from '../contract/edge.js';
import type { HandlersFor } from './types.js';

export const edgeHandlers: HandlersFor<typeof edgeContract> = {
  'edge.add': (input, session) => {
    const r = linkMemories(session.engine(), input.src, input.dst, input.type, input.weight);
    return { changed: r.changed, change_id: r.changeId };
  },
  'edge.addMany': (input, session) => {
    const r = linkManyMemories(session.engine(), input.srcs, input.dst, input.type, input.weight);
    return { changed: r.changed, change_id: r.changeId };
  },
  'edge.remove': (input, session) => {
    const r = unlinkMemories(session.engine(), input.src, input.dst, input.type);
    return { changed: r.changed, change_id: r.changeId };
  },
};
