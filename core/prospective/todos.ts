/**
 * Todos: durable commitments with a lifecycle open → done | dropped (the status rule lives in
 * core/model: only todos carry a status, a new todo is open). Open todos are listed by importance,
 * highest first, then oldest first: the order the reference's "Open todos" block uses.
 */
import { TODO_STATUSES, type TodoStatus } from '../model/enums.js';
import { memoryHead, type Memory } from '../model/memory.js';
import type { OwnerScope } from '../model/owner.js';
import { memoriesOfType } from './select.js';
import type { TodoView } from './views.js';
import type { StoreReader } from '../store/port/port.js';

export type { TodoView } from './views.js';


export function todoView(m: Memory, now: number): TodoView {
  const status = (m.status ?? 'open') as TodoStatus;
  const src = m.source_task_ref ?? '';
  return {
    id: m.id,
    head: memoryHead(m),
    title: m.title,
    content: m.content,
    owner: m.owner,
    status,
    importance: m.importance,
    created_at: m.created_at,
    last_accessed_at: m.last_accessed_at,
    tags: m.tags,
    open_age_hours: status === 'open' ? Math.max(0, (now - m.created_at) / 3600) : null,
    from_intent: src.startsWith('intent:') ? src.slice('intent:'.length) : null,
  };
}

/** Importance descending, then oldest first. */
export function byImportanceThenAge(a: Memory, b: Memory): number {
  return b.importance - a.importance || a.created_at - b.created_at;
}

export function listTodos(store: StoreReader, scope: OwnerScope, statuses: readonly TodoStatus[] = ['open']): Memory[] {
  const wanted = statuses.length ? [...statuses] : [...TODO_STATUSES];
  return memoriesOfType(store, ['todo'], scope, { statuses: wanted }).sort(byImportanceThenAge);
}

/** At most `k` open todos of a scope in block order. */
export function openTodos(store: StoreReader, scope: OwnerScope, k: number): Memory[] {
  return listTodos(store, scope, ['open']).slice(0, Math.max(0, k));
}
