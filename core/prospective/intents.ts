/**
 * Intents in the store: listing them for the workbench (pending, fired, unscheduled) and firing the
 * ones the scheduler says are due. Firing is one journalled change per call: each intent is stamped
 * fired (so it never fires twice, even with two agents racing: the check is repeated inside the
 * write transaction), and an intent that `opens_todo` opens a todo linked from it by a `triggers`
 * edge. Each fired intent then logs an `injected` access: the intent was pushed to the agent
 * unasked, exactly like spontaneous injection, so it never reinforces. (nooa's channel set is
 * closed, and a nooa reader rejects unknown channels, so no new channel is invented.)
 */
import type { Engine } from '../engine/engine.js';
import { accessRecord, addEdge, createMemory, embeddingText, memoryHead, type Memory } from '../model/memory.js';
import type { OwnerScope } from '../model/owner.js';
import type { AgentIdentity } from '../model/identity.js';
import { due, intentState, type DueContext, type Firing } from './scheduler.js';
import type { IntentState, IntentView } from './views.js';
import { hasFired, readTrigger, triggerProblem, type StoredTrigger } from './triggers.js';
import { isEpochSeconds } from '../model/limits.js';
import { memoriesOfType } from './select.js';
import type { StoreReader } from '../store/port/port.js';

export type { IntentView } from './views.js';


export function intentView(m: Memory, store?: StoreReader): IntentView {
  const t = readTrigger(m);
  const raw = (m.trigger ?? {}) as Partial<StoredTrigger>;
  const todoId = typeof raw.todo_id === 'string' ? raw.todo_id : null;
  return {
    id: m.id,
    head: memoryHead(m),
    content: m.content,
    owner: m.owner,
    importance: m.importance,
    created_at: m.created_at,
    state: intentState(m),
    kind: typeof raw.kind === 'string' ? raw.kind : null,
    cue: t?.cue ?? (typeof raw.cue === 'string' ? raw.cue : null),
    fire_at: t?.fire_at ?? (isEpochSeconds(raw.fire_at) ? raw.fire_at : null),
    opens_todo: raw.opens_todo === true,
    fired_at: isEpochSeconds(raw.fired_at) ? raw.fired_at : null,
    fired_reason: typeof raw.fired_reason === 'string' ? raw.fired_reason : null,
    fired_by: typeof raw.fired_by === 'string' ? raw.fired_by : null,
    fired_session: typeof raw.fired_session === 'string' ? raw.fired_session : null,
    todo_id: todoId,
    todo_status: todoId && store ? (store.get(todoId)?.status ?? null) : null,
  };
}

/** Intents in a scope, pending first (by deadline), then fired (newest first), then unscheduled. */
export function listIntents(store: StoreReader, scope: OwnerScope, state: IntentState | 'all' = 'all'): IntentView[] {
  const views = intentsOf(store, scope).map((m) => intentView(m, store));
  const rank: Record<IntentState, number> = { pending: 0, fired: 1, unscheduled: 2 };
  return views
    .filter((v) => state === 'all' || v.state === state)
    .sort(
      (a, b) =>
        rank[a.state] - rank[b.state] ||
        (a.state === 'pending' ? (a.fire_at ?? Infinity) - (b.fire_at ?? Infinity) : 0) ||
        (a.state === 'fired' ? (b.fired_at ?? 0) - (a.fired_at ?? 0) : 0) ||
        a.created_at - b.created_at,
    );
}

/** The intents of a scope that would fire now (a dry run: nothing is written). */
export function previewDue(store: StoreReader, scope: OwnerScope, now: number, context: DueContext): Firing[] {
  return due(intentsOf(store, scope), now, context);
}

/** The intents of a scope; one whose trigger another writer stored unusable is reported (it stays unscheduled). */
function intentsOf(store: StoreReader, scope: OwnerScope): Memory[] {
  const intents = memoriesOfType(store, ['intent'], scope);
  for (const m of intents) {
    const problem = triggerProblem(m);
    if (problem) store.warn(`trigger:${m.id}`, problem);
  }
  return intents;
}

export interface FiredIntent {
  intent: Memory;
  kind: string;
  reason: string;
  todo: Memory | null;
}

/** Fires the intents the scheduler finds due for this scope and returns what fired. */
export async function fireDueIntents(engine: Engine, who: AgentIdentity, scope: OwnerScope, context: DueContext): Promise<FiredIntent[]> {
  const now = engine.now();
  const firings = previewDue(engine.store, scope, now, context);
  if (firings.length === 0) return [];
  // Todos are built (and embedded) before the write transaction, which must stay synchronous.
  const todos = new Map<string, { todo: Memory; vec: Float32Array }>();
  for (const f of firings) {
    if (f.trigger.opens_todo !== true) continue;
    const i = f.intent;
    const todo = createMemory(
      {
        type: 'todo',
        content: i.content,
        title: i.title,
        owner: i.owner,
        importance: i.importance,
        tags: i.tags,
        entities: i.entities,
        references: i.references,
        source_task_ref: `intent:${i.id}`,
      },
      now,
    );
    todos.set(i.id, { todo, vec: await engine.embed(embeddingText(todo)) });
  }
  const store = engine.store;
  const fired: { id: string; kind: string; reason: string; todoId: string | null }[] = [];
  store.transaction(() => {
    const label = firings.length === 1 ? `fire intent ${firings[0]!.intent.id.slice(0, 8)} (${firings[0]!.kind})` : `fire ${firings.length} intents`;
    store.change(label, 'intent.fire', () => {
      for (const f of firings) {
        const current = store.get(f.intent.id);
        const t = current && !current.archived ? readTrigger(current) : null;
        if (!current || !t || hasFired(t)) continue; // fired meanwhile by another agent
        const made = todos.get(current.id);
        if (made) {
          store.add(made.todo, made.vec);
          // Its seeded `created` entry goes into the event table too, as every add does.
          store.recordAccessEvents(made.todo.id, made.todo.access_log, made.todo.strength);
          addEdge(current, made.todo.id, 'triggers', 1.0, now);
        }
        current.trigger = { ...t, fired_at: now, fired_reason: f.reason, fired_by: who.owner, fired_session: who.session_ref, todo_id: made?.todo.id ?? null };
        store.save(current);
        fired.push({ id: current.id, kind: f.kind, reason: f.reason, todoId: made?.todo.id ?? null });
      }
    });
    store.logAccesses(
      fired.map((f) => ({
        id: f.id,
        record: accessRecord(now, 'injected', { reader_owner: who.owner, session_ref: who.session_ref, query: `intent fired: ${f.reason}`.slice(0, 200) }),
      })),
    );
  });
  const byId = store.getMany([...fired.map((f) => f.id), ...fired.flatMap((f) => (f.todoId ? [f.todoId] : []))]);
  return fired.map((f) => ({ intent: byId.get(f.id)!, kind: f.kind, reason: f.reason, todo: f.todoId ? (byId.get(f.todoId) ?? null) : null }));
}
