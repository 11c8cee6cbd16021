/**
 * Issue 13, item 1 (reading): a row another writer stored beyond the limits (JSON nested 1200 deep,
 * past SQLite's JSON nesting limit of 1000; an unknown field or a score component nested deep; a
 * Python NaN) is reported and skipped, never fatal: recall, explain, list, graph.view,
 * memory.facets and intents.* keep answering for every caller.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../../support/fixture.js';
import { connectInProcess, dataOf } from '../helpers/mcp.js';
import { agentOn, T0 } from '../helpers/agents.js';

const NOW = 1_780_000_000;
const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

/**
 * Copies a row of the given type under a new id, with the `data` text edited as another writer
 * (the Python reference, a raw SQL insert) could have written it.
 */
function plantRow(path: string, id: string, type: string, editData: (data: string) => string): void {
  const db = new Database(path);
  try {
    const src = db.prepare('SELECT * FROM memories WHERE type = ? AND archived = 0 LIMIT 1').get(type) as Record<string, unknown>;
    const content = `deploy ${id} ${src['content'] as string}`;
    const data = JSON.stringify({ ...(JSON.parse(src['data'] as string) as object), id, content });
    db.prepare(
      `INSERT INTO memories (id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, embedding, data)
       VALUES (@id, @type, @content, @importance, @salience, @strength, @created_at, @last_accessed, @access_count, 0, @owner, @status, @embedding, @data)`,
    ).run({ ...src, id, content, data: editData(data) });
  } finally {
    db.close();
  }
}

const edit = (data: string, f: (o: Record<string, unknown>) => unknown): string => {
  const o = JSON.parse(data) as Record<string, unknown>;
  f(o);
  return JSON.stringify(o);
};

let path = '';
const warnings: string[] = [];
let session: ApiSession;

beforeAll(async () => {
  path = join(tempDir(), 'hostile.sqlite');
  const made = await runCli(['demo', path, '--size', '120', '--seed', '7', '--now', String(NOW)]);
  expect(made.code).toBe(0);
  // 1200 deep inside the trigger of an intent: SQLite's JSON functions refuse the whole document.
  plantRow(path, 'deep-trigger-1', 'intent', (d) => edit(d, (o) => (o['trigger'] = { kind: 'cue', cue: 'z', deep: JSON.parse(deep(1200)) })));
  // An unknown field 100 deep: readable by SQLite, beyond our limit of 64.
  plantRow(path, 'deep-extra-01', 'info', (d) => edit(d, (o) => (o['mnemo_x'] = JSON.parse(deep(100)))));
  // A top-level __proto__ key, as raw JSON text (JSON.parse makes it an own key).
  plantRow(path, 'proto-key-001', 'info', (d) => d.replace(/\}$/, ',"__proto__":{"polluted":1,"title":"hijacked"}}'));
  // Python's json.dumps writes NaN: JSON5 to SQLite, not JSON to JavaScript.
  plantRow(path, 'python-nan-01', 'info', (d) => d.replace(/"salience":[^,]+/, '"salience":NaN'));
  session = new ApiSession({ clock: fixedClock(NOW), engineOptions: { onWarning: (m) => warnings.push(m) } });
  session.open(path);
}, 60_000);

afterAll(() => session?.close());

describe('rows beyond the limits are reported and skipped, never fatal (issue 13 item 1)', () => {
  it('the planted rows really are unreadable to SQLite (the test is not vacuous)', () => {
    const db = new Database(path, { readonly: true });
    try {
      expect(() => db.prepare("SELECT json_extract(data, '$.title') FROM memories").all()).toThrow(/malformed JSON/);
    } finally {
      db.close();
    }
  });

  it('recall, explain, list, graph.view, memory.facets and intents.* answer, and the bad row is reported', async () => {
    const recall = await call(session, 'recall.run', { query: 'deploy', k: 5 });
    expect(recall.items.length).toBe(5);
    const explain = await call(session, 'recall.explain', { query: 'deploy deep-trigger-1', k: 50 });
    expect(explain).toBeTruthy();
    const list = await call(session, 'memory.list', { text: 'deploy', limit: 500 });
    expect(list.rows.map((r) => r.id)).toEqual(expect.arrayContaining(['deep-trigger-1', 'deep-extra-01', 'python-nan-01']));
    await call(session, 'memory.list', { tags: ['deploy'] });
    await call(session, 'memory.list', { sort: 'importance', dir: 'desc', limit: 5000 });
    const graph = await call(session, 'graph.view', { limit: 5000 });
    expect(graph.nodes.length).toBeGreaterThan(100);
    await call(session, 'graph.view', { focus: 'deep-trigger-1' });
    const facets = await call(session, 'memory.facets', {});
    expect(facets.tags.length).toBeGreaterThan(0);
    const intents = await call(session, 'intents.list', {});
    expect(intents.rows.map((r) => r.id)).toContain('deep-trigger-1');
    await call(session, 'intents.due', { message: 'z', events: ['z'] });
    await call(session, 'todos.list', { status: 'all' });
    await call(session, 'access.list', { limit: 50 });
    const text = warnings.join('\n');
    expect(text).toMatch(/deep-trigger-1: SQLite cannot read its JSON data/);
    expect(text).toMatch(/deep-trigger-1: trigger is beyond the limits/);
  });

  it('the bad rows read with the rest of their fields; a save writes them back within the limits', async () => {
    const one = await call(session, 'memory.get', { id: 'deep-trigger-1' });
    expect(one.memory.trigger).toBeNull();
    expect(one.memory.content).toMatch(/^deploy deep-trigger-1/);
    const extra = await call(session, 'memory.get', { id: 'deep-extra-01' });
    expect(extra.memory.extra?.['mnemo_x']).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/deep-extra-01: mnemo_x is beyond the limits/);
    const proto = await call(session, 'memory.get', { id: 'proto-key-001' });
    expect(Object.getPrototypeOf(proto.memory)).toBe(Object.prototype);
    expect(proto.memory.title).not.toBe('hijacked');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/proto-key-001: __proto__ is beyond the limits/);
    const nan = await call(session, 'memory.get', { id: 'python-nan-01' });
    expect(nan.memory.content).toMatch(/^deploy python-nan-01/);
    await call(session, 'memory.update', { id: 'deep-trigger-1', patch: { title: 'repaired' } });
    const db = new Database(path, { readonly: true });
    try {
      expect(db.prepare("SELECT json_valid(data) AS ok FROM memories WHERE id = 'deep-trigger-1'").get()).toEqual({ ok: 1 });
    } finally {
      db.close();
    }
  });

  it('an agent over MCP and the CLI recall the same store', async () => {
    const agent = agentOn(path, 'planner@1', { clock: fixedClock(T0 + 1e8) });
    const mcp = await connectInProcess(agent);
    try {
      expect(dataOf(await mcp.call('recall', { query: 'deploy', k: 3, owner: '*' })).results.length).toBe(3);
      expect(dataOf(await mcp.call('intents_due', { message: 'z' }))).toBeTruthy();
    } finally {
      await mcp.close();
      agent.close();
    }
    const cli = await runCli(['recall', path, 'deploy', '--now', String(NOW), '--json']);
    expect(cli.code).toBe(0);
    expect(cli.stderr).not.toMatch(/malformed JSON/);
  });
});
