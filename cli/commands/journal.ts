import { call } from '../../core/api/service.js';
import { badInput } from '../../core/errors.js';
import { flag, intOpt, requirePositional, type Command, type CommandContext } from '../command.js';
import { isoTime, table } from '../format.js';
import { openSession } from '../session.js';
import { asLongWrite, CANCELLED_EXIT, cancelledJob } from '../long-write.js';

function changeId(ctx: CommandContext, raw: string | undefined, usage: string): number {
  const n = Number(raw);
  if (raw === undefined || !Number.isInteger(n) || n < 1) throw badInput(`<change_id> must be a positive integer (see "mnemo history"), got ${JSON.stringify(raw)}\nusage: ${usage}`);
  return n;
}

export const historyCommand: Command = {
  name: 'history',
  summary: 'list the change journal, newest first (id, time, label, counts, state)',
  usage: 'mnemo history <db> [--limit N] [--json]',
  options: { limit: { type: 'string' } },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const session = openSession(ctx, db, { readonly: true });
    try {
      const rows = await call(session, 'journal.history', { limit: intOpt(ctx, 'limit', 50, [1, 10_000]) });
      if (ctx.json) ctx.io.out(JSON.stringify(rows));
      else
        ctx.io.out(
          table(
            rows.map((r) => ({
              id: r.id,
              time: isoTime(r.ts),
              label: r.label,
              kind: r.kind,
              counts: Object.entries(r.counts)
                .map(([k, v]) => `${k.replace('memories_', '')} ${v}`)
                .join(', '),
              state: r.state,
            })),
            ['id', 'time', 'label', 'kind', 'counts', 'state'],
          ),
        );
    } finally {
      session.close();
    }
  },
};

export const undoCommand: Command = {
  name: 'undo',
  summary: 'undo one change (refuses while a later change touched the same rows; --with-dependents undoes those first, in the same step)',
  usage: 'mnemo undo <db> <change_id> [--with-dependents] [--now T] [--json]',
  timed: true,
  options: { 'with-dependents': { type: 'boolean' } },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const id = changeId(ctx, ctx.positionals[1], this.usage);
    const session = openSession(ctx, db);
    try {
      const res = await asLongWrite(session, `undo of change #${id}`, ctx.io.err, () => call(session, 'journal.undo', { change_id: id, with_dependents: flag(ctx, 'with-dependents') }));
      const also = (res.dependents_undone ?? []).map((c) => `\nundid change #${c.id} (${c.label}), which depended on it`).join('');
      ctx.io.out(ctx.json ? JSON.stringify(res) : `undid change #${res.id} (${res.label})${also}`);
    } catch (err) {
      if (!cancelledJob(err)) throw err;
      ctx.io.err(`mnemo undo: ${(err as Error).message}`);
      return CANCELLED_EXIT;
    } finally {
      session.close();
    }
  },
};

export const redoCommand: Command = {
  name: 'redo',
  summary: 'redo a change (the most recently undone one by default)',
  usage: 'mnemo redo <db> [change_id] [--now T] [--json]',
  timed: true,
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const raw = ctx.positionals[1];
    const session = openSession(ctx, db);
    try {
      const input = raw === undefined ? {} : { change_id: changeId(ctx, raw, this.usage) };
      const res = await asLongWrite(session, raw === undefined ? 'redo' : `redo of change #${raw}`, ctx.io.err, () => call(session, 'journal.redo', input));
      ctx.io.out(ctx.json ? JSON.stringify(res) : `redid change #${res.id} (${res.label})`);
    } catch (err) {
      if (!cancelledJob(err)) throw err;
      ctx.io.err(`mnemo redo: ${(err as Error).message}`);
      return CANCELLED_EXIT;
    } finally {
      session.close();
    }
  },
};
