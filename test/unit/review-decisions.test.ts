/**
 * Reviewing a reflection plan: which items follow a rejection (the engine's apply rule, predicted
 * before commit), accepting an item that follows, actions replayed in order, and the engine-side
 * review (summary, pages, counts, commit). The prediction is checked against apply itself on a
 * generated 3,000-memory store in test/store/review-followers.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import type { Engine } from '../../core/engine/engine.js';
import { planReflection } from '../../core/reflect/plan.js';
import type { LinkOp, MergeOp, PlanOp, RescoreOp } from '../../core/reflect/types.js';
import { acceptWithDependencies, decide } from '../../core/review/decisions.js';
import { ReviewedPlan } from '../../core/review/review.js';
import { expected, fixtureCopy } from '../../support/fixture.js';
import { openAt } from '../../support/reflect.js';

const engines: Engine[] = [];
afterEach(() => {
  for (const e of engines.splice(0)) e.close();
});

const win = (position: number, displaced: { id: string; by: string }[] = [], k = 6) => ({ position, k, displaced });
const merge = (id: string, anchor: string, dup: string, w = win(1)): MergeOp => ({
  id,
  op: 'merge',
  anchor,
  dup,
  type: 'info',
  cos: 0.97,
  threshold: 0.95,
  reason: '',
  window: w,
  before: { anchor: { importance: 5, salience: 0, confidence: 0, strength: 1, reinforcement_count: 0 }, dup: { importance: 5, salience: 0, confidence: 0, strength: 1, reinforcement_count: 0 } },
  after: { anchor: { importance: 5, salience: 0, confidence: 0, strength: 2, reinforcement_count: 1 } },
  edges_moved: [],
  refines: { target_id: dup, type: 'refines', weight: 1 },
});
const link = (id: string, src: string, dst: string, w = win(1), depends_on: string[] = []): LinkOp => ({
  id,
  op: 'link',
  src,
  dst,
  type: 'related',
  weight: 0.85,
  cos: 0.85,
  threshold: { min: 0.8, below: 0.95 },
  reason: '',
  window: w,
  depends_on,
});
const rescore = (id: string, memory: string): RescoreOp => ({
  id,
  op: 'rescore',
  memory,
  before: 5,
  after: 6,
  terms: { importance: 5, salience: 0, activation: 0, base: 0.5, raw: 6, floor_applied: false },
  reason: '',
});

describe('decide', () => {
  // m1 archived x, which ranked above l1's target in a window of 6 where l1 sat last: without m1, l1 drops out.
  const ops: PlanOp[] = [merge('m1', 'a', 'x'), merge('m2', 'b', 'y'), link('l1', 'c', 'd', win(5, [{ id: 'x', by: 'm1' }])), link('l2', 'e', 'f', win(2, [{ id: 'x', by: 'm1' }])), link('l3', 'g', 'n', win(1), ['e1']), rescore('r1', 'a')];

  it('accepts everything by default', () => {
    const d = decide(ops, new Set());
    expect([...d.values()].every((x) => x.state === 'accepted' && x.note === null)).toBe(true);
  });

  it('drops what is pushed out of its window or loses an endpoint, and says which rejection it follows', () => {
    const d = decide(ops, new Set(['m1', 'e1']));
    expect(d.get('m1')!.state).toBe('rejected');
    expect(d.get('l1')).toMatchObject({ state: 'follows', because: ['m1'] });
    expect(d.get('l1')!.note).toMatch(/pushes this one out of its 6-window/);
    // Still inside its window with x back: applies.
    expect(d.get('l2')!.state).toBe('accepted');
    expect(d.get('l3')).toMatchObject({ state: 'follows', because: ['e1'] });
    expect(d.get('l3')!.note).toMatch(/endpoint would not exist/);
    // Rescore of the anchor is recomputed at commit.
    expect(d.get('r1')!.state).toBe('accepted');
    expect(d.get('r1')!.note).toMatch(/recomputed at commit: m1/);
    expect(d.get('m2')!.state).toBe('accepted');
  });

  it('accepting an item that follows a rejection accepts what it follows', () => {
    const rejected = acceptWithDependencies(ops, new Set(['m1', 'm2']), ['l1']);
    expect([...rejected]).toEqual(['m2']);
    expect(decide(ops, rejected).get('l1')!.state).toBe('accepted');
  });
});

describe('ReviewedPlan', () => {
  it('replays actions in order (the latest wins) and pages items with their state', async () => {
    const engine = openAt(fixtureCopy(), expected().now);
    engines.push(engine);
    const r = new ReviewedPlan(await planReflection(engine, {}));
    const merges = r.plan.groups.find((g) => g.op === 'merge')!.ops.map((o) => o.id);
    expect(r.counts([]).accepted).toBe(r.ops.length);
    const c = r.counts([{ do: 'reject', group: 'merge' }, { do: 'accept', ids: [merges[0]!] }]);
    expect(c.groups['merge']).toMatchObject({ accepted: 1, rejected: merges.length - 1 });
    expect(r.counts([{ do: 'accept', ids: [merges[0]!] }, { do: 'reject', group: 'merge' }]).groups['merge']!.accepted).toBe(0);
    const page = r.items([{ do: 'reject', ids: [merges[1]!] }], 'merge', 1, 2);
    expect(page.total).toBe(merges.length);
    expect(page.items.map((i) => [i.op.id, i.state])).toEqual([
      [merges[1], 'rejected'],
      [merges[2], 'accepted'],
    ]);
    expect(r.summary().groups.map((g) => g.count)).toEqual(r.plan.groups.map((g) => g.ops.length));
    expect('ops' in r.summary().groups[0]!).toBe(false);
  });
});

describe('review.* methods', () => {
  let session: ApiSession;
  afterEach(() => session?.close());

  it('plans, pages, counts and commits the accepted items as one change; a stale plan is refused', async () => {
    session = ApiSession.withFrozenClock(expected().now);
    session.open(fixtureCopy());
    const s = await call(session, 'review.plan', {});
    expect(s.items).toBe(s.groups.reduce((n, g) => n + g.count, 0));
    const actions = [{ do: 'reject' as const, group: 'prune' as const }];
    const counts = await call(session, 'review.counts', { plan_id: s.id, actions });
    expect(counts.groups['prune']!.rejected).toBe(s.groups.find((g) => g.op === 'prune')!.count);
    expect(counts.accepted_ids).toHaveLength(counts.accepted);
    const items = await call(session, 'review.items', { plan_id: s.id, op: 'link', limit: 5, actions });
    expect(items.items).toHaveLength(5);
    const res = await call(session, 'review.commit', { plan_id: s.id, actions });
    expect(res.accepted).toBe(counts.accepted);
    expect(res.report.pruned).toBe(0);
    expect((await call(session, 'journal.history', { limit: 1 }))[0]).toMatchObject({ id: res.change_id, kind: 'reflect.apply' });
    // The store moved: committing the same plan again is a conflict that says to re-plan.
    expect(await invoke(session, 'review.commit', { plan_id: s.id, actions })).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringMatching(/re-plan/i) } });
    expect(await invoke(session, 'review.items', { plan_id: 'nope', op: 'merge' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await invoke(session, 'review.counts', { plan_id: s.id, actions: [{ do: 'reject' }] })).toMatchObject({ ok: false, error: { code: 'bad_input' } });
  });
});
