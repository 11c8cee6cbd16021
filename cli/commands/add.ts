import { badInput } from '../../core/errors.js';
import { call } from '../../core/api/service.js';
import { numOrLabel } from '../parse-values.js';
import { requirePositional, str, strs, type Command } from '../command.js';
import { openSession } from '../session.js';

export const addCommand: Command = {
  name: 'add',
  summary: 'add a memory',
  usage:
    'mnemo add <db> <content|-> [--type T] [--title T] [--owner role@inst] [--importance N|LABEL] [--salience N|LABEL] [--confidence N|LABEL] [--tag T]... [--entity E]... [--place P] [--status open|done|dropped] [--now T] [--json]',
  timed: true,
  options: {
    type: { type: 'string' },
    title: { type: 'string' },
    owner: { type: 'string' },
    importance: { type: 'string' },
    salience: { type: 'string' },
    confidence: { type: 'string' },
    tag: { type: 'string', multiple: true },
    entity: { type: 'string', multiple: true },
    place: { type: 'string' },
    status: { type: 'string' },
  },
  async run(ctx) {
    const db = requirePositional(ctx, 0, 'db', this.usage);
    let content = requirePositional(ctx, 1, 'content', this.usage);
    if (content === '-') {
      if (!ctx.io.readStdin) throw badInput('reading content from standard input is not available here');
      content = (await ctx.io.readStdin()).replace(/\n$/, '');
    }
    const session = openSession(ctx, db);
    try {
      const input: Record<string, unknown> = { content };
      const set = (k: string, v: unknown) => {
        if (v !== undefined) input[k] = v;
      };
      set('type', str(ctx, 'type'));
      set('title', str(ctx, 'title'));
      set('owner', str(ctx, 'owner'));
      set('importance', numOrLabel(str(ctx, 'importance')));
      set('salience', numOrLabel(str(ctx, 'salience')));
      set('confidence', numOrLabel(str(ctx, 'confidence')));
      if (strs(ctx, 'tag').length) input['tags'] = strs(ctx, 'tag');
      if (strs(ctx, 'entity').length) input['entities'] = strs(ctx, 'entity');
      set('place_or_task', str(ctx, 'place'));
      set('status', str(ctx, 'status'));
      const m = await call(session, 'memory.add', input);
      const redacted = m.redacted ? Object.entries(m.redacted).map(([kind, n]) => `${kind} ×${n}`).join(', ') : '';
      ctx.io.out(ctx.json ? JSON.stringify(m) : `added ${m.type} ${m.id}${redacted ? `\nredacted before storing: ${redacted} (the store keeps [redacted:<kind>] instead)` : ''}`);
    } finally {
      session.close();
    }
  },
};
