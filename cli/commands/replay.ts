/** `mnemo replay <db> <event-id>`: re-run a logged recall now and show how each component moved. */
import { call } from '../../core/api/service.js';
import { badInput } from '../../core/errors.js';
import { flag, intOpt, requirePositional, str, type Command } from '../command.js';
import { isoTime, table } from '../format.js';
import { openSession } from '../session.js';
import { REPLICA_OPTION } from '../replica-option.js';

export const replayCommand: Command = {
  name: 'replay',
  summary: 'replay a logged access against the store as it is now, or as it was then (per-component before/after)',
  usage: 'mnemo replay <db> <event-id> [--as-of-then] [--hops H] [--owner SCOPE] [--k N] [--profile P] [--now T] [--replica URL]... [--json]',
  timed: true,
  options: { hops: { type: 'string' }, owner: { type: 'string' }, k: { type: 'string' }, profile: { type: 'string' }, 'as-of-then': { type: 'boolean' }, ...REPLICA_OPTION },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const raw = requirePositional(ctx, 1, 'event-id', this.usage);
    const eventId = Number(raw);
    if (!Number.isInteger(eventId) || eventId < 1) throw badInput(`<event-id> must be a positive integer (an id from mnemo_access_events), got ${JSON.stringify(raw)}`);
    const input: Record<string, unknown> = { event_id: eventId };
    if (str(ctx, 'hops') !== undefined) input['hops'] = intOpt(ctx, 'hops', 1, [0, 4]);
    if (str(ctx, 'k') !== undefined) input['k'] = intOpt(ctx, 'k', 10, [1, 1000]);
    if (str(ctx, 'owner') !== undefined) input['owner'] = str(ctx, 'owner');
    if (str(ctx, 'profile') !== undefined) input['profile'] = str(ctx, 'profile');
    if (flag(ctx, 'as-of-then')) input['as_of_then'] = true;
    const session = openSession(ctx, db, { readonly: true });
    try {
      const r = await call(session, 'access.replay', input);
      if (ctx.json) {
        ctx.io.out(JSON.stringify(r));
        return;
      }
      const e = r.event;
      ctx.io.out(`event ${e.event_id}: ${e.channel} of ${e.memory_id.slice(0, 8)} at ${isoTime(e.ts)} by ${e.reader_owner || '(anonymous)'}: ${JSON.stringify(e.query)}`);
      const where = r.as_of
        ? `re-run as of then (the store at ${isoTime(r.as_of.at)}, ${r.as_of.rolled_back} later change${r.as_of.rolled_back === 1 ? '' : 's'} rolled back; ranked at ${isoTime(r.rerun.now)})`
        : `re-run now (${isoTime(r.rerun.now)})`;
      ctx.io.out(`${where}: hops ${r.rerun.hops}, scope ${r.rerun.owner ?? '*'}, k ${r.rerun.k}, profile ${r.rerun.profile}`);
      for (const a of r.rerun.assumed) ctx.io.out(`  assumed ${a}`);
      // Ranks read 1-based here (#1 is the top); --json keeps nooa's 0-based rank.
      const shown = (rank: number | null) => (rank === null ? null : `#${rank + 1}`);
      const fields = ['score', 'source', 'cos', 'rel', 'rec', 'imp', 'spread'] as const;
      const t = r.terms;
      const termKeys = Object.keys(t.after ?? t.before ?? {}) as (keyof NonNullable<typeof t.after>)[];
      ctx.io.out(
        table(
          [
            { component: 'rank', before: shown(r.before.rank), after: r.after ? shown(r.after.rank) : '(not ranked)', delta: r.delta.rank },
            ...fields.map((f) => ({ component: f, before: r.before[f], after: r.after ? r.after[f] : '(not ranked)', delta: r.delta[f] })),
            // The weighted contributions that add up to the score, then and now.
            ...termKeys.map((k) => ({ component: `+${k}`, before: t.before?.[k] ?? null, after: t.after?.[k] ?? null, delta: t.delta?.[k] ?? null })),
          ],
          ['component', 'before', 'after', 'delta'],
        ),
      );
      ctx.io.out(r.movement);
      if (r.reproduces_logged_ranking !== null) {
        ctx.io.out(r.reproduces_logged_ranking ? 'the logged ranking is reproduced' : 'the logged ranking is not reproduced: at least one logged result ranks differently');
      }
      for (const n of r.notes) ctx.io.out(n);
    } finally {
      session.close();
    }
  },
};
