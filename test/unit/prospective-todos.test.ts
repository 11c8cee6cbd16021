import { afterEach, describe, expect, it } from 'vitest';
import type { AgentMemory } from '../../core/agent/agent-memory.js';
import { agentOn, freshStorePath } from '../helpers/agents.js';

const open: AgentMemory[] = [];
afterEach(() => {
  for (const a of open.splice(0)) a.close();
});
function agent(path: string, owner: string): AgentMemory {
  const a = agentOn(path, owner);
  open.push(a);
  return a;
}

describe('todo lifecycle', () => {
  it('opens, lists by importance then age, and closes as done or dropped', async () => {
    const a = agent(freshStorePath(), 'dev@1');
    const low = await a.todoOpen({ content: 'tidy the README', importance: 'LOW' });
    const high = await a.todoOpen({ content: 'fix the release blocker', importance: 'CRITICAL' });
    const mid = await a.todoOpen({ content: 'review the open pull request', importance: 'MEDIUM' });
    expect(low.memory).toMatchObject({ type: 'todo', status: 'open' });
    expect(a.todoList().map((t) => t.id)).toEqual([high.id, mid.id, low.id]);
    expect((await a.todoClose(high.id.slice(0, 8))).status).toBe('done');
    expect((await a.todoClose(low.id, 'dropped')).status).toBe('dropped');
    expect(a.todoList().map((t) => t.id)).toEqual([mid.id]);
    expect(a.todoList({ status: 'all' }).map((t) => t.status).sort()).toEqual(['done', 'dropped', 'open']);
    expect(a.stats()).toMatchObject({ todos_open: 1, todos_done: 2 });
  });

  it('a duplicate of an open todo reinforces it; a duplicate of a closed one opens a new todo', async () => {
    const a = agent(freshStorePath(), 'dev');
    const t = await a.todoOpen({ content: 'renew the TLS certificate for the public API gateway before it expires next month' });
    expect((await a.todoOpen({ content: 'renew the TLS certificate for the public API gateway before it expires next month' })).id).toBe(t.id);
    await a.todoClose(t.id);
    const again = await a.todoOpen({ content: 'renew the TLS certificate for the public API gateway before it expires next month' });
    expect(again.reinforced).toBe(false);
    expect(again.id).not.toBe(t.id);
  });

  it('closing refuses a non-todo, a missing id, and another role\'s todo', async () => {
    const path = freshStorePath();
    const a = agent(path, 'dev');
    const b = agent(path, 'qa');
    const info = await a.remember({ content: 'not a todo' });
    await expect(a.todoClose(info.id)).rejects.toThrowError(/is info, not a todo/);
    await expect(a.todoClose('ffffffffff')).rejects.toMatchObject({ code: 'not_found' });
    const theirs = await b.todoOpen({ content: 'qa task' });
    await expect(a.todoClose(theirs.id)).rejects.toMatchObject({ code: 'permission' });
    expect(a.todoList({ owner: 'qa' }).map((t) => t.id)).toEqual([theirs.id]);
    expect(a.todoList().map((t) => t.id)).toEqual([]);
  });

  it('todo_list is a read attributed to the agent (searched)', async () => {
    const a = agent(freshStorePath(), 'dev@9');
    const t = await a.todoOpen({ content: 'ship it' });
    a.todoList();
    expect(a.engine.store.accessEvents({ memoryId: t.id, channels: ['searched'] }).events).toMatchObject([{ reader_owner: 'dev@9', session_ref: 'test-dev@9', query: 'todo_list status=open' }]);
  });
});
