/** `mnemo graph <db>`: the typed edge graph (a memory's neighbourhood, or the most important memories), now or as of an instant. */
import { call } from '../../core/api/service.js';
import { flag, instantOpt, intOpt, requirePositional, str, strs, type Command } from '../command.js';
import { table } from '../format.js';
import { openSession } from '../session.js';
import { REPLICA_OPTION } from '../replica-option.js';

export const graphCommand: Command = {
  name: 'graph',
  summary: "the typed edge graph: a memory's neighbourhood, or the most important memories and the edges among them",
  usage: 'mnemo graph <db> [--focus ID] [--hops N] [--owner SCOPE] [--edge-type T]... [--type T]... [--include-archived] [--limit N] [--at T] [--replica URL]... [--json]',
  options: {
    focus: { type: 'string' },
    hops: { type: 'string' },
    owner: { type: 'string' },
    'edge-type': { type: 'string', multiple: true },
    type: { type: 'string', multiple: true },
    'include-archived': { type: 'boolean' },
    limit: { type: 'string' },
    at: { type: 'string' },
    ...REPLICA_OPTION,
  },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const input: Record<string, unknown> = { hops: intOpt(ctx, 'hops', 2, [0, 12]), limit: intOpt(ctx, 'limit', 2000, [1, 20_000]), include_archived: flag(ctx, 'include-archived') };
    if (str(ctx, 'focus') !== undefined) input['focus'] = str(ctx, 'focus');
    if (str(ctx, 'owner') !== undefined) input['owner'] = str(ctx, 'owner');
    if (strs(ctx, 'edge-type').length) input['edge_types'] = strs(ctx, 'edge-type');
    if (strs(ctx, 'type').length) input['types'] = strs(ctx, 'type');
    const at = instantOpt(ctx, 'at');
    if (at !== undefined) input['at'] = at;
    const session = openSession(ctx, db, { readonly: true });
    try {
      const g = await call(session, 'graph.view', input);
      if (ctx.json) {
        ctx.io.out(JSON.stringify(g));
        return;
      }
      const heads = new Map(g.nodes.map((n) => [n.id, n.head]));
      ctx.io.out(
        table(
          g.nodes.map((n) => ({ id: n.id.slice(0, 12), depth: n.depth ?? '', type: n.type, owner: n.owner, imp: n.importance, archived: n.archived ? 'yes' : '', head: n.head })),
          ['id', 'depth', 'type', 'owner', 'imp', 'archived', 'head'],
        ),
      );
      ctx.io.out(table(g.edges.map((e) => ({ from: heads.get(e.src) ?? e.src, type: e.type, weight: e.weight, to: heads.get(e.dst) ?? e.dst })), ['from', 'type', 'weight', 'to']));
      const nodes = `${g.nodes.length} node${g.nodes.length === 1 ? '' : 's'}`;
      const edges = `${g.edges.length} edge${g.edges.length === 1 ? '' : 's'}`;
      ctx.io.out(g.truncated ? `${nodes} of ${g.reachable} reachable (raise --limit for more), ${edges}` : `${nodes}, ${edges}`);
    } finally {
      session.close();
    }
  },
};
