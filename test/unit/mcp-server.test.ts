import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentMemory } from '../../core/agent/agent-memory.js';
import { addMemory } from '../../core/engine/memory-ops.js';
import { OPEN_TODOS_URI, RECENT_URI } from '../../cli/mcp/server.js';
import { agentOn, freshStorePath, T0 } from '../helpers/agents.js';
import { connectInProcess, dataOf, textOf, type McpHandle } from '../helpers/mcp.js';
import { tempDir } from '../../support/fixture.js';
import { countMemories, requireMemory } from '../../core/store/queries/memory-lookups.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function mcpFor(path: string, owner: string, opts: Parameters<typeof agentOn>[2] = {}): Promise<{ agent: AgentMemory; mcp: McpHandle }> {
  const agent = agentOn(path, owner, opts);
  const mcp = await connectInProcess(agent);
  cleanup.push(() => agent.close(), () => mcp.close());
  return { agent, mcp };
}

const EXPECTED_TOOLS = ['remember', 'recall', 'search', 'update_memory', 'forget', 'erase', 'associate', 'conflicts', 'resolve_conflict', 'deref', 'stats', 'reflect', 'todo_list', 'todo_open', 'todo_close', 'intent_add', 'intents_due'];

describe('MCP tools', () => {
  it('lists every tool with a JSON schema and the server instructions', async () => {
    const { mcp } = await mcpFor(freshStorePath(), 'alice@1');
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(EXPECTED_TOOLS);
    const remember = tools.find((t) => t.name === 'remember')!;
    expect(remember.inputSchema).toMatchObject({ type: 'object', required: ['content'], additionalProperties: false });
    expect(tools.find((t) => t.name === 'recall')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(mcp.client.getInstructions()).toMatch(/alice@1 \(role alice\)/);
  });

  it('invalid arguments come back as an MCP error that names the field', async () => {
    const { mcp } = await mcpFor(freshStorePath(), 'alice');
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['remember', { content: 42 }, /content/],
      ['remember', {}, /content/],
      ['remember', { content: 'x', importance: 'HUGE' }, /importance/],
      ['remember', { content: 'x', contnet: 'typo' }, /contnet/],
      ['remember', { content: 'x', references: ['plan'] }, /at references\[0\]/],
      ['recall', { query: 'x', k: 0 }, /\bk\b/],
      ['associate', { a_id: 'aaaaaaaa', b_id: 'bbbbbbbb', relation: 'likes' }, /relation/],
      ['update_memory', { memory_id: 'abc' }, /memory_id/],
      ['update_memory', { memory_id: 'abcdef12', status: 'LATER' }, /status/],
      ['intent_add', { content: 'x', trigger: { kind: 'time' } }, /trigger\.fire_at/],
      ['intent_add', { content: 'x', trigger: { kind: 'cue' } }, /trigger\.cue/],
      ['intents_due', { events: 'Error' }, /events/],
      ['todo_close', { todo_id: 'abcdef12', status: 'later' }, /status/],
    ];
    for (const [tool, args, field] of cases) {
      const r = await mcp.call(tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(r)).toMatch(/Input validation error/);
      expect(textOf(r), textOf(r)).toMatch(field);
    }
  });

  it('remember, update, forget and associate work and report back', async () => {
    const { mcp, agent } = await mcpFor(freshStorePath(), 'alice@1');
    const a = dataOf(await mcp.call('remember', { content: 'tests run with vitest', tags: ['testing'], importance: 'HIGH' }));
    const b = dataOf(await mcp.call('remember', { content: 'lint runs with eslint', type: 'skill' }));
    expect(a).toMatchObject({ reinforced: false, label: `[info#${a.id.slice(0, 8)}]` });
    expect(dataOf(await mcp.call('associate', { a_id: a.id.slice(0, 8), b_id: b.id.slice(0, 8), relation: 'supports' }))).toMatchObject({ src: a.id, dst: b.id, changed: true });
    expect(dataOf(await mcp.call('update_memory', { memory_id: a.id.slice(0, 8), content: 'tests run with vitest 4' }))).toEqual({ updated: true });
    expect(dataOf(await mcp.call('update_memory', { memory_id: 'ffffffff', content: 'x' }))).toEqual({ updated: false });
    expect(dataOf(await mcp.call('forget', { memory_id: b.id }))).toEqual({ forgotten: true });
    expect(requireMemory(agent.engine.store, a.id)).toMatchObject({ content: 'tests run with vitest 4', importance: 8 });
    expect(requireMemory(agent.engine.store, b.id).archived).toBe(true);
    expect(textOf(await mcp.call('stats'))).toMatch(/^memory stats: writes=2 /);
  });

  it('A cannot update or forget B\'s memory and gets a clear permission error', async () => {
    const path = freshStorePath();
    const { mcp: a } = await mcpFor(path, 'alice@1');
    const { mcp: b, agent: bAgent } = await mcpFor(path, 'bob@1');
    const secret = dataOf(await b.call('remember', { content: 'bob keeps the launch codes in the red binder' }));
    for (const [tool, args] of [
      ['update_memory', { memory_id: secret.id.slice(0, 8), content: 'overwritten by alice' }],
      ['forget', { memory_id: secret.id.slice(0, 8) }],
      ['associate', { a_id: secret.id, b_id: secret.id }],
      ['todo_close', { todo_id: secret.id }],
    ] as const) {
      const r = await a.call(tool, args);
      expect(r.isError, tool).toBe(true);
      expect(textOf(r)).toMatch(tool === 'todo_close' ? /^bad_input: .*not a todo/ : /^permission: memory [0-9a-f]{8} belongs to "bob@1"; cross-owner writes are not allowed \(you are "alice@1"\)$/);
    }
    expect(requireMemory(bAgent.engine.store, secret.id)).toMatchObject({ content: 'bob keeps the launch codes in the red binder', archived: false });
  });

  it('erase: an agent erases its own memories for good; one of another agent\'s, or a shared one, refuses the whole call and erases nothing', async () => {
    const path = freshStorePath();
    const { mcp: a, agent: aAgent } = await mcpFor(path, 'alice@1');
    const { mcp: b } = await mcpFor(path, 'bob@1');
    const mine = dataOf(await a.call('remember', { content: 'the wifi password is hunter2-blue' }));
    const also = dataOf(await a.call('remember', { content: 'alice parks on level 3' }));
    const bobs = dataOf(await b.call('remember', { content: 'bob keeps the launch codes in the red binder' }));
    const store = aAgent.engine.store;
    // A shared (unowned) memory, written by the operator outside MCP.
    const shared = await addMemory(aAgent.engine, { content: 'the team offsite is in march' });
    const mixed = await a.call('erase', { memory_ids: [mine.id.slice(0, 8), bobs.id.slice(0, 8)] });
    expect(mixed.isError).toBe(true);
    expect(textOf(mixed)).toMatch(/^permission: an agent erases only its own memories; [0-9a-f]{8} \("bob@1"\) is not yours \(you are "alice@1"\)/);
    const sharedToo = await a.call('erase', { memory_ids: [mine.id, shared.id] });
    expect(textOf(sharedToo)).toMatch(/^permission: .*[0-9a-f]{8} \(shared\) is not yours/);
    expect(store.exists(mine.id) && store.exists(bobs.id) && store.exists(shared.id)).toBe(true);
    const r = dataOf(await a.call('erase', { memory_ids: [mine.id.slice(0, 8), also.id] }));
    expect(r).toMatchObject({ erased: 2, counts: { memories: 2 } });
    expect(store.exists(mine.id) || store.exists(also.id)).toBe(false);
    const entry = store.journal.get(r.change_id);
    expect(entry).toMatchObject({ kind: 'erase', meta: { by: 'agent alice@1' } });
    expect(JSON.stringify(store.journal.rows(r.change_id))).not.toContain('hunter2');
    expect(textOf(await a.call('recall', { query: 'wifi password hunter2' }))).not.toMatch(/hunter2/);
    expect((await a.client.listTools()).tools.find((t) => t.name === 'erase')!.annotations).toMatchObject({ destructiveHint: true });
  });

  it('todos and intents over MCP: every trigger kind fires once', async () => {
    const { mcp, agent } = await mcpFor(freshStorePath(), 'ops@1');
    const todo = dataOf(await mcp.call('todo_open', { content: 'rotate the api keys', importance: 'HIGH' }));
    expect(textOf(await mcp.call('todo_list'))).toBe(`- [todo:open#${todo.id.slice(0, 8)}] <memory-data id="${todo.id.slice(0, 8)}">rotate the api keys</memory-data> (importance 8)`);
    await mcp.call('intent_add', { content: 'post the changelog', trigger: { kind: 'time', fire_at: new Date((T0 - 10) * 1000).toISOString() } });
    await mcp.call('intent_add', { content: 'warn about the freeze', trigger: { kind: 'cue', cue: 'release' } });
    await mcp.call('intent_add', { content: 'open an incident', trigger: { kind: 'event', cue: 'Error' }, opens_todo: true });
    const fired = dataOf(await mcp.call('intents_due', { message: 'preparing the release', events: ['Error'] })).fired;
    expect(fired[0].kind).toBe('time');
    expect(new Set(fired.map((f: { kind: string }) => f.kind))).toEqual(new Set(['time', 'cue', 'event']));
    expect(fired.find((f: { kind: string }) => f.kind === 'event').todo_id).toMatch(/^[0-9a-f]{32}$/);
    expect(textOf(await mcp.call('intents_due', { message: 'preparing the release', events: ['Error'] }))).toBe('no intents due');
    expect(dataOf(await mcp.call('todo_close', { todo_id: todo.id.slice(0, 8) })).todo.status).toBe('done');
    expect(agent.todoList().map((t) => t.head)).toEqual(['open an incident']);
  });

  it('file references: traversal is refused at write and at deref; a symlink out of the root too', async () => {
    const dir = tempDir('mnemo-mcp-ws-');
    const root = join(dir, 'ws');
    mkdirSync(root);
    writeFileSync(join(dir, 'outside.txt'), 'TOP-SECRET-CONTENT');
    writeFileSync(join(root, 'notes.md'), 'inside');
    symlinkSync(join(dir, 'outside.txt'), join(root, 'link.txt'));
    const { mcp, agent } = await mcpFor(freshStorePath(), 'alice', { workspaceRoot: root });
    for (const ref of ['file:../../etc/passwd', 'file:/etc/passwd', 'file:link.txt']) {
      const w = await mcp.call('remember', { content: 'pointer', references: [ref] });
      expect(w.isError, ref).toBe(true);
      expect(textOf(w)).toMatch(/^bad_input: file reference/);
      const d = await mcp.call('deref', { ref });
      expect(d.isError, ref).toBe(true);
      expect(textOf(d)).not.toMatch(/TOP-SECRET/);
    }
    expect(countMemories(agent.engine.store)).toBe(0);
    expect(textOf(await mcp.call('deref', { ref: 'file:notes.md' }))).toBe('<memory-data>ref file:notes.md (LIVE) → inside</memory-data>');
  });

  it('resources: recent memories and open todos, read as injected accesses attributed to the agent', async () => {
    const { mcp, agent } = await mcpFor(freshStorePath(), 'alice@2');
    const m = dataOf(await mcp.call('remember', { content: 'the meeting moved to thursday' }));
    const t = dataOf(await mcp.call('todo_open', { content: 'book the room' }));
    const { resources } = await mcp.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([RECENT_URI, OPEN_TODOS_URI]);
    const recent = await mcp.client.readResource({ uri: RECENT_URI });
    const data = (id: string, text: string) => `<memory-data id="${id.slice(0, 8)}">${text}</memory-data>`;
    expect(recent.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: `## Recent memories\n- [todo:open#${t.id.slice(0, 8)}] ${data(t.id, 'book the room')}\n- [info#${m.id.slice(0, 8)}] ${data(m.id, 'the meeting moved to thursday')}` });
    const todos = await mcp.client.readResource({ uri: OPEN_TODOS_URI });
    expect(todos.contents[0]).toMatchObject({ text: `## Open todos\n- [todo:open#${t.id.slice(0, 8)}] ${data(t.id, 'book the room')}` });
    const after = requireMemory(agent.engine.store, t.id);
    expect(after).toMatchObject({ injected_count: 2, strength: 1 });
    expect(agent.engine.store.accessEvents({ memoryId: t.id, channels: ['injected'] }).events.every((e) => e.reader_owner === 'alice@2' && e.session_ref === 'test-alice@2')).toBe(true);
  });
});
