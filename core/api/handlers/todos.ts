import { TODO_STATUSES, type TodoStatus } from '../../model/enums.js';
import { parseOwnerScope } from '../../model/owner.js';
import { listTodos, todoView } from '../../prospective/todos.js';
import type { todosContract } from '../contract/todos.js';
import type { HandlersFor } from './types.js';

export const todosHandlers: HandlersFor<typeof todosContract> = {
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
