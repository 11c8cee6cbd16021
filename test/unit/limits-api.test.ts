/**
 * Issue 13, item 1 (API and MCP doors): one set of limits. Deep JSON (1200 and 100,000 levels),
 * far times, oversized strings and prototype keys are refused as bad_input (never an internal
 * stack overflow), nothing is written, and the store keeps answering.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { LIMITS } from '../../core/model/limits.js';
import { agentOn, freshStorePath, T0 } from '../helpers/agents.js';
import { connectInProcess, dataOf, textOf } from '../helpers/mcp.js';
import { runCli } from '../helpers/cli.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** An array nested n deep, built without recursion. */
function nested(n: number): unknown {
  let v: unknown = [];
  for (let i = 1; i < n; i++) v = [v];
  return v;
}

function rows(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM memories').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function apiOn(path: string): Promise<ApiSession> {
  const session = new ApiSession({ clock: fixedClock(T0), engineOptions: { onWarning: () => {} } });
  session.open(path, { create: true });
  cleanup.push(() => session.close());
  await call(session, 'memory.add', { content: 'deploys go through the release script', tags: ['deploy'] });
  return session;
}

describe('the API door enforces the limits (issue 13 item 1)', () => {
  const cases: [name: string, method: string, input: () => unknown, message: RegExp][] = [
    ['a trigger 1200 deep', 'memory.add', () => ({ content: 'x', type: 'intent', trigger: { kind: 'cue', cue: 'z', deep: nested(1200) } }), /nested deeper than 64/],
    ['a trigger 100,000 deep', 'memory.add', () => ({ content: 'x', type: 'intent', trigger: { kind: 'cue', cue: 'z', deep: nested(100_000) } }), /nested deeper than 64/],
    ['an unknown field 100,000 deep', 'memory.add', () => ({ content: 'x', junk: nested(100_000) }), /nested deeper than 64/],
    ['a deep patch', 'memory.update', () => ({ id: 'whatever-id', patch: { trigger: { kind: 'cue', cue: 'z', deep: nested(3000) } } }), /nested deeper than 64/],
    ['a deep list filter', 'memory.list', () => ({ tags: nested(5000) }), /nested deeper than 64/],
    ['a deep recall', 'recall.run', () => ({ query: 'deploy', owner: nested(5000) }), /nested deeper than 64/],
    ['a trigger 65 deep (just past the limit)', 'memory.add', () => ({ content: 'x', type: 'intent', trigger: { kind: 'cue', cue: 'z', deep: nested(64) } }), /nested deeper than 64/],
    ['valid_from -1e300', 'memory.add', () => ({ content: 'x', valid_from: -1e300 }), /valid_from must be epoch seconds/],
    ['created_at 1e20', 'memory.add', () => ({ content: 'x', created_at: 1e20 }), /created_at must be epoch seconds/],
    ['importance 1e308', 'memory.add', () => ({ content: 'x', importance: 1e308 }), /importance/],
    ['a 200,000-character mood', 'memory.add', () => ({ content: 'x', mood: 'm'.repeat(200_000) }), /mood/],
    ['content over the cap', 'memory.add', () => ({ content: 'c'.repeat(LIMITS.maxContentChars + 1) }), /content/],
    ['a __proto__ key in a trigger', 'memory.add', () => JSON.parse('{"content":"x","type":"intent","trigger":{"kind":"cue","cue":"z","__proto__":{"polluted":1}}}'), /__proto__/],
    ['a reference captured in year 1e6', 'memory.add', () => ({ content: 'x', references: [{ kind: 'var', key: 'plan', captured_at: 3e13 }] }), /captured_at/],
  ];

  for (const [name, method, input, message] of cases) {
    it(`refuses ${name} on ${method} as bad_input, writing nothing`, async () => {
      const path = freshStorePath();
      const session = await apiOn(path);
      const before = rows(path);
      const r = await invoke(session, method, input());
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('bad_input');
        expect(r.error.message).toMatch(message);
      }
      expect(rows(path)).toBe(before);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      expect((await call(session, 'recall.run', { query: 'deploy' })).items.length).toBe(1);
    });
  }

  it('accepts a trigger within the limits (64 deep) and reads it back', async () => {
    const session = await apiOn(freshStorePath());
    const m = await call(session, 'memory.add', { content: 'x', type: 'intent', trigger: { kind: 'cue', cue: 'z', deep: nested(62) } });
    expect((await call(session, 'memory.get', { id: m.id })).memory.trigger).toMatchObject({ kind: 'cue', cue: 'z' });
  });
});

