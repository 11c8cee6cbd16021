/**
 * Issue 13, item 2: an intent whose time cannot be formatted (fire_at -1e300) must be refused with
 * nothing written, on the MCP tool, the API and the CLI; and a row with such a time that another
 * writer already stored must not break intents_due (it is skipped, with a warning).
 */
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { agentOn, freshStorePath, T0 } from '../helpers/agents.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../../support/fixture.js';
import { connectInProcess, dataOf, textOf } from '../helpers/mcp.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const BAD_TIMES: unknown[] = [-1e300, 1e300, -1, 253_402_300_800, '0000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z'];

function memoryCount(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM memories').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Writes an intent with an out-of-range time straight into the file, as another writer could. */
function plantBadIntent(path: string, id: string, owner: string, fireAt: number): void {
  const db = new Database(path);
  try {
    const good = db.prepare("SELECT data FROM memories WHERE type = 'intent' LIMIT 1").get() as { data: string };
    const data = JSON.parse(good.data) as Record<string, unknown>;
    Object.assign(data, { id, owner, trigger: { kind: 'time', cue: null, fire_at: fireAt } });
    db.prepare(
      `INSERT INTO memories (id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, data)
       SELECT ?, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, ?, status, ? FROM memories WHERE type = 'intent' LIMIT 1`,
    ).run(id, owner, JSON.stringify(data).replace(/"fire_at":[^,}]+/, `"fire_at": ${fireAt.toExponential()}`));
  } finally {
    db.close();
  }
}

describe('intent times are range-checked (issue 13 item 2)', () => {
  it('MCP intent_add refuses a time outside 1970..9999 and writes nothing, then intents_due still works', async () => {
    const path = freshStorePath();
    const agent = agentOn(path, 'coder@1');
    const mcp = await connectInProcess(agent);
    cleanup.push(() => agent.close(), () => mcp.close());
    await mcp.call('intent_add', { content: 'a good one', trigger: { kind: 'time', fire_at: T0 - 10 } });
    const before = memoryCount(path);
    for (const fire_at of BAD_TIMES) {
      const r = await mcp.call('intent_add', { content: 'x', trigger: { kind: 'time', fire_at } });
      expect(r.isError, `fire_at ${String(fire_at)}`).toBe(true);
      expect(textOf(r)).toMatch(/fire_at/);
      expect(textOf(r)).not.toMatch(/Invalid time value|internal/);
    }
    expect(memoryCount(path)).toBe(before);
    const due = dataOf(await mcp.call('intents_due', {}));
    expect(due.fired.map((f: { content: string }) => f.content)).toEqual(['a good one']);
  });

  it('the API refuses the same times on memory.add (trigger) and intents.due still answers', async () => {
    const path = freshStorePath();
    const session = new ApiSession({ clock: fixedClock(T0) });
    session.open(path, { create: true });
    cleanup.push(() => session.close());
    for (const fire_at of BAD_TIMES.filter((t) => typeof t === 'number')) {
      const r = await invoke(session, 'memory.add', { content: 'remind me', type: 'intent', trigger: { kind: 'time', fire_at } });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatchObject({ code: 'bad_input', message: expect.stringMatching(/trigger\.fire_at/) });
    }
    expect(memoryCount(path)).toBe(0);
    const due = await call(session, 'intents.due', {});
    expect(due.rows).toEqual([]);
  });

  it('a stored intent with an unusable time is skipped with a warning; intents_due, intents.list and the CLI keep working', async () => {
    const path = freshStorePath();
    const warnings: string[] = [];
    const agent = agentOn(path, 'coder@1', { onWarning: (m) => warnings.push(m) });
    cleanup.push(() => agent.close());
    await agent.intentAdd({ content: 'due now', trigger: { kind: 'time', fire_at: T0 - 10 } });
    plantBadIntent(path, 'bad-intent-000001', 'coder@1', -1e300);
    const fired = await agent.intentsDue({});
    expect(fired.map((f) => f.intent.content)).toEqual(['due now']);
    expect(warnings.join('\n')).toMatch(/bad-intent-000001.*fire_at/);

    const session = new ApiSession({ clock: fixedClock(T0), engineOptions: { onWarning: () => {} } });
    session.open(path);
    cleanup.push(() => session.close());
    const list = await call(session, 'intents.list', {});
    expect(list.rows.find((r) => r.id === 'bad-intent-000001')).toMatchObject({ state: 'unscheduled', fire_at: null });
    expect((await call(session, 'intents.due', { now: T0 + 1e6 })).rows).toEqual([]);

    const cli = await runCli(['list', path, '--json']);
    expect(cli.code).toBe(0);
  });

  it('the dry run and the CLI clock take only times in range', async () => {
    const path = freshStorePath();
    const session = new ApiSession({ clock: fixedClock(T0) });
    session.open(path, { create: true });
    cleanup.push(() => session.close());
    const r = await invoke(session, 'intents.due', { now: 1e300 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'bad_input', message: expect.stringMatching(/now must be epoch seconds/) });
    // --now stamps every write (created_at, access times, fired_at): a far one is refused before anything is written.
    const cli = await runCli(['add', path, 'hello', '--now', '1e20']);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/--now must be epoch seconds between 1970 and 9999/);
    expect(memoryCount(path)).toBe(0);
  });

  it('the CLI import refuses a fire_at of -1e300', async () => {
    const dir = tempDir();
    const store = join(dir, 's.sqlite');
    const file = join(dir, 'bad.jsonl');
    writeFileSync(file, `${JSON.stringify({ id: 'intent-bad-1', type: 'intent', content: 'x', created_at: T0, trigger: { kind: 'time', fire_at: -1e300 } })}\n`);
    expect((await runCli(['init', store])).code).toBe(0);
    const r = await runCli(['import', store, file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 1: trigger\.fire_at: fire_at must be epoch seconds/);
    expect(memoryCount(store)).toBe(0);
  });
});
