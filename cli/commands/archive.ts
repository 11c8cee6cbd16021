import { badInput } from '../../core/errors.js';
import { call } from '../../core/api/service.js';
import { flag, requirePositional, type Command } from '../command.js';
import { openSession } from '../session.js';

export const archiveCommand: Command = {
  name: 'archive',
  summary: 'archive memories (or with --restore, bring them back)',
  usage: 'mnemo archive <db> <id>... [--restore] [--now T] [--json]',
  timed: true,
  options: { restore: { type: 'boolean' } },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const ids = ctx.positionals.slice(1);
    if (ids.length === 0) throw badInput(`give at least one id\nusage: ${this.usage}`);
    const session = openSession(ctx, db);
    try {
      const res = await call(session, flag(ctx, 'restore') ? 'memory.restore' : 'memory.archive', { ids });
      ctx.io.out(ctx.json ? JSON.stringify(res) : `${flag(ctx, 'restore') ? 'restored' : 'archived'} ${res.changed.length} (change #${res.change_id ?? '-'})`);
    } finally {
      session.close();
    }
  },
};
