/** `mnemo diff <db> --from T [--to T]`: what changed in the store between two instants, and who changed it. */
import { call } from '../../core/api/service.js';
import { badInput } from '../../core/errors.js';
import { flag, instantOpt, intOpt, requirePositional, type Command } from '../command.js';
import { isoTime, table } from '../format.js';
import { openSession } from '../session.js';
import { REPLICA_OPTION } from '../replica-option.js';

export const diffCommand: Command = {
  name: 'diff',
  summary: 'what changed between two instants (memories added, changed, archived, restored, deleted; edges linked, unlinked) and who changed it',
  usage: 'mnemo diff <db> --from T [--to T] [--accesses] [--limit N] [--now T] [--replica URL]... [--json]   (T: epoch seconds or ISO 8601; --to defaults to now)',
  timed: true,
  options: { from: { type: 'string' }, to: { type: 'string' }, accesses: { type: 'boolean' }, limit: { type: 'string' }, ...REPLICA_OPTION },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const from = instantOpt(ctx, 'from');
    if (from === undefined) throw badInput(`missing --from\nusage: ${this.usage}`, { field: 'from' });
    const session = openSession(ctx, db, { readonly: true });
    try {
      const to = instantOpt(ctx, 'to') ?? session.clock.now();
      const d = await call(session, 'store.diff', { from, to, include_accesses: flag(ctx, 'accesses'), limit: intOpt(ctx, 'limit', 1000, [1, 10_000]) });
      if (ctx.json) {
        ctx.io.out(JSON.stringify(d));
        return;
      }
      ctx.io.out(`from ${isoTime(d.from.at)} (feed position ${d.from.position.seq}) to ${isoTime(d.to.at)} (feed position ${d.to.position.seq})`);
      const authors = (a: { text: string }[]) => a.map((x) => x.text).join('; ');
      ctx.io.out(table(d.memories.map((m) => ({ kind: m.kind, id: m.id.slice(0, 12), fields: m.fields, by: authors(m.authors), head: m.head })), ['kind', 'id', 'fields', 'by', 'head']));
      if (d.edges.length) ctx.io.out(table(d.edges.map((e) => ({ kind: e.kind, src: e.src.slice(0, 12), type: e.type, dst: e.dst.slice(0, 12), by: authors(e.authors) })), ['kind', 'src', 'type', 'dst', 'by']));
      const c = d.counts.memories;
      const e = d.counts.edges;
      const parts = [
        [c.added, 'added'],
        [c.changed, 'changed'],
        [c.archived, 'archived'],
        [c.restored, 'restored'],
        [c.deleted, 'deleted'],
        [c.accessed, 'only accessed'],
      ].filter(([n]) => (n as number) > 0);
      const memories = parts.length ? parts.map(([n, what]) => `${n} ${what}`).join(', ') : 'none changed';
      const edges = [e.linked && `${e.linked} linked`, e.unlinked && `${e.unlinked} unlinked`, e.changed && `${e.changed} reweighted`].filter(Boolean).join(', ') || 'none changed';
      ctx.io.out(`memories: ${memories}; edges: ${edges}${d.truncated ? ' (lists cut at --limit)' : ''}`);
      if (c.accessed > 0 && !flag(ctx, 'accesses')) ctx.io.out(`(${c.accessed === 1 ? 'the memory' : 'memories'} only accessed are listed with --accesses)`);
    } finally {
      session.close();
    }
  },
};