describe('the MCP door enforces the limits (issue 13 item 1)', () => {
  it('refuses deep, oversized and prototype-keyed arguments with a tool error and writes nothing', async () => {
    const path = freshStorePath();
    const agent = agentOn(path, 'coder@1');
    const mcp = await connectInProcess(agent);
    cleanup.push(() => agent.close(), () => mcp.close());
    await mcp.call('remember', { content: 'deploys go through the release script' });
    const before = rows(path);
    const bad: [string, Record<string, unknown>][] = [
      ['remember', { content: 'x', tags: nested(100_000) }],
      ['remember', { content: 'x', title: nested(1200) }],
      ['intent_add', { content: 'x', trigger: { kind: 'cue', cue: 'z', deep: nested(1200) } }],
      ['intent_add', { content: 'x', trigger: { kind: 'time', fire_at: -1e300 } }],
      ['intent_add', { content: 'x', trigger: { kind: 'cue', cue: 'c'.repeat(10_000) } }],
      ['remember', { content: 'x'.repeat(200_000) }],
      ['recall', { query: 'deploy', owner: nested(5000) }],
    ];
    for (const [i, [tool, args]] of bad.entries()) {
      const r = await mcp.call(tool, args);
      expect(r.isError, `case ${i} (${tool})`).toBe(true);
      expect(textOf(r)).not.toMatch(/Maximum call stack|internal/);
    }
    expect(rows(path)).toBe(before);
    // An own `__proto__` key (as JSON.parse makes it) never reaches a prototype, whatever the SDK does with it.
    await mcp.call('remember', JSON.parse('{"content":"deploy notes","__proto__":{"polluted":1}}') as Record<string, unknown>);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(dataOf(await mcp.call('recall', { query: 'deploy' })).results.length).toBeGreaterThanOrEqual(1);
  });
});

describe('the CLI door (add) uses the API limits', () => {
  it('mnemo add refuses importance 1e308 with exit 2 and writes nothing', async () => {
    const path = freshStorePath();
    expect((await runCli(['init', path])).code).toBe(0);
    const r = await runCli(['add', path, 'hello', '--importance', '1e308']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/importance/);
    expect(rows(path)).toBe(0);
  });
});

describe('the other write doors use the same limits', () => {
  it('beliefs.ingest refuses an observation time outside 1970..9999, writing nothing', async () => {
    const path = freshStorePath();
    const session = await apiOn(path);
    for (const t of [-1e300, 1e300, -1]) {
      const r = await invoke(session, 'beliefs.ingest', { observations: [{ entity: 'svc', attribute: 'owner', value: 'ana', t: T0 }, { entity: 'svc', attribute: 'owner', value: 'bo', t }] });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatchObject({ code: 'bad_input', message: expect.stringMatching(/t must be epoch seconds/) });
    }
    const db = new Database(path, { readonly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE name = 'mnemo_deltas'").all();
      if (tables.length) expect(db.prepare('SELECT count(*) AS n FROM mnemo_deltas').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('a reflection plan cannot create a memory beyond the limits', async () => {
    const session = await apiOn(freshStorePath());
    const plan = (await call(session, 'reflect.plan', {})) as unknown as { groups: { op: string; ops: unknown[] }[] };
    const episode = (over: Record<string, unknown>) => ({
      id: 'op-forged',
      op: 'episode',
      reason: 'forged',
      memory: { id: 'forged-000001', type: 'episode', title: null, content: 'forged', owner: '', importance: 5, tags: [], created_at: T0, edges: [], ...over },
    });
    for (const [over, field] of [
      [{ importance: 1e308 }, /importance/],
      [{ created_at: -1e300 }, /created_at/],
      [{ content: 'c'.repeat(LIMITS.maxContentChars + 1) }, /content/],
    ] as const) {
      const forged = { ...plan, groups: [...plan.groups, { op: 'episode', name: 'forged', ops: [episode(over)], ms: 0, notes: {} }] };
      const r = await invoke(session, 'reflect.apply', { plan: forged });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatchObject({ code: 'bad_input', message: expect.stringMatching(field) });
    }
    expect((await invoke(session, 'memory.get', { id: 'forged-000001' })).ok).toBe(false);
  });
});
