/**
 * Issue 37: an agent's `reflect` while other sessions recall the same store. A recall writes access
 * bookkeeping (strength, recency, the access ring) to the rows it returns; that must not make the
 * reflection's apply refuse its plan, while a real change to a memory or an edge in between still
 * must. On the code before this test, the apply after a recall failed with "conflict: the store
 * changed since plan … was made".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { openStore, type AgentMemory } from '../../core/index.js';
import type { Engine } from '../../core/engine/engine.js';
import { applyPlan } from '../../core/reflect/apply.js';
import { Fingerprinter, type RawMemoryRow } from '../../core/reflect/fingerprint.js';
import { touched } from '../../core/reflect/ops.js';
import { planOps, planReflection } from '../../core/reflect/plan.js';
import type { MergeOp, ReflectionPlan } from '../../core/reflect/types.js';
import { expected, fixtureCopy } from '../../support/fixture.js';
import { dumpStore, openAt } from '../../support/reflect.js';
import { allMemories } from '../../core/store/queries/memory-lookups.js';

const NOW: number = expected().now;
const opened: { close(): void }[] = [];
afterEach(() => {
  for (const o of opened.splice(0)) o.close();
});

/** An agent on its own connection; `owner` as the memory it works on, so it may see and write it. */
function agent(path: string, session: string, owner = ''): AgentMemory {
  const a = openStore(path, { clock: fixedClock(NOW), session, owner, onWarning: () => {} });
  opened.push(a);
  return a;
}

async function planned(): Promise<{ path: string; engine: Engine; plan: ReflectionPlan; merge: MergeOp }> {
  const path = fixtureCopy();
  const engine = openAt(path, NOW);
  opened.push(engine);
  const plan = await planReflection(engine);
  const merge = planOps(plan).find((o): o is MergeOp => o.op === 'merge');
  expect(merge, 'the fixture plans at least one merge').toBeDefined();
  return { path, engine, plan, merge: merge! };
}

/** The access counts of the given memories, read from the file. */
function accessCounts(path: string, ids: readonly string[]): Map<string, number> {
  const rows = dumpStore(path).memories as { id: string; access_count: number }[];
  return new Map(rows.filter((r) => ids.includes(r.id)).map((r) => [r.id, r.access_count]));
}

describe('a reflection plan beside other sessions that recall', () => {
  it('applies after another session recalled the very memories the plan merges', async () => {
    const { path, engine, plan, merge } = await planned();
    const ids = touched(merge);
    const before = accessCounts(path, ids);
    const anchor = engine.store.get(merge.anchor)!;
    const got = await agent(path, 'recaller', anchor.owner).recall(anchor.content, { k: 10 });
    expect(got.map((r) => r.id)).toContain(merge.anchor);
    // The recall did write to a row the plan merges: the bookkeeping the apply must see past.
    expect(accessCounts(path, ids).get(merge.anchor)).toBeGreaterThan(before.get(merge.anchor)!);

    const res = await applyPlan(engine, plan);
    expect(res.change_id).not.toBeNull();
    expect(res.applied).toContain(merge.id);
    expect(engine.store.get(merge.dup)!.archived).toBe(true);
  });

  it('still refuses the plan when another session changed a memory it merges', async () => {
    const { path, engine, plan, merge } = await planned();
    await agent(path, 'editor', engine.store.get(merge.dup)!.owner).updateMemory(merge.dup, { content: 'rewritten by another session meanwhile' });
    const before = dumpStore(path);
    await expect(applyPlan(engine, plan)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('changed since plan') });
    expect(dumpStore(path)).toEqual(before);
  });

  it("still refuses the plan when another session drew an edge from a memory it merges", async () => {
    const { path, engine, plan, merge } = await planned();
    const other = allMemories(engine.store).find((m) => m.id !== merge.anchor && m.id !== merge.dup)!;
    agent(path, 'linker', engine.store.get(merge.anchor)!.owner).associate(merge.anchor, other.id, 'supports');
    await expect(applyPlan(engine, plan)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('changed since plan') });
  });

  it("an agent's reflect succeeds while another session recalls the same store in a loop", { timeout: 60_000 }, async () => {
    const path = fixtureCopy();
    const reflector = agent(path, 'reflector');
    const recaller = agent(path, 'recaller');
    const reader = openAt(path, NOW);
    const queries = allMemories(reader.store).slice(0, 20).map((m) => m.content);
    reader.close();
    let done = false;
    let recalls = 0;
    const loop = (async () => {
      // One recall per turn of the event loop, so they land between the reflection's plan and its apply.
      while (!done) {
        await recaller.recall(queries[recalls % queries.length]!, { k: 10 });
        recalls++;
        await new Promise((r) => setImmediate(r));
      }
    })();
    try {
      const out = await reflector.reflect();
      expect(out.change_id).not.toBeNull();
      expect(out.applied).toBeGreaterThan(0);
    } finally {
      done = true;
      await loop;
    }
    expect(recalls).toBeGreaterThan(0);
  });
});

describe('what the fingerprint leaves out', () => {
  const usage = (n: number) =>
    `"strength": ${n}, "reinforcement_count": 0, "created_at": 1.5, "last_accessed_at": ${n}.5, "access_log": [{"ts": ${n}.5, "channel": "recalled"}], "access_count": ${n}, "recalled_count": ${n}, "searched_count": 0, "injected_count": 0, "reinforced_count": 0, "deref_count": 0`;
  const row = (data: string, n: number): RawMemoryRow =>
    ({ rowid: 1, id: 'a', type: 'info', content: 'c', importance: 5, salience: 0.5, strength: n, created_at: 1.5, last_accessed: n + 0.5, access_count: n, archived: 0, owner: '', status: null, embedding: null, data }) as RawMemoryRow;
  const digest = (r: RawMemoryRow) => {
    const f = new Fingerprinter();
    f.row(r);
    return f.digest();
  };

  it('ignores access bookkeeping in a dump laid out as nooa writes it, but not a title change', () => {
    const nooa = (n: number, title = 't') => `{"id": "a", "type": "info", "title": "${title}", "content": "c", "mood": null, ${usage(n)}, "source_task_ref": null, "tags": []}`;
    expect(digest(row(nooa(2), 2))).toBe(digest(row(nooa(1), 1)));
    expect(digest(row(nooa(1, 'u'), 1))).not.toBe(digest(row(nooa(1), 1)));
  });

  it('hashes a dump in another order whole, so nothing else can be cut out with the bookkeeping', () => {
    // A title between the access fields: cutting the usual span would hide a change to it.
    const odd = (n: number, title: string) => usage(n).replace('"access_count"', `"title": "${title}", "access_count"`);
    const data = (n: number, title = 't') => `{"id": "a", ${odd(n, title)}, "source_task_ref": null}`;
    expect(digest(row(data(1, 'u'), 1))).not.toBe(digest(row(data(1), 1)));
    expect(digest(row(data(2), 2))).not.toBe(digest(row(data(1), 1)));
  });
});
