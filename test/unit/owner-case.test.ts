/**
 * Issue 13 item 6: owners are compared exactly (case-sensitive) at every door. `CODER@9` is another
 * role than `coder`: its memory is neither recalled, spread into, dereferenced, updated nor merged
 * into by `coder@1`, over the library API, the service API and MCP, and the SQL scope agrees with
 * ownerMatches row for row.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentMemory } from '../../core/index.js';
import { invoke } from '../../core/api/service.js';
import { refusedOps } from '../../core/agent/reflect.js';
import { ownerMatches, ownerMayWrite } from '../../core/model/owner.js';
import { planOps, planReflection } from '../../core/reflect/plan.js';
import { ownerClause } from '../../core/store/shared/owner-sql.js';
import { agentOn, freshStorePath } from '../helpers/agents.js';
import { connectInProcess, dataOf, textOf, type McpHandle } from '../helpers/mcp.js';
import { requireMemory } from '../../core/store/queries/memory-lookups.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const CONTENT = 'the deploy pipeline rolls out blue green with a canary gate';

interface Setup {
  path: string;
  mine: AgentMemory;
  other: AgentMemory;
  own: string;
  foreign: string;
}

/** coder@1 and CODER@9 each remember the same words (dedup never crosses roles), and coder@1 draws an edge to CODER@9's. */
async function setup(): Promise<Setup> {
  const path = freshStorePath();
  const mine = agentOn(path, 'coder@1');
  const other = agentOn(path, 'CODER@9');
  cleanup.push(() => mine.close(), () => other.close());
  const foreign = (await other.remember({ content: CONTENT, importance: 4 })).id;
  const own = (await mine.remember({ content: CONTENT, importance: 6 })).id;
  expect(own).not.toBe(foreign);
  mine.associate(own, foreign, 'causes');
  return { path, mine, other, own, foreign };
}

async function mcpFor(agent: AgentMemory): Promise<McpHandle> {
  const mcp = await connectInProcess(agent);
  cleanup.push(() => mcp.close());
  return mcp;
}

