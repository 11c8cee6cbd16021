import { TODO_STATUSES, type TodoStatus } from '../../model/enums.js';
import { parseOwnerScope } from '../../model/owner.js';
import { intentView, listIntents, previewDue } from '../../prospective/intents.js';
import { listTodos, todoView } from '../../prospective/todos.js';
import { isOverdue } from '../../prospective/views.js';
import type { prospectiveContract } from '../contract/prospective.js';
import type { HandlersFor } from './types.js';

export const prospectiveHandlers: HandlersFor<typeof prospectiveContract> = {
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
  'todos.list': (input, session) => {
    const engine = session.engine();
    const scope = parseOwnerScope(input.owner);
    const all = listTodos(engine.store, scope, [...TODO_STATUSES]);
    const counts = { open: 0, done: 0, dropped: 0 };
    for (const t of all) counts[(t.status ?? 'open') as TodoStatus] += 1;
    const rows = input.status === 'all' ? all : all.filter((t) => t.status === input.status);
    const now = engine.now();
    return { counts, rows: rows.map((t) => todoView(t, now)) };
  },
};
