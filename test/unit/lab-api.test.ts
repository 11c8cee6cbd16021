/**
 * The Scorer lab over the API: logged recalls as a query set, two profiles side by side (ranks equal
 * explain's under each, term deltas add up to the score delta), proxy-label metrics, a knob sweep,
 * and the limits of each call.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import type { Engine } from '../../core/engine/engine.js';
import { explain } from '../../core/recall/explain.js';
import { rankingMetrics } from '../../core/recall/lab/metrics.js';
import { newEngine, put } from '../helpers/recall-store.js';

let engine: Engine;
afterEach(() => engine?.close());

async function setup(): Promise<ApiSession> {
  engine = newEngine();
  put(engine, { content: 'billing deploy runbook for staging', importance: 1 });
  put(engine, { content: 'billing invoices are sent on friday', importance: 9 });
  put(engine, { content: 'deploy the billing service with the release train', importance: 5 });
  put(engine, { content: 'staging database credentials rotate monthly', importance: 8 });
  put(engine, { content: 'billing owners: the payments team', importance: 2 });
  const session = new ApiSession();
  session.adopt(engine);
  await call(session, 'recall.run', { query: 'billing deploy', k: 3 });
  await call(session, 'recall.run', { query: 'staging', k: 2, owner: '*' });
  // Importance counts for much more in "heavy": the memories rank differently.
  await call(session, 'profiles.save', { name: 'heavy', base: 'mnemo', knobs: { weights: { importance: 3, relevance: 0.2 } } });
  return session;
}

describe('lab.queries', () => {
  it('lists the distinct logged recall queries, newest first', async () => {
    const session = await setup();
    const qs = await call(session, 'lab.queries', {});
    expect(qs.map((q) => q.query).sort()).toEqual(['billing deploy', 'staging']);
    expect(qs.find((q) => q.query === 'billing deploy')?.accesses).toBe(3);
  });
});

describe('lab.compare', () => {
  it('ranks each query as explain does under each profile, with rank moves whose term deltas add up', async () => {
    const session = await setup();
    const r = await call(session, 'lab.compare', { queries: [{ query: 'billing deploy' }], a: 'mnemo', b: 'heavy', k: 4 });
    const q = r.queries[0]!;
    expect(q.a.rows.map((x) => x.id)).toEqual(explain(engine, { query: 'billing deploy', k: 4, profile: 'mnemo' }).rows.map((x) => x.id));
    expect(q.b.rows.map((x) => x.id)).toEqual(explain(engine, { query: 'billing deploy', k: 4, profile: 'heavy' }).rows.map((x) => x.id));
    expect(q.b.rows.map((x) => x.score)).toEqual(explain(engine, { query: 'billing deploy', k: 4, profile: 'heavy' }).rows.map((x) => x.score));
    expect(q.moves.some((m) => m.move === 'up' || m.move === 'down' || m.move === 'new')).toBe(true);
    for (const m of q.moves.filter((x) => x.terms_delta)) {
      const sum = Object.values(m.terms_delta!).reduce((s, v) => s + v, 0);
      expect(Math.abs(sum - m.score_delta!)).toBeLessThanOrEqual(0.002);
      const biggest = Math.max(...Object.values(m.terms_delta!).map(Math.abs));
      expect(Math.abs(m.component_delta!)).toBe(biggest);
    }
    const moved = q.moves.find((m) => m.move === 'up' || m.move === 'down')!;
    expect(moved.by).toBe(Math.abs(moved.rank_a! - moved.rank_b!));
  });

  it('labels by the logged top k (a named proxy) and scores both sides against them', async () => {
    const session = await setup();
    const r = await call(session, 'lab.compare', { queries: [{ query: 'billing deploy' }, { query: 'never asked' }], a: 'mnemo', b: 'heavy', k: 3 });
    expect(r.label_source).toBe('logged-top-k');
    expect(r.label_rule).toMatch(/Proxy labels/);
    const [logged, typed] = r.queries;
    expect(logged!.labels).toHaveLength(3);
    // The store's own profile wrote the log, so it agrees with itself completely.
    expect(logged!.a.metrics.recall).toBe(1);
    expect(logged!.b.metrics).toEqual(rankingMetrics(logged!.b.rows.map((x) => x.id), new Set(logged!.labels), 3));
    expect(typed!.labels).toEqual([]);
    expect(typed!.a.metrics).toEqual({ recall: null, mrr: null, ndcg: null });
    const none = await call(session, 'lab.compare', { queries: [{ query: 'billing deploy' }], a: 'mnemo', b: 'heavy', k: 3, labels: 'none' });
    expect(none.queries[0]!.labels).toEqual([]);
  });

  it.each([
    ['too many queries', { queries: Array.from({ length: 51 }, (_, i) => ({ query: `q${i}` })), a: 'mnemo', b: 'heavy' }],
    ['no queries', { queries: [], a: 'mnemo', b: 'heavy' }],
    ['k too big', { queries: [{ query: 'x' }], a: 'mnemo', b: 'heavy', k: 51 }],
    ['an unknown profile', { queries: [{ query: 'x' }], a: 'mnemo', b: 'ghost' }],
    ['an unknown label source', { queries: [{ query: 'x' }], a: 'mnemo', b: 'heavy', labels: 'oracle' }],
    ['an unknown key in a query', { queries: [{ query: 'x', k: 3 }], a: 'mnemo', b: 'heavy' }],
  ])('refuses %s', async (_what, input) => {
    const session = await setup();
    expect(await invoke(session, 'lab.compare', input)).toMatchObject({ ok: false, error: { code: 'bad_input' } });
  });
});

describe('lab.sweep', () => {
  it('sweeps one knob: the current value is marked and matches the profile, a point at it overlaps fully', async () => {
    const session = await setup();
    const r = await call(session, 'lab.sweep', { queries: [{ query: 'billing deploy' }, { query: 'staging' }], profile: 'mnemo', knob: 'knobs.weights.importance', values: [0, 0.5, 3], k: 3 });
    expect(r.current).toBe(0.5);
    expect(r.points.map((p) => p.value)).toEqual([0, 0.5, 3]);
    expect(r.points[1]!.overlap).toBe(1);
    expect(r.points[1]!.recall).toBe(1);
    expect(r.points[1]!.labelled).toBe(2);
  });

  it('refuses an unknown knob, too many points, and a value the profile schema refuses', async () => {
    const session = await setup();
    const q = [{ query: 'billing' }];
    expect(await invoke(session, 'lab.sweep', { queries: q, profile: 'mnemo', knob: 'knobs.top_k', values: [1] })).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(await invoke(session, 'lab.sweep', { queries: q, profile: 'mnemo', knob: 'knobs.per_hop_decay', values: Array.from({ length: 22 }, (_, i) => i / 22) })).toMatchObject({ ok: false });
    expect(await invoke(session, 'lab.sweep', { queries: q, profile: 'mnemo', knob: 'knobs.per_hop_decay', values: [7] })).toMatchObject({ ok: false, error: { code: 'bad_input' } });
  });
});
