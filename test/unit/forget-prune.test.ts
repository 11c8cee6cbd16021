/** Pruning (archive or delete, dry run, stop callback, undo), the retention list and the forgetting curve. */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import type { Engine } from '../../core/engine/engine.js';
import { retentionCurve } from '../../core/forget/curve.js';
import { DEFAULT_FORGET_POLICY, retention } from '../../core/forget/policy.js';
import { prune } from '../../core/forget/prune.js';
import { retentionList } from '../../core/forget/retention-list.js';
import { recallAndLog } from '../../core/recall/record.js';
import { movableClock, newEngine, NOW, put } from '../helpers/recall-store.js';
import { countMemories } from '../../core/store/queries/memory-lookups.js';

const DAY = 86400;
let engine: Engine;
afterEach(() => engine?.close());

/** Memories 100 days old that nobody read, next to the ones the guards protect. */
function forgettingStore() {
  const clock = movableClock();
  engine = newEngine({ clock });
  const old = { created_at: NOW - 100 * DAY, last_accessed_at: NOW - 100 * DAY };
  const stale = [put(engine, { content: 'old note one', importance: 2, ...old }), put(engine, { content: 'old note two', importance: 2, ...old })];
  const skill = put(engine, { content: 'old skill', type: 'skill', ...old });
  const important = put(engine, { content: 'old but important', importance: 9, ...old });
  const openTodo = put(engine, { content: 'old open todo', type: 'todo', ...old });
  const young = put(engine, { content: 'fresh note', importance: 1, created_at: NOW - 3600, last_accessed_at: NOW - 3600 });
  const linker = put(engine, { content: 'points at a stale one', edges: [{ target_id: stale[0]!.id, type: 'related', weight: 0.5, created_at: NOW }] });
  return { clock, stale, skill, important, openTodo, young, linker };
}

describe('prune', () => {
  it('a dry run lists what goes and writes nothing; apply archives exactly that, undoably', () => {
    const s = forgettingStore();
    const before = countMemories(engine.store);
    const dry = prune(engine, { now: NOW, dryRun: true });
    expect(dry.candidates.map((c) => c.id)).toEqual(s.stale.map((m) => m.id));
    expect(dry.pruned).toEqual([]);
    expect(countMemories(engine.store)).toBe(before);
    const done = prune(engine, { now: NOW });
    expect(done.pruned).toEqual(s.stale.map((m) => m.id));
    expect(countMemories(engine.store)).toBe(before - 2);
    expect(engine.store.get(s.stale[0]!.id)!.archived).toBe(true); // archive is a soft tombstone
    for (const kept of [s.skill, s.important, s.openTodo, s.young]) expect(engine.store.get(kept.id)!.archived).toBe(false);
    engine.store.journal.undo(done.changeId!);
    expect(countMemories(engine.store)).toBe(before);
  });

  it('the delete action removes the rows and the edges into them', () => {
    const s = forgettingStore();
    const res = prune(engine, { now: NOW, action: 'delete' });
    expect(res.pruned).toHaveLength(2);
    expect(engine.store.get(s.stale[0]!.id)).toBeNull();
    expect(engine.store.neighbors(s.linker.id)).toEqual([]);
  });

  it('stops within one item when the stop callback says so, keeping what it pruned', () => {
    forgettingStore();
    let calls = 0;
    const res = prune(engine, { now: NOW, shouldStop: () => ++calls > 1 });
    expect(res.stopped).toBe(true);
    expect(res.pruned).toHaveLength(1);
    expect(res.candidates).toHaveLength(2);
  });

  it('a disabled policy prunes nothing; an owner scope limits the pass', () => {
    forgettingStore();
    expect(prune(engine, { now: NOW, policy: { ...DEFAULT_FORGET_POLICY, enabled: false } }).candidates).toEqual([]);
    expect(prune(engine, { now: NOW, owner: 'Coder@c3', dryRun: true }).candidates).toHaveLength(2); // unowned rows are in every scope
    put(engine, { content: 'old coder note', owner: 'Coder@c3', importance: 1, created_at: NOW - 100 * DAY, last_accessed_at: NOW - 100 * DAY });
    expect(prune(engine, { now: NOW, owner: 'Planner', dryRun: true }).candidates).toHaveLength(2);
    expect(prune(engine, { now: NOW, owner: 'Coder', dryRun: true }).candidates).toHaveLength(3);
  });

  it('through the API: retention.prune with apply false is a dry run', async () => {
    forgettingStore();
    const session = new ApiSession();
    session.adopt(engine);
    const dry = await call(session, 'retention.prune', {});
    expect(dry).toMatchObject({ applied: false, action: 'archive', pruned: [], change_id: null });
    const applied = await call(session, 'retention.prune', { apply: true });
    expect(applied.pruned).toHaveLength(2);
    expect(applied.change_id).toBeGreaterThan(0);
  });
});

describe('retention list and curve', () => {
  it('lists every memory with the guard that keeps it', () => {
    const s = forgettingStore();
    const { rows, total } = retentionList(engine, NOW, { includeArchived: true });
    expect(total).toBe(7);
    expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort());
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(s.skill.id)).toMatchObject({ protected: true, should_prune: false, prune_eta: null, reason: 'type skill is protected' });
    expect(byId.get(s.young.id)!.reason).toMatch(/younger than 24 h/);
    expect(byId.get(s.stale[0]!.id)).toMatchObject({ protected: false, should_prune: true });
    expect(retentionList(engine, NOW, { only: 'should_prune' }).total).toBe(2);
  });

  it('the curve: decays between touches, resets at each, and marks every access', () => {
    const clock = movableClock(NOW - 30 * DAY);
    engine = newEngine({ clock });
    const m = put(engine, { content: 'deploy billing', created_at: NOW - 30 * DAY, last_accessed_at: NOW - 30 * DAY });
    put(engine, { content: 'other' });
    for (const d of [20, 10]) {
      clock.set(NOW - d * DAY);
      recallAndLog(engine, { query: 'deploy billing', k: 1 }, 'recalled', { owner: 'Planner@a1', session_ref: null });
      recallAndLog(engine, { query: 'deploy billing', k: 1 }, 'injected', { owner: 'Planner@a1', session_ref: null });
    }
    clock.set(NOW);
    const c = retentionCurve(engine, m.id);
    expect(c.until).toBe(NOW + 90 * DAY);
    expect(c.retention_now).toBeCloseTo(retention(engine.store.get(m.id)!, NOW), 12);
    expect(c.markers.map((k) => k.channel)).toEqual(['created', 'recalled', 'injected', 'recalled', 'injected']);
    expect(c.markers.filter((k) => k.channel === 'recalled').every((k) => k.origin === 'both' && k.event_id !== null && k.components !== null)).toBe(true);
    expect(c.strength_steps.map((s) => [s.t, s.strength])).toEqual([
      [NOW - 20 * DAY, 2],
      [NOW - 10 * DAY, 3],
    ]);
    const at = (t: number) => c.samples.find((s) => s.t === t)!;
    expect(at(NOW - 20 * DAY).r).toBe(1); // a touch resets retention
    expect(at(NOW - 20 * DAY - 1e-3).r).toBeLessThan(1);
    for (let i = 1; i < c.samples.length; i++) {
      const [a, b] = [c.samples[i - 1]!, c.samples[i]!];
      if (!c.strength_steps.some((s) => s.t > a.t && s.t <= b.t)) expect(b.r).toBeLessThanOrEqual(a.r); // monotone between touches
    }
    expect(c.prune_eta).toBeGreaterThan(NOW);
    expect(c.samples.at(-1)!.r).toBeLessThan(c.retention_now);
  });
});
