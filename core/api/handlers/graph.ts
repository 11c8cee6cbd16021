import { memoryHead } from '../../model/memory.js';
import { parseOwnerScope } from '../../model/owner.js';
import type { graphContract } from '../contract/graph.js';
import type { HandlersFor } from './types.js';
import { requireMemoryId } from '../../store/queries/memory-lookups.js';

export const graphHandlers: HandlersFor<typeof graphContract> = {
  'graph.view': (input, session) => {
    const store = session.readingAt(input.at).store;
    const focus = input.focus === undefined ? null : requireMemoryId(store, input.focus);
    const r = store.queries.graphView({
      focus,
      hops: input.hops,
      owner: parseOwnerScope(input.owner),
      edgeTypes: input.edge_types ?? [],
      types: input.types ?? [],
      includeArchived: input.include_archived,
      limit: input.limit,
    });
    return {
      focus,
      nodes: r.nodes.map((n) => ({
        id: n.id,
        type: n.type,
        owner: n.owner,
        importance: n.importance,
        strength: n.strength,
        archived: n.archived !== 0,
        head: memoryHead({ title: n.title, content: n.content }),
        depth: n.depth,
      })),
      edges: r.edges,
      reachable: r.reachable,
      truncated: r.truncated,
    };
  },
};
