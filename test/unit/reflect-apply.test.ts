/**
 * Reflection as a reviewable plan: a dry run writes nothing, apply refuses a changed store, applies
 * exactly the accepted ops with their dependencies, is one undoable journal entry, and an
 * interrupted apply resumes to the uninterrupted result.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { linkMemories } from '../../core/engine/memory-ops.js';
import { applyPlan } from '../../core/reflect/apply.js';
import { planOps, planReflection } from '../../core/reflect/plan.js';
import type { LinkOp } from '../../core/reflect/types.js';
import { expected, fixtureCopy } from '../../support/fixture.js';
import { dumpStore, openAt } from '../../support/reflect.js';
import { allMemories } from '../../core/store/queries/memory-lookups.js';
import { maintenanceHistory } from '../../core/store/queries/maintenance-log.js';

const NOW: number = expected().now;
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

describe('dry run', () => {
  it('writes nothing: the file hash and data_version are unchanged', async () => {
    const path = fixtureCopy();
    const before = sha(path);
    const engine = openAt(path, NOW);
    const dv = engine.store.dataVersion();
    const plan = await planReflection(engine);
    expect(plan.report.merged).toBeGreaterThan(0);
    expect(engine.store.dataVersion()).toBe(dv);
    expect(plan.store.data_version).toBe(dv);
    expect(engine.store.hasMnemo()).toBe(false);
    engine.close();
    expect(sha(path)).toBe(before);
  });

  it('steps op by op with until', async () => {
    const engine = openAt(fixtureCopy(), NOW);
    const merge = await planReflection(engine, { until: 'merge' });
    expect(merge.groups.map((g) => g.op)).toEqual(['merge']);
    const rescore = await planReflection(engine, { until: 'rescore' });
    expect(rescore.groups.map((g) => g.op)).toEqual(['merge', 'link', 'rescore']);
    // The step plan's merge group is the full plan's merge group.
    const full = await planReflection(engine);
    expect(merge.groups[0]!.ops).toEqual(full.groups[0]!.ops);
    engine.close();
  });
});

describe('apply', () => {
  it('refuses a store that changed since planning and offers a re-plan', async () => {
    const engine = openAt(fixtureCopy(), NOW);
    const plan = await planReflection(engine);
    const [a, b] = allMemories(engine.store).slice(0, 2);
    linkMemories(engine, a!.id, b!.id, 'supports', 0.5);
    await expect(applyPlan(engine, plan)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('Re-plan') });
    engine.close();
  });

  it('is one journal entry that undo reverts row for row, and a second apply of the same plan is refused', async () => {
    const path = fixtureCopy();
    const engine = openAt(path, NOW);
    engine.store.ensureMnemo();
    const before = dumpStore(path);
    const plan = await planReflection(engine);
    const res = await applyPlan(engine, plan);
    expect(res.change_id).not.toBeNull();
    const history = engine.store.journal.history();
    expect(history.filter((c) => c.kind === 'reflect.apply')).toHaveLength(1);
    expect(maintenanceHistory(engine.store, 1)[0]!.kind).toBe('reflect');
    expect(dumpStore(path)).not.toEqual(before);
    await expect(applyPlan(engine, plan)).rejects.toThrow(/already applied as change/);
    engine.store.journal.undo(res.change_id!);
    expect(dumpStore(path)).toEqual(before);
    engine.store.journal.redo();
    engine.close();
  });

  it('refuses to undo when a later change touched the same rows', async () => {
    const engine = openAt(fixtureCopy(), NOW);
    const plan = await planReflection(engine);
    const res = await applyPlan(engine, plan);
    const merge = plan.groups[0]!.ops[0]!;
    const anchor = merge.op === 'merge' ? merge.anchor : '';
    const other = allMemories(engine.store).find((m) => m.id !== anchor)!;
    const later = linkMemories(engine, anchor, other.id, 'causes', 0.3);
    expect(() => engine.store.journal.undo(res.change_id!)).toThrow(new RegExp(`later change #${later.changeId}`));
    engine.store.journal.undo(later.changeId!);
    expect(engine.store.journal.undo(res.change_id!).state).toBe('undone');
    engine.close();
  });

  it('applies exactly the accepted ops; dropping merges drops the links that only their archiving let in', async () => {
    const engine = openAt(fixtureCopy(), NOW);
    const plan = await planReflection(engine);
    const ops = planOps(plan);
    const dependent = ops.find((o): o is LinkOp => o.op === 'link' && o.window.position + o.window.displaced.length >= o.window.k)!;
    expect(dependent).toBeDefined();
    const droppedMerges = new Set(dependent.window.displaced.map((d) => d.by));
    const accepted = ops.filter((o) => !droppedMerges.has(o.id)).map((o) => o.id);
    const res = await applyPlan(engine, plan, { accepted });
    const skip = res.skipped.find((s) => s.id === dependent.id);
    expect(skip?.reason).toMatch(/depends on dropped/);
    for (const m of droppedMerges) expect(skip!.reason).toContain(m);
    expect(res.applied).not.toContain(dependent.id);
    for (const m of droppedMerges) expect(res.applied).not.toContain(m);
    // The dups of the dropped merges stay live; the edge was not written.
    expect(engine.store.neighbors(dependent.src).some((e) => e.target_id === dependent.dst && e.type === 'related')).toBe(false);
    engine.close();
  });

  it('an interrupted apply leaves a consistent store, and applying the plan again converges to the uninterrupted result', async () => {
    const full = fixtureCopy();
    const e0 = openAt(full, NOW);
    const plan = await planReflection(e0);
    await applyPlan(e0, plan);
    e0.close();
    const want = dumpStore(full);
    const total = planOps(plan).length;
    for (const stopAt of [3, 15, 80, total - 4]) {
      const path = fixtureCopy();
      const engine = openAt(path, NOW);
      let n = 0;
      const first = await applyPlan(engine, plan, { shouldStop: () => n++ >= stopAt });
      expect(first.report.interrupted).toBe(true);
      expect(first.applied.length).toBe(stopAt);
      const second = await applyPlan(engine, plan);
      expect(second.resumed_from).toBe(stopAt);
      expect(second.report.interrupted).toBe(false);
      engine.close();
      expect(dumpStore(path), `stopped at ${stopAt}`).toEqual(want);
    }
  });
});

describe('interrupting a plan and the API door', () => {
  it('a stopped plan is marked interrupted, and is itself a valid (shorter) plan', async () => {
    const engine = openAt(fixtureCopy(), NOW);
    let calls = 0;
    const plan = await planReflection(engine, { shouldStop: () => ++calls > 200 });
    expect(plan.report.interrupted).toBe(true);
    expect(plan.report.stopped_in).toBe('form_edges');
    expect(plan.groups.map((g) => g.op)).toEqual(['merge', 'link']);
    const res = await applyPlan(engine, plan);
    expect(res.report.merged).toBe(plan.report.merged);
    expect(res.report.edges_added).toBe(plan.report.edges_added);
    engine.close();
  });

  it('a plan stopped while loading (the neighbour join polls the callback) is an empty interrupted plan', async () => {
    const engine = openAt(fixtureCopy(), NOW);
    for (const workers of [1, 2]) {
      const plan = await planReflection(engine, { shouldStop: () => true, workers });
      expect(plan.report.interrupted).toBe(true);
      expect(plan.report.stopped_in).toBe('load');
      expect(plan.groups).toEqual([]);
    }
    engine.close();
  });

  it('reflect.plan keeps the plan so reflect.apply can take its id and the accepted ops', async () => {
    const { ApiSession } = await import('../../core/api/context.js');
    const { call, invoke } = await import('../../core/api/service.js');
    const { fixedClock } = await import('../../core/clock.js');
    const s = new ApiSession({ clock: fixedClock(NOW) });
    s.open(fixtureCopy());
    const plan = await call(s, 'reflect.plan', { until: 'merge' });
    expect((await call(s, 'reflect.progress', {})).running).toBe(false);
    const res = await call(s, 'reflect.apply', { plan_id: plan.id, accepted: ['m2'] });
    expect(res.applied).toEqual(['m2']);
    const rows = await call(s, 'journal.rows', { change_id: res.change_id! });
    expect(rows.change.kind).toBe('reflect.apply');
    expect(rows.rows.length).toBe(2); // the anchor and the archived duplicate
    const bad = await invoke(s, 'reflect.apply', { plan_id: 'nope' });
    expect(bad.ok).toBe(false);
    const unknownOp = await invoke(s, 'reflect.apply', { plan, accepted: ['zz9'] });
    expect(unknownOp.ok ? '' : unknownOp.error.message).toMatch(/not in plan/);
    s.close();
  });
});
