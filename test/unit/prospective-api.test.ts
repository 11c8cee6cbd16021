import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import type { AgentMemory } from '../../core/agent/agent-memory.js';
import { agentOn, freshStorePath, T0 } from '../helpers/agents.js';

const open: { close(): void }[] = [];
afterEach(() => {
  for (const a of open.splice(0)) a.close();
});

async function seeded() {
  const path = freshStorePath();
  const a: AgentMemory = agentOn(path, 'alice@1');
  const b: AgentMemory = agentOn(path, 'bob');
  open.push(a, b);
  const later = await a.intentAdd({ content: 'call the bank', trigger: { kind: 'time', fire_at: T0 + 7200 } });
  const soon = await a.intentAdd({ content: 'stand-up notes', trigger: { kind: 'time', fire_at: T0 + 60 } });
  const cue = await b.intentAdd({ content: 'mention the offsite', trigger: { kind: 'cue', cue: 'offsite' }, opens_todo: true });
  await a.remember({ content: 'a bare intent', type: 'intent' });
  await b.intentsDue({ message: 'planning the offsite' });
  await a.todoOpen({ content: 'water the plants', importance: 'HIGH' });
  const session = new ApiSession({ reader: { owner: 'workbench' } });
  session.open(path);
  open.push(session);
  return { session, later, soon, cue };
}

describe('prospective API (workbench)', () => {
  it('intents.list gives pending by deadline, fired with why and by whom, unscheduled, and counts', async () => {
    const { session, later, soon, cue } = await seeded();
    const all = await call(session, 'intents.list', {});
    expect(all.counts).toEqual({ pending: 2, fired: 1, unscheduled: 1 });
    expect(all.rows.map((r) => r.state)).toEqual(['pending', 'pending', 'fired', 'unscheduled']);
    expect(all.rows.slice(0, 2).map((r) => r.id)).toEqual([soon.id, later.id]);
    expect(all.rows[2]).toMatchObject({ id: cue.id, fired_by: 'bob', fired_reason: 'cue "offsite" appeared in the message', todo_status: 'open' });
    const bobs = await call(session, 'intents.list', { owner: 'bob', state: 'fired' });
    expect(bobs.rows.map((r) => r.id)).toEqual([cue.id]);
  });

  it('intents.due is a dry run for a given time, message and events', async () => {
    const { session, soon } = await seeded();
    const before = (await call(session, 'store.info', {})).data_version;
    const res = await call(session, 'intents.due', { now: T0 + 100 });
    expect(res.rows).toMatchObject([{ id: soon.id, reason: expect.stringMatching(/^time .* passed$/) }]);
    expect((await call(session, 'intents.due', { now: T0 })).rows).toEqual([]);
    expect((await call(session, 'store.info', {})).data_version).toBe(before);
    expect((await call(session, 'intents.list', { state: 'pending' })).rows).toHaveLength(2);
  });

  it('todos.list lists open todos with counts, including one an intent opened', async () => {
    const { session } = await seeded();
    const res = await call(session, 'todos.list', {});
    expect(res.counts).toEqual({ open: 2, done: 0, dropped: 0 });
    expect(res.rows.map((r) => r.head)).toEqual(['water the plants', 'mention the offsite']);
    expect(res.rows[1]!.from_intent).not.toBeNull();
  });

  it('bad input names the field', async () => {
    const { session } = await seeded();
    const res = await invoke(session, 'todos.list', { status: 'later' });
    expect(res).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/^invalid input for todos.list: status:/) } });
  });
});

describe('overdue intents (issue 14 part 6)', () => {
  it('intents.list flags a pending time intent whose moment has passed, judged against the engine clock', async () => {
    const { session: live, later, soon } = await seeded();
    const path = live.engine().store.path;
    const session = ApiSession.withFrozenClock(T0 + 3600, { reader: { owner: 'workbench' } });
    session.open(path);
    open.push(session);
    const all = await call(session, 'intents.list', {});
    expect(all.now).toBe(T0 + 3600);
    expect(all.overdue).toBe(1);
    expect(all.rows.find((r) => r.id === soon.id)?.overdue).toBe(true);
    expect(all.rows.find((r) => r.id === later.id)?.overdue).toBe(false);
    expect(all.rows.filter((r) => r.state !== 'pending').every((r) => !r.overdue)).toBe(true);
  });
});
