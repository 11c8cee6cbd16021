import { call } from '../../core/api/service.js';
import { instantOpt, requirePositional, type Command } from '../command.js';
import { isoTime } from '../format.js';
import { openSession } from '../session.js';
import { REPLICA_OPTION } from '../replica-option.js';

export const showCommand: Command = {
  name: 'show',
  summary: 'show one memory with every field, its ring and its edges',
  usage: 'mnemo show <db> <id|prefix> [--at T] [--replica URL]... [--json]',
  options: { at: { type: 'string' }, ...REPLICA_OPTION },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    const id = requirePositional(ctx, 1, 'id', this.usage);
    const session = openSession(ctx, db, { readonly: true });
    try {
      const at = instantOpt(ctx, 'at');
      // --at shows the memory as it was then (time travel); --json keeps the same shape.
      const d = await call(session, 'memory.get', at === undefined ? { id } : { id, at });
      if (ctx.json) {
        ctx.io.out(JSON.stringify(d));
        return;
      }
      const m = d.memory;
      const lines = [
        `${m.id}  ${m.type}${m.status ? ` [${m.status}]` : ''}${m.archived ? '  (archived)' : ''}`,
        m.title ? `title:      ${m.title}` : null,
        `owner:      ${m.owner || '(unowned)'}`,
        `importance: ${m.importance} (${d.labels.importance})   salience: ${m.salience} (${d.labels.salience})   confidence: ${m.confidence} (${d.labels.confidence})`,
        `strength:   ${m.strength}   reinforcements: ${m.reinforcement_count}   accesses: ${m.access_count}`,
        `created:    ${isoTime(m.created_at)}   last accessed: ${isoTime(m.last_accessed_at)}`,
        `counters:   recalled ${m.recalled_count}, searched ${m.searched_count}, injected ${m.injected_count}, reinforced ${m.reinforced_count}, deref ${m.deref_count}`,
        m.tags.length ? `tags:       ${m.tags.join(', ')}` : null,
        m.entities.length ? `entities:   ${m.entities.join(', ')}` : null,
        '',
        m.content,
        '',
        `ring: ${m.access_log.length} entries (last: ${m.access_log.at(-1)?.channel ?? '-'} at ${isoTime(m.access_log.at(-1)?.ts)})`,
        `edges out (${d.outgoing.length}):`,
        ...d.outgoing.map((e) => `  -${e.type} ${e.weight}-> ${e.id.slice(0, 8)} ${e.head ?? '(missing)'}`),
        `edges in (${d.incoming.length}):`,
        ...d.incoming.map((e) => `  <-${e.type} ${e.weight}- ${e.id.slice(0, 8)} ${e.head ?? '(missing)'}`),
      ];
      ctx.io.out(lines.filter((l) => l !== null).join('\n'));
    } finally {
      session.close();
    }
  },
};
