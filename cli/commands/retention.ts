/** `mnemo retention` (the forgetting figures per memory) and `mnemo prune` (dry run or apply). */
import { call } from '../../core/api/service.js';
import { badInput } from '../../core/errors.js';
import { flag, requirePositional, str, type Command } from '../command.js';
import { isoTime, table } from '../format.js';
import { openSession } from '../session.js';

export const retentionCommand: Command = {
  name: 'retention',
  summary: 'retention, protection, prune decision and prune ETA of every memory (archived included)',
  usage: 'mnemo retention <db> [--owner SCOPE] [--live] [--only should_prune|protected|unprotected] [--now T] [--json]',
  timed: true,
  options: { owner: { type: 'string' }, live: { type: 'boolean' }, only: { type: 'string' } },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const session = openSession(ctx, db, { readonly: true });
    try {
      const input: Record<string, unknown> = { include_archived: !flag(ctx, 'live'), sort: 'id', limit: 1_000_000 };
      if (str(ctx, 'owner') !== undefined) input['owner'] = str(ctx, 'owner');
      if (str(ctx, 'only') !== undefined) input['only'] = str(ctx, 'only');
      const res = await call(session, 'retention.list', input);
      if (ctx.json) {
        ctx.io.out(JSON.stringify(res.rows.map((r) => ({ id: r.id, retention: r.retention, protected: r.protected, should_prune: r.should_prune, prune_eta: r.prune_eta }))));
        return;
      }
      ctx.io.out(
        table(
          res.rows.map((r) => ({ id: r.id.slice(0, 8), type: r.type, retention: r.retention, protected: r.protected ? 'yes' : '', prune: r.should_prune ? 'PRUNE' : '', eta: r.prune_eta === null ? '' : isoTime(r.prune_eta), head: r.head })),
          ['id', 'type', 'retention', 'protected', 'prune', 'eta', 'head'],
        ),
      );
    } finally {
      session.close();
    }
  },
};

export const pruneCommand: Command = {
  name: 'prune',
  summary: 'archive (or delete) what the forgetting policy says should go; --dry-run lists it',
  usage: 'mnemo prune <db> --dry-run|--apply [--delete] [--owner SCOPE] [--now T] [--json]',
  timed: true,
  options: { 'dry-run': { type: 'boolean' }, apply: { type: 'boolean' }, delete: { type: 'boolean' }, owner: { type: 'string' } },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const dry = flag(ctx, 'dry-run');
    const apply = flag(ctx, 'apply');
    if (dry === apply) throw badInput(`give exactly one of --dry-run or --apply\nusage: ${this.usage}`);
    const session = openSession(ctx, db, { readonly: dry });
    try {
      const input: Record<string, unknown> = { apply };
      if (flag(ctx, 'delete')) input['action'] = 'delete';
      if (str(ctx, 'owner') !== undefined) input['owner'] = str(ctx, 'owner');
      const res = await call(session, 'retention.prune', input);
      if (ctx.json) {
        ctx.io.out(JSON.stringify(res));
        return;
      }
      ctx.io.out(table(res.candidates.map((c) => ({ id: c.id.slice(0, 8), type: c.type, owner: c.owner, retention: c.retention, head: c.head })), ['id', 'type', 'owner', 'retention', 'head']));
      ctx.io.out(
        apply
          ? `${res.action === 'delete' ? 'deleted' : 'archived'} ${res.pruned.length} memor${res.pruned.length === 1 ? 'y' : 'ies'}${res.change_id ? ` (change ${res.change_id}; undo restores them)` : ''}`
          : `${res.candidates.length} memor${res.candidates.length === 1 ? 'y' : 'ies'} would be ${res.action === 'delete' ? 'deleted' : 'archived'} (dry run: nothing written)`,
      );
    } finally {
      session.close();
    }
  },
};
