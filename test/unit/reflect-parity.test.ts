/**
 * Parity with nooa v0.0.9's deterministic reflection pass on the reference fixture: the dry-run
 * counts equal the reference report, and applying the whole plan yields the reference's `after`
 * snapshot (archived flags, importance within 1e-6, strength, reinforcement_count, edge sets).
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../../core/reflect/apply.js';
import { planReflection } from '../../core/reflect/plan.js';
import type { MergeOp, PruneOp, ReflectionPlan } from '../../core/reflect/types.js';
import type { Engine } from '../../core/engine/engine.js';
import { expected, FIXTURE_AFTER, fixtureCopy } from '../../support/fixture.js';
import { openAt } from '../../support/reflect.js';
import { allMemories } from '../../core/store/queries/memory-lookups.js';

const ref = expected().reflection;
const NOW: number = expected().now;

describe('reflection parity with the reference fixture', () => {
  let engine: Engine;
  let plan: ReflectionPlan;
  beforeAll(async () => {
    engine = openAt(fixtureCopy(), NOW);
    plan = await planReflection(engine);
  });
  afterAll(() => engine.close());

  it('dry-run counts equal the reference report', () => {
    expect(plan.report.merged).toBe(ref.report.merged);
    expect(plan.report.edges_added).toBe(ref.report.edges_added);
    expect(plan.report.rescored).toBe(ref.report.rescored);
    expect(plan.report.pruned).toBe(ref.report.pruned);
    expect(plan.report.interrupted).toBe(false);
  });

  it('merges the same pairs in the same order and prunes the same ids in the same order', () => {
    const merges = plan.groups.find((g) => g.op === 'merge')!.ops as MergeOp[];
    expect(merges.map((m) => ({ dup: m.dup, into: m.anchor }))).toEqual(ref.derived.merged);
    const prunes = plan.groups.find((g) => g.op === 'prune')!.ops as PruneOp[];
    expect(prunes.map((p) => p.memory)).toEqual(ref.derived.pruned_ids);
  });

  it('applying the whole plan yields the reference after-snapshot', async () => {
    const res = await applyPlan(engine, plan);
    expect(res.skipped).toEqual([]);
    expect(res.adjusted).toEqual([]);
    expect(res.report.merged).toBe(ref.report.merged);
    expect(res.report.edges_added).toBe(ref.report.edges_added);
    const byId = new Map<string, any>(ref.after.map((r: any) => [r.id, r])); // eslint-disable-line @typescript-eslint/no-explicit-any
    const all = allMemories(engine.store, { includeArchived: true });
    expect(all.length).toBe(byId.size);
    for (const m of all) {
      const want = byId.get(m.id);
      expect(m.archived, m.id).toBe(want.archived);
      expect(Math.abs(m.importance - want.importance), m.id).toBeLessThanOrEqual(1e-6);
      expect(m.salience, m.id).toBe(want.salience);
      expect(m.confidence, m.id).toBe(want.confidence);
      expect(m.strength, m.id).toBe(want.strength);
      expect(m.reinforcement_count, m.id).toBe(want.reinforcement_count);
      const edges = m.edges.map((e) => [e.target_id, e.type, e.weight]).sort((a, b) => String(a).localeCompare(String(b)));
      const wantEdges = [...want.edges].sort((a: unknown[], b: unknown[]) => String(a).localeCompare(String(b)));
      expect(edges, m.id).toEqual(wantEdges);
    }
  });

  it('writes each memory\'s edges in the reference file\'s order', () => {
    const db = new Database(FIXTURE_AFTER, { readonly: true });
    const refEdges = db.prepare('SELECT src, dst, type, weight FROM memory_edges ORDER BY rowid').all() as { src: string; dst: string; type: string; weight: number }[];
    db.close();
    const bySrc = new Map<string, string[]>();
    for (const e of refEdges) bySrc.set(e.src, [...(bySrc.get(e.src) ?? []), `${e.dst}/${e.type}/${e.weight}`]);
    for (const [src, list] of bySrc) {
      expect(engine.store.neighbors(src).map((e) => `${e.target_id}/${e.type}/${e.weight}`), src).toEqual(list);
    }
  });
});
