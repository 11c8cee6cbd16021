import { afterEach, describe, expect, it } from 'vitest';
import type { AgentMemory } from '../../core/agent/agent-memory.js';
import { agentOn, freshStorePath, movableClock, T0 } from '../helpers/agents.js';
import { countMemories, requireMemory } from '../../core/store/queries/memory-lookups.js';

const open: AgentMemory[] = [];
afterEach(() => {
  for (const a of open.splice(0)) a.close();
});
function agent(path: string, owner: string, clock = movableClock()): AgentMemory {
  const a = agentOn(path, owner, { clock });
  open.push(a);
  return a;
}

describe('intents fire', () => {
  it('a time trigger fires once its time has passed, exactly once', async () => {
    const clock = movableClock();
    const a = agent(freshStorePath(), 'planner@1', clock);
    const v = await a.intentAdd({ content: 'send the weekly report', trigger: { kind: 'time', fire_at: T0 + 3600 } });
    expect(v).toMatchObject({ state: 'pending', kind: 'time', fire_at: T0 + 3600, owner: 'planner@1' });
    expect(await a.intentsDue()).toEqual([]);
    clock.advance(3600);
    const fired = await a.intentsDue();
    expect(fired.map((f) => [f.intent.id, f.kind])).toEqual([[v.id, 'time']]);
    expect(fired[0]!.intent.trigger).toMatchObject({ fired_at: T0 + 3600, fired_by: 'planner@1', fired_session: 'test-planner@1' });
    expect(await a.intentsDue()).toEqual([]);
    expect(a.intents('fired').map((i) => i.id)).toEqual([v.id]);
    expect(a.intents('pending')).toEqual([]);
  });

  it('a cue trigger fires when the cue appears in the current message', async () => {
    const a = agent(freshStorePath(), 'planner');
    const v = await a.intentAdd({ content: 'ask about the budget owner', trigger: { kind: 'cue', cue: 'budget' } });
    expect(await a.intentsDue({ message: 'let us plan the roadmap' })).toEqual([]);
    const fired = await a.intentsDue({ message: 'The Budget review is tomorrow' });
    expect(fired).toMatchObject([{ kind: 'cue', reason: 'cue "budget" appeared in the message', intent: { id: v.id } }]);
  });

  it('an event trigger fires when the event was seen, and can open a linked todo', async () => {
    const a = agent(freshStorePath(), 'ops');
    const v = await a.intentAdd({ content: 'write a postmortem', importance: 'HIGH', tags: ['incident'], trigger: { kind: 'event', cue: 'Error' }, opens_todo: true });
    expect(await a.intentsDue({ events: ['Notification'] })).toEqual([]);
    const [f] = await a.intentsDue({ events: ['Error'] });
    expect(f!.todo).toMatchObject({ type: 'todo', status: 'open', content: 'write a postmortem', importance: 8, owner: 'ops', tags: ['incident'], source_task_ref: `intent:${v.id}` });
    expect(f!.intent.edges).toEqual([expect.objectContaining({ target_id: f!.todo!.id, type: 'triggers', weight: 1 })]);
    expect(a.todoList().map((t) => t.id)).toEqual([f!.todo!.id]);
    expect(a.intents('fired')[0]).toMatchObject({ todo_id: f!.todo!.id, todo_status: 'open' });
  });

  it('firing logs an injected access attributed to the agent and never reinforces', async () => {
    const path = freshStorePath();
    const a = agent(path, 'ops@7');
    const v = await a.intentAdd({ content: 'rotate the keys', trigger: { kind: 'cue', cue: 'keys' } });
    await a.intentsDue({ message: 'where are the keys' });
    const m = requireMemory(a.engine.store, v.id);
    expect(m.strength).toBe(1);
    expect(m.injected_count).toBe(1);
    expect(m.access_count).toBe(0);
    const ev = a.engine.store.accessEvents({ memoryId: v.id, channels: ['injected'] }).events;
    expect(ev).toMatchObject([{ reader_owner: 'ops@7', session_ref: 'test-ops@7', query: 'intent fired: cue "keys" appeared in the message', strength_after: 1 }]);
  });

  it('firing is one journalled change and can be undone', async () => {
    const a = agent(freshStorePath(), 'ops');
    const v = await a.intentAdd({ content: 'renew cert', trigger: { kind: 'event', cue: 'Deploy' }, opens_todo: true });
    const [f] = await a.intentsDue({ events: ['deploy'] });
    const change = a.engine.store.journal.history(1)[0]!;
    expect(change).toMatchObject({ kind: 'intent.fire' });
    a.engine.store.journal.undo(change.id);
    expect(a.engine.store.get(f!.todo!.id)).toBeNull();
    expect(a.intents('pending').map((i) => i.id)).toEqual([v.id]);
  });

  it('only the own role fires: another role never fires (or sees) my intents; instances of a role share them', async () => {
    const path = freshStorePath();
    const mine = agent(path, 'alice@1');
    const sibling = agent(path, 'alice@2');
    const other = agent(path, 'bob');
    await mine.intentAdd({ content: 'check the oven', trigger: { kind: 'cue', cue: 'oven' } });
    expect(await other.intentsDue({ message: 'the oven is hot' })).toEqual([]);
    expect(other.intents('all')).toEqual([]);
    const fired = await sibling.intentsDue({ message: 'the oven is hot' });
    expect(fired).toHaveLength(1);
    expect(await mine.intentsDue({ message: 'the oven is hot' })).toEqual([]);
  });

  it('rejects an intent without a usable trigger, writing nothing', async () => {
    const a = agent(freshStorePath(), 'ops');
    await expect(a.intentAdd({ content: 'x', trigger: { kind: 'time' } })).rejects.toThrowError(/fire_at/);
    expect(countMemories(a.engine.store)).toBe(0);
  });
});

describe('an opened todo', () => {
  it('has its created access in the event table, like every added memory', async () => {
    const a = agentOn(freshStorePath(), 'ops', { clock: movableClock() });
    open.push(a);
    await a.intentAdd({ content: 'page the owner', trigger: { kind: 'event', cue: 'Outage' }, opens_todo: true });
    const [f] = await a.intentsDue({ events: ['Outage'] });
    expect(a.engine.store.accessEvents({ memoryId: f!.todo!.id }).events.map((e) => e.channel)).toEqual(['created']);
  });
});
