/** `mnemo feed`: where the change feed stands, its retention policy, and pruning it. */
import { call } from '../../core/api/service.js';
import type { FeedStatus } from '../../core/api/contract/feed.js';
import { flag, requirePositional, str, type Command } from '../command.js';
import { isoTime } from '../format.js';
import { openSession } from '../session.js';

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
const days = (n: number) => count(n, 'day');

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

function describe(s: FeedStatus): string[] {
  if (!s.installed) return ['no change feed yet: a nooa-only store gets one with its first write through Mnemo, and its history starts then'];
  const ops = Object.entries(s.rows_by_op)
    .sort((a, b) => b[1] - a[1])
    .map(([op, n]) => `${op} ${n.toLocaleString('en')}`)
    .join(', ');
  const lines = [
    `change feed: ${count(s.rows, 'row')}${ops ? ` (${ops})` : ''}, ${megabytes(s.bytes)}, last sequence number ${s.seq.toLocaleString('en')}`,
    `kept: every change for ${days(s.retention.days)}, accesses for ${days(s.retention.access_days)}`,
  ];
  if (s.history_from !== null) lines.push(`every change since ${isoTime(s.history_from)} is kept`);
  if (s.accesses_from !== null) lines.push(`every access since ${isoTime(s.accesses_from)} is kept`);
  return lines;
}

export const feedCommand: Command = {
  name: 'feed',
  summary: "the change feed (every writer's changes, numbered): its size, how long it keeps them, and pruning",
  usage: 'mnemo feed <db> [--days N] [--access-days N] [--prune] [--now T] [--json]',
  timed: true,
  options: { days: { type: 'string' }, 'access-days': { type: 'string' }, prune: { type: 'boolean' } },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const policy: Record<string, number> = {};
    for (const [option, field] of [['days', 'days'], ['access-days', 'access_days']] as const) {
      const raw = str(ctx, option);
      // Numbers are passed as they were typed: the API's schema says what a day count may be.
      if (raw !== undefined) policy[field] = Number(raw);
    }
    const prune = flag(ctx, 'prune');
    const writes = prune || Object.keys(policy).length > 0;
    const session = openSession(ctx, db, { readonly: !writes });
    try {
      if (Object.keys(policy).length > 0) await call(session, 'feed.retention', policy);
      const pruned = prune ? await call(session, 'feed.prune', {}) : null;
      const status = await call(session, 'feed.status', {});
      if (ctx.json) {
        ctx.io.out(JSON.stringify(pruned ? { ...status, pruned } : status));
        return;
      }
      if (pruned) ctx.io.out(`pruned ${count(pruned.removed, 'row')} (${count(pruned.access_removed, 'access row')})`);
      for (const line of describe(status)) ctx.io.out(line);
    } finally {
      session.close();
    }
  },
};
