import { badInput } from '../../core/errors.js';
import { requirePositional, str, type Command } from '../command.js';
import { openSession } from '../session.js';
import { call } from '../../core/api/service.js';

export const initCommand: Command = {
  name: 'init',
  summary: 'create a new store, or turn an existing file into one (the only command that converts a file that is not a store)',
  usage: 'mnemo init <db> [--profile mnemo|nooa-0.0.9] [--json]',
  options: { profile: { type: 'string' } },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const profile = str(ctx, 'profile');
    if (profile !== undefined && profile !== 'mnemo' && profile !== 'nooa-0.0.9') {
      throw badInput(`--profile must be "mnemo" or "nooa-0.0.9", got ${JSON.stringify(profile)}`, { field: 'profile' });
    }
    // The user asked for this file to become a store: the one open that may convert a non-store file.
    const session = openSession(ctx, db, { create: true, convert: true });
    try {
      const engine = session.engine();
      engine.store.ensureMnemo();
      if (profile) engine.store.setMeta('profile', profile);
      const info = await call(session, 'store.info', {});
      if (ctx.json) ctx.io.out(JSON.stringify(info));
      else ctx.io.out(`store ready: ${info.path} (profile ${info.profile}, ${info.counts.memories} memories)`);
    } finally {
      session.close();
    }
  },
};
