/** Recall and injection as an agent: references resolved in results, and the injection block end to end. */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentMemory } from '../../core/agent/agent-memory.js';
import { agentOn, freshStorePath, movableClock } from '../helpers/agents.js';
import { tempDir } from '../../support/fixture.js';
import { requireMemory } from '../../core/store/queries/memory-lookups.js';

const open: AgentMemory[] = [];
afterEach(() => {
  for (const a of open.splice(0)) a.close();
});
function agent(path: string, owner: string, opts: Parameters<typeof agentOn>[2] = {}): AgentMemory {
  const a = agentOn(path, owner, opts);
  open.push(a);
  return a;
}

describe('recall as an agent', () => {
  it('results carry components and their references resolved LIVE or DANGLING', async () => {
    const root = tempDir('mnemo-recall-ws-');
    writeFileSync(join(root, 'plan.md'), 'ship on friday');
    const vars = new Map<string, unknown>([['plan', 'v1']]);
    const a = agent(freshStorePath(), 'alice@1', { workspaceRoot: root, host: { var: (k) => vars.get(k) } });
    await a.remember({ content: 'the release plan lives in plan.md and the plan var', references: ['file:plan.md', 'var:plan', 'var:gone'] });
    const [hit] = await a.recall('release plan');
    expect(hit!.components).toMatchObject({ source: expect.stringMatching(/dense|sparse|both/), cos: expect.any(Number), rel: expect.any(Number), rec: expect.any(Number), imp: expect.any(Number), spread: expect.any(Number) });
    expect(hit!.references.map((r) => [r.spec, r.status, r.value])).toEqual([
      ['file:plan.md', 'LIVE', 'ship on friday'],
      ['var:plan', 'LIVE', '"v1"'],
      ['var:gone', 'DANGLING', '(no snapshot captured)'],
    ]);
    expect(hit!.strength).toBe(2);
    expect(a.engine.store.accessEvents({ channels: ['recalled'] }).events).toMatchObject([{ reader_owner: 'alice@1', session_ref: 'test-alice@1', query: 'release plan' }]);
  });
});

describe('recall as an agent, rows read once', () => {
  it('reads the recalled memories once (the recall that logged their accesses), and shows each as it stands after the access', async () => {
    const a = agent(freshStorePath(), 'alice@1');
    await a.remember({ content: 'the canary deploy of billing is pinned to zone b', importance: 'high' });
    await a.remember({ content: 'billing canary rollbacks page the on-call' });
    const reads: number[] = [];
    const getMany = a.engine.store.getMany.bind(a.engine.store);
    a.engine.store.getMany = (ids) => {
      reads.push(ids.length);
      return getMany(ids);
    };
    const hits = await a.recall('billing canary');
    expect(hits.length).toBe(2);
    expect(reads).toEqual([2]);
    for (const h of hits) {
      const stored = requireMemory(a.engine.store, h.id);
      expect([h.strength, h.importance, h.tags]).toEqual([stored.strength, stored.importance, stored.tags]);
    }
    expect(hits.map((h) => h.strength)).toEqual([2, 2]);
  });
});

describe('spontaneous injection', () => {
  it('renders the block with live references and never changes strength or recency', async () => {
    const clock = movableClock();
    const vars = new Map<string, unknown>([['plan', 'draft 3']]);
    const a = agent(freshStorePath(), 'alice@1', { clock, host: { var: (k) => vars.get(k) }, spontaneous: { cadence: 'every_turn' } });
    const m = await a.remember({ content: 'the launch checklist is tracked in the plan var', references: ['var:plan'] });
    clock.advance(3600);
    const before = requireMemory(a.engine.store, m.id.slice(0, 8));
    const res = await a.beforeTurn({ message: 'what is on the launch checklist?' });
    expect(res.text).toBe(`## Recalled memories (associative)\n- [info#${m.id.slice(0, 8)}] the launch checklist is tracked in the plan var\n    ref var:plan (LIVE) → "draft 3"`);
    expect(res.memory_ids).toEqual([m.id]);
    const after = requireMemory(a.engine.store, m.id);
    expect(after.strength).toBe(before.strength);
    expect(after.last_accessed_at).toBe(before.last_accessed_at);
    expect(after.access_count).toBe(before.access_count);
    expect(after.injected_count).toBe(1);
    expect(after.access_log.at(-1)).toMatchObject({ channel: 'injected', reader_owner: 'alice@1', query: 'what is on the launch checklist?', rank: 0 });
    await a.beforeTurn({ message: 'what is on the launch checklist?' });
    expect(requireMemory(a.engine.store, m.id)).toMatchObject({ strength: before.strength, injected_count: 2 });
  });

  it('self_gated skips an unchanged query; per_task injects once per task', async () => {
    const a = agent(freshStorePath(), 'alice');
    await a.remember({ content: 'the coffee machine is on the third floor' });
    expect((await a.beforeTurn({ message: 'coffee machine' })).text).toMatch(/coffee/);
    expect((await a.beforeTurn({ message: 'coffee machine' })).text).toBeNull();
    expect((await a.beforeTurn({ message: 'coffee machine floor' })).text).toMatch(/coffee/);
    const p = agent(freshStorePath(), 'alice', { spontaneous: { cadence: 'per_task' } });
    await p.remember({ content: 'the coffee machine is on the third floor' });
    expect((await p.beforeTurn({ message: 'coffee', task: 't1' })).text).toMatch(/coffee/);
    expect((await p.beforeTurn({ message: 'coffee floor', task: 't1' })).text).toBeNull();
    expect((await p.beforeTurn({ message: 'coffee floor', task: 't2' })).text).toMatch(/coffee/);
  });

  it('"always" appends open todos within open_todos_k; "off" keeps todos out; the scope is the own role', async () => {
    const path = freshStorePath();
    const a = agent(path, 'alice', { spontaneous: { inject_open_todos: 'always', open_todos_k: 2, cadence: 'every_turn', top_k: 1 } });
    const b = agent(path, 'bob');
    await a.remember({ content: 'the garden hose leaks at the tap' });
    const t1 = await a.todoOpen({ content: 'file the tax return', importance: 'CRITICAL' });
    const t2 = await a.todoOpen({ content: 'renew the passport', importance: 'HIGH' });
    await a.todoOpen({ content: 'sort the photos', importance: 'LOW' });
    await b.todoOpen({ content: 'bob buys garden hose washers', importance: 'CRITICAL' });
    const text = (await a.beforeTurn({ message: 'garden hose' })).text!;
    expect(text).toContain('## Open todos');
    expect(text.split('## Open todos\n')[1]).toBe(`- [todo:open#${t1.id.slice(0, 8)}] file the tax return\n- [todo:open#${t2.id.slice(0, 8)}] renew the passport`);
    expect(text).not.toContain('bob');
    const off = agent(path, 'alice', { spontaneous: { inject_open_todos: 'off' } });
    expect(await off.recallForContext({ message: 'tax return passport photos' })).not.toContain('todo:');
    expect((await off.recall('tax return')).map((m) => m.type)).toContain('todo');
  });

  it('the block keeps to the character budget', async () => {
    const a = agent(freshStorePath(), 'alice', { spontaneous: { context_char_budget: 120, top_k: 5 } });
    for (let i = 0; i < 5; i++) await a.remember({ content: `note ${i} about the budget meeting with a long enough line to overflow the block`, dedup: false });
    const text = await a.recallForContext({ message: 'budget meeting' });
    expect([...text].length).toBeLessThanOrEqual(122);
    expect(text.endsWith(' …')).toBe(true);
  });
});
