/**
 * The Overview's data: every facet count equals the Memories list filtered by that facet value
 * (the promise a facet click makes), SQL retention equals the forgetting policy's, the scatter
 * sample, and the new list filters' bad input.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import { DEFAULT_FORGET_POLICY, retention } from '../../core/forget/policy.js';
import { retentionBuckets } from '../../core/observe/overview.js';
import { expected, fixtureCopy } from '../../support/fixture.js';

const NOW = expected().now as number;
let session: ApiSession;
afterEach(() => session?.close());

function open(): ApiSession {
  session = ApiSession.withFrozenClock(NOW);
  session.open(fixtureCopy());
  return session;
}

const total = async (filter: Record<string, unknown>) => (await call(session, 'memory.list', { ...filter, limit: 1 })).total;

describe('overview.facets', () => {
  it('counts what a click on each value lists', async () => {
    open();
    const f = await call(session, 'overview.facets', {});
    expect(f.live).toBe(await total({}));
    expect(f.archived).toBe(await total({ archived: 'archived' }));
    for (const t of f.types) expect(await total({ types: [t.value] })).toBe(t.n);
    for (const o of f.owners) expect(await total({ owners: [o.value] })).toBe(o.n);
    for (const s of f.statuses) expect(await total({ statuses: [s.value] })).toBe(s.n);
    expect(f.edge_types.length).toBeGreaterThan(3);
    for (const e of f.edge_types) expect(await total({ edge_types: [e.value] })).toBe(e.n);
    for (const b of [...f.retention, ...f.idle]) expect(b.n).toBeGreaterThanOrEqual(0);
    for (const b of f.retention) expect(await total({ retention: { min: b.min, max: b.max } })).toBe(b.n);
    for (const b of f.idle) expect(await total({ idle: { min: b.min, max: b.max } })).toBe(b.n);
    // Buckets partition the live memories.
    expect(f.retention.reduce((s, b) => s + b.n, 0)).toBe(f.live);
    expect(f.idle.reduce((s, b) => s + b.n, 0)).toBe(f.live);
  });

  it('buckets retention from the prune threshold, as the forgetting policy computes it', async () => {
    open();
    expect(retentionBuckets(0.02).map((b) => [b.min, b.max])).toEqual([
      [null, 0.02],
      [0.02, 0.1],
      [0.1, 0.3],
      [0.3, 0.6],
      [0.6, 0.9],
      [0.9, null],
    ]);
    const scatter = await call(session, 'overview.scatter', { sample: 100_000 });
    expect(scatter.sampled).toBe(false);
    expect(scatter.points.length).toBe(scatter.total);
    const rows = await call(session, 'retention.list', { limit: 100_000 });
    const byId = new Map(rows.rows.map((r) => [r.id, r.retention]));
    for (const p of scatter.points) expect(p.retention).toBeCloseTo(byId.get(p.id)!, 12);
    // And against the policy function directly, for one memory.
    const m = (await call(session, 'memory.get', { id: scatter.points[0]!.id })).memory;
    expect(scatter.points[0]!.retention).toBeCloseTo(retention(m, NOW, DEFAULT_FORGET_POLICY), 12);
  });

  it('samples every k-th live memory when asked for fewer points, and filters by retention × importance', async () => {
    open();
    const s = await call(session, 'overview.scatter', { sample: 40 });
    expect(s.sampled).toBe(true);
    expect(s.points.length).toBeLessThanOrEqual(40);
    expect(s.points.length).toBeGreaterThan(20);
    const inRegion = (await call(session, 'overview.scatter', { sample: 100_000 })).points.filter((p) => p.retention >= 0.1 && p.retention < 0.9 && p.importance >= 2 && p.importance < 7).length;
    expect(await total({ retention: { min: 0.1, max: 0.9 }, importance: { min: 2, max: 7 } })).toBe(inRegion);
  });

  it('refuses a range whose min exceeds its max, naming the field', async () => {
    open();
    const r = await invoke(session, 'memory.list', { retention: { min: 0.5, max: 0.1 } });
    expect(r).toMatchObject({ ok: false, error: { code: 'bad_input', details: { issues: [{ path: 'retention', message: expect.stringMatching(/min/) }] } } });
  });

  it('lists the maintenance log newest first', async () => {
    open();
    expect((await call(session, 'overview.maintenance', {})).rows).toEqual([]);
    const plan = await call(session, 'reflect.plan', { until: 'merge' });
    await call(session, 'reflect.apply', { plan_id: plan.id });
    const plan2 = await call(session, 'reflect.plan', { until: 'merge' });
    await call(session, 'reflect.apply', { plan_id: plan2.id });
    const m = await call(session, 'overview.maintenance', { limit: 5 });
    expect(m.rows.map((r) => r.kind)).toEqual(['reflect', 'reflect']);
    for (let i = 1; i < m.rows.length; i++) expect(m.rows[i - 1]!.ts).toBeGreaterThanOrEqual(m.rows[i]!.ts);
  });
});