describe('owner comparison is exact and case-sensitive', () => {
  it('the SQL scope and ownerMatches agree on every row, case variants included', () => {
    const db = new Database(':memory:');
    cleanup.push(() => db.close());
    const owners = ['', 'coder', 'coder@1', 'coder@x@y', 'CODER@9', 'Coder', 'CODER', 'coderA', 'coder2@1', 'code@1', 'coder@'];
    db.exec('CREATE TABLE m (owner TEXT NOT NULL)');
    const ins = db.prepare('INSERT INTO m (owner) VALUES (?)');
    for (const o of owners) ins.run(o);
    for (const scope of [null, '', 'coder', 'CODER', 'Coder', 'coder@1', 'CODER@9', 'code']) {
      const oc = ownerClause(scope);
      const got = (db.prepare(`SELECT owner FROM m WHERE ${oc.sql} ORDER BY owner`).all(...oc.params) as { owner: string }[]).map((r) => r.owner);
      expect(got, `scope ${scope}`).toEqual(owners.filter((o) => ownerMatches(o, scope)).sort());
    }
    expect(ownerMatches('CODER@9', 'coder')).toBe(false);
    expect(ownerMayWrite('CODER@9', 'coder@1')).toBe(false);
    expect(ownerMayWrite('coder@2', 'coder@1')).toBe(true);
    expect(ownerMayWrite('', 'coder@1')).toBe(true);
  });

  it('library API: recall, spread, deref, update and reflect never reach the other-case role', async () => {
    const { mine, other, own, foreign } = await setup();
    // Default scope (own role) and an explicit role scope: CODER@9's memory is not a candidate, nor reached by spread.
    for (const opts of [{ k: 10, hops: 2 }, { k: 10, hops: 2, owner: 'coder' }]) {
      const ids = (await mine.recall('deploy pipeline canary gate', opts)).map((r) => r.id);
      expect(ids).toContain(own);
      expect(ids).not.toContain(foreign);
    }
    expect((await mine.search('deploy pipeline canary gate', { k: 10 })).map((r) => r.id)).not.toContain(foreign);
    // Naming the other role by its exact spelling still reads it (reads across roles are allowed when asked for).
    expect((await mine.recall('deploy pipeline canary gate', { k: 10, owner: 'CODER' })).map((r) => r.id)).toContain(foreign);
    expect(mine.deref(`memory:${foreign}`)).toMatch(/not visible|DANGLING/i);
    await expect(mine.updateMemory(foreign, { importance: 9 })).rejects.toMatchObject({ code: 'permission' });
    // (Recalling it under "CODER" above strengthened it: that read was CODER's to make.)
    const before = requireMemory(other.engine.store, foreign);
    const out = await mine.reflect();
    const after = requireMemory(other.engine.store, foreign);
    expect(after.archived).toBe(false);
    expect({ strength: after.strength, importance: after.importance, reinforcement_count: after.reinforcement_count }).toEqual({
      strength: before.strength,
      importance: before.importance,
      reinforcement_count: before.reinforcement_count,
    });
    expect(out.refused).toEqual([]);
    // And the reverse: CODER@9's reflection leaves coder@1's memory alone.
    const mineBefore = requireMemory(mine.engine.store, own);
    await other.reflect();
    const mineAfter = requireMemory(mine.engine.store, own);
    expect({ archived: mineAfter.archived, strength: mineAfter.strength, importance: mineAfter.importance }).toEqual({
      archived: mineBefore.archived,
      strength: mineBefore.strength,
      importance: mineBefore.importance,
    });
  });

  it('service API: recall, explain and list with owner "coder" leave CODER@9 out', async () => {
    const { mine, own, foreign } = await setup();
    for (const method of ['recall.run', 'recall.explain', 'recall.search'] as const) {
      const res = await invoke(mine.session, method, { query: 'deploy pipeline canary gate', k: 10, owner: 'coder' });
      expect(res.ok, method).toBe(true);
      const ids = (res as { value: { rows: { id: string }[] } }).value.rows.map((r) => r.id);
      expect(ids, method).toContain(own);
      expect(ids, method).not.toContain(foreign);
    }
    const list = await invoke(mine.session, 'memory.list', { owner: 'coder', limit: 100 });
    expect(list.ok).toBe(true);
    const listed = (list as { value: { rows: { id: string }[] } }).value.rows.map((r) => r.id);
    expect(listed).toContain(own);
    expect(listed).not.toContain(foreign);
  });

  it('MCP: recall, deref, update_memory and reflect treat CODER@9 as another role', async () => {
    const { mine, other, own, foreign } = await setup();
    const mcp = await mcpFor(mine);
    const ids = (r: { results: { id: string }[] }) => r.results.map((x) => x.id);
    const recalled = ids(dataOf(await mcp.call('recall', { query: 'deploy pipeline canary gate', k: 10, hops: 2 })));
    expect(recalled).toContain(own);
    expect(recalled).not.toContain(foreign);
    expect(textOf(await mcp.call('deref', { ref: `memory:${foreign}` }))).toMatch(/not visible|DANGLING/i);
    const upd = await mcp.call('update_memory', { memory_id: foreign, importance: 'HIGH' });
    expect(upd.isError).toBe(true);
    expect(textOf(upd)).toMatch(/cross-owner writes are not allowed/);
    const before = requireMemory(other.engine.store, foreign);
    dataOf(await mcp.call('reflect', {}));
    const after = requireMemory(other.engine.store, foreign);
    expect({ archived: after.archived, strength: after.strength, importance: after.importance }).toEqual({
      archived: before.archived,
      strength: before.strength,
      importance: before.importance,
    });
  });

  it('reflection as an agent refuses every planned op that would write another role\'s memory', async () => {
    const { mine, own, foreign } = await setup();
    // A plan over everyone (as the operator would make) merges the two duplicates across roles.
    const plan = await planReflection(mine.engine, { scope: null });
    const merge = planOps(plan).find((o) => o.op === 'merge' && [o.anchor, o.dup].includes(foreign) && [o.anchor, o.dup].includes(own));
    expect(merge).toBeDefined();
    expect(refusedOps(mine.engine, plan, 'coder@1')).toContain(merge!.id);
    expect(refusedOps(mine.engine, plan, 'CODER@9')).toContain(merge!.id);
    expect(refusedOps(mine.engine, plan, '')).toContain(merge!.id); // the unowned writer may not write owned memories either
  });
});
