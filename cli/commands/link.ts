import { call } from '../../core/api/service.js';
import { flag, numOpt, requirePositional, str, type Command } from '../command.js';
import { openSession } from '../session.js';

export const linkCommand: Command = {
  name: 'link',
  summary: 'add (or with --remove, remove) a typed edge src → dst',
  usage: 'mnemo link <db> <src> <dst> [--type related] [--weight 1.0] [--remove] [--now T] [--json]',
  timed: true,
  options: { type: { type: 'string' }, weight: { type: 'string' }, remove: { type: 'boolean' } },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const src = requirePositional(ctx, 1, 'src', this.usage);
    const dst = requirePositional(ctx, 2, 'dst', this.usage);
    const type = str(ctx, 'type') ?? 'related';
    const session = openSession(ctx, db);
    try {
      const res = flag(ctx, 'remove')
        ? await call(session, 'edge.remove', { src, dst, type })
        : await call(session, 'edge.add', { src, dst, type, weight: numOpt(ctx, 'weight') ?? 1 });
      ctx.io.out(ctx.json ? JSON.stringify(res) : res.changed ? `${flag(ctx, 'remove') ? 'removed' : 'linked'} (change #${res.change_id})` : 'unchanged');
    } finally {
      session.close();
    }
  },
};
