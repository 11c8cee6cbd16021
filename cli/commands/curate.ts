import { call } from '../../core/api/service.js';
import { badInput } from '../../core/errors.js';
import { requirePositional, str, type Command } from '../command.js';
import { openSession } from '../session.js';

export const mergeCommand: Command = {
  name: 'merge',
  summary: 'merge memories into a chosen survivor (sources archived, lineage kept; undoable)',
  usage: 'mnemo merge <db> <id>... --survivor ID [--title T] [--content C] [--allow-cross-owner] [--now T] [--json]',
  timed: true,
  options: { survivor: { type: 'string' }, title: { type: 'string' }, content: { type: 'string' }, 'allow-cross-owner': { type: 'boolean' } },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const ids = ctx.positionals.slice(1);
    const survivor = str(ctx, 'survivor');
    if (!survivor) throw badInput(`--survivor ID is required\nusage: ${this.usage}`);
    if (ids.length === 0) throw badInput(`give the ids to merge\nusage: ${this.usage}`);
    const patch: Record<string, string> = {};
    if (str(ctx, 'title') !== undefined) patch['title'] = str(ctx, 'title')!;
    if (str(ctx, 'content') !== undefined) patch['content'] = str(ctx, 'content')!;
    const session = openSession(ctx, db);
    try {
      const allowCrossOwner = ctx.values['allow-cross-owner'] === true;
      const res = await call(session, 'memory.merge', { ids, survivor, allow_cross_owner: allowCrossOwner, ...(Object.keys(patch).length ? { patch } : {}) });
      ctx.io.out(ctx.json ? JSON.stringify(res) : `merged ${res.archived.length} into ${res.survivor.id} (change #${res.change_id ?? '-'})`);
    } finally {
      session.close();
    }
  },
};

export const forgetCommand: Command = {
  name: 'forget',
  summary: 'forget memories: delete them and tombstone their content (undoable)',
  usage: 'mnemo forget <db> <id>... [--now T] [--json]',
  timed: true,
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const ids = ctx.positionals.slice(1);
    if (ids.length === 0) throw badInput(`give at least one id\nusage: ${this.usage}`);
    const session = openSession(ctx, db);
    try {
      const res = await call(session, 'memory.forget', { ids });
      ctx.io.out(ctx.json ? JSON.stringify(res) : `forgot ${res.forgotten.length} (change #${res.change_id ?? '-'})`);
    } finally {
      session.close();
    }
  },
};
