import { parseOwnerScope } from '../../model/owner.js';
import { intentView, listIntents, previewDue } from '../../prospective/intents.js';
import { isOverdue } from '../../prospective/views.js';
import type { intentsContract } from '../contract/intents.js';
import type { HandlersFor } from './types.js';

export const intentsHandlers: HandlersFor<typeof intentsContract> = {
  'intents.list': (input, session) => {
    const engine = session.engine();
    const now = engine.now();
    const all = listIntents(engine.store, parseOwnerScope(input.owner)).map((v) => ({ ...v, overdue: isOverdue(v, now) }));
    const counts = { pending: 0, fired: 0, unscheduled: 0 };
    for (const v of all) counts[v.state] += 1;
    const overdue = all.filter((v) => v.overdue).length;
    return { counts, overdue, now, rows: input.state === 'all' ? all : all.filter((v) => v.state === input.state) };
  },
  'intents.due': (input, session) => {
    const engine = session.engine();
    const now = input.now ?? engine.now();
    const firings = previewDue(engine.store, parseOwnerScope(input.owner), now, { message: input.message ?? null, events: input.events ?? [] });
    return { now, rows: firings.map((f) => ({ ...intentView(f.intent, engine.store), reason: f.reason })) };
  },
};
