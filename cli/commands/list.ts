import { call } from '../../core/api/service.js';
import { flag, instantOpt, intOpt, requirePositional, str, strs, type Command } from '../command.js';
import { table } from '../format.js';
import { openSession } from '../session.js';
import { REPLICA_OPTION } from '../replica-option.js';

export const listCommand: Command = {
  name: 'list',
  summary: 'list memories with filters',
  usage:
    'mnemo list <db> [--type T]... [--owner SCOPE] [--status S]... [--archived live|archived|all] [--text Q] [--tag T]... [--sort FIELD] [--desc] [--limit N] [--offset N] [--at T] [--replica URL]... [--json]',
  options: {
    type: { type: 'string', multiple: true },
    owner: { type: 'string' },
    status: { type: 'string', multiple: true },
    archived: { type: 'string' },
    text: { type: 'string' },
    tag: { type: 'string', multiple: true },
    sort: { type: 'string' },
    desc: { type: 'boolean' },
    limit: { type: 'string' },
    offset: { type: 'string' },
    at: { type: 'string' },
    ...REPLICA_OPTION,
  },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const session = openSession(ctx, db, { readonly: true });
    try {
      const input: Record<string, unknown> = {
        limit: intOpt(ctx, 'limit', 200, [1, 5000]),
        offset: intOpt(ctx, 'offset', 0, [0, Number.MAX_SAFE_INTEGER]),
        dir: flag(ctx, 'desc') ? 'desc' : 'asc',
      };
      if (strs(ctx, 'type').length) input['types'] = strs(ctx, 'type');
      if (strs(ctx, 'status').length) input['statuses'] = strs(ctx, 'status');
      if (strs(ctx, 'tag').length) input['tags'] = strs(ctx, 'tag');
      for (const k of ['owner', 'archived', 'text', 'sort'] as const) if (str(ctx, k) !== undefined) input[k] = str(ctx, k);
      const at = instantOpt(ctx, 'at');
      if (at !== undefined) input['at'] = at;
      const res = await call(session, 'memory.list', input);
      if (ctx.json) {
        ctx.io.out(JSON.stringify(res));
        return;
      }
      ctx.io.out(
        table(
          res.rows.map((r) => ({ id: r.id.slice(0, 12), type: r.type, owner: r.owner, imp: r.importance, str: r.strength, status: r.status ?? '', head: r.head })),
          ['id', 'type', 'owner', 'imp', 'str', 'status', 'head'],
        ),
      );
      ctx.io.out(`${res.rows.length} of ${res.total}`);
    } finally {
      session.close();
    }
  },
};
