/**
 * The lab's fit (lab.fit, lab.fitProgress, lab.fitCancel) and its "used later in the session"
 * labels, over the API, on a store whose sessions recall "project <word> status report" and then
 * dereference the fresh one of two memories with that text (test/helpers/tune-store.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { NOW, put } from '../helpers/recall-store.js';
import { loggedStore } from '../helpers/tune-store.js';
import { recallAndLog, touchOne } from '../../core/recall/record.js';

let session: ApiSession | null = null;
afterEach(() => {
  session?.close();
  session = null;
});

const WORDS = ['amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'harbor'];
const queries = WORDS.map((w) => ({ query: `project ${w} status report` }));

async function setup(): Promise<{ session: ApiSession; used: Map<string, string>; path: string }> {
  const { path, used } = loggedStore(WORDS.length, { decoys: false });
  session = new ApiSession({ clock: fixedClock(NOW) });
  session.open(path);
  // Without recency the old twin (same text and importance) ties with the fresh one that sessions used.
  await call(session, 'profiles.save', { name: 'flat', base: 'mnemo', knobs: { weights: { recency: 0 } } });
  return { session, used, path };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the used-later label source', () => {
  it('is the default where the log has used recalls: a query is labelled with what its session used; the proxy stays selectable', async () => {
    const { session, used } = await setup();
    const r = await call(session, 'lab.compare', { queries: queries.slice(0, 2), a: 'mnemo', b: 'flat', k: 3 });
    expect(r.label_source).toBe('used-later');
    expect(r.label_rule).toMatch(/Used later in the session/);
    expect(r.queries.map((q) => q.labels)).toEqual([[used.get('session-0')], [used.get('session-1')]]);
    const proxy = await call(session, 'lab.compare', { queries: queries.slice(0, 1), a: 'mnemo', b: 'flat', k: 3, labels: 'logged-top-k' });
    expect(proxy.label_source).toBe('logged-top-k');
    expect(proxy.queries[0]!.labels).toHaveLength(3);
    // A later session's use reaches the labels (the kept pass is redone once the log grows).
    const late = { owner: 'agent@a2', session_ref: 'late' };
    const other = recallAndLog(session.engine(), { query: queries[0]!.query, k: 3 }, 'recalled', late).rows.find((r) => r.id !== used.get('session-0'))!;
    touchOne(session.engine(), other.id, 'deref', late);
    const again = await call(session, 'lab.compare', { queries: queries.slice(0, 1), a: 'mnemo', b: 'flat', k: 3 });
    expect([...again.queries[0]!.labels].sort()).toEqual([used.get('session-0'), other.id].sort());
    // A query only recalled outside any session: the default falls back to the proxy for it.
    await call(session, 'recall.run', { query: 'project amber', k: 2 });
    const fallback = await call(session, 'lab.compare', { queries: [{ query: 'project amber' }], a: 'mnemo', b: 'flat', k: 2 });
    expect(fallback.label_source).toBe('logged-top-k');
    expect(fallback.queries[0]!.labels).toHaveLength(2);
  });
});

describe('lab.fit', () => {
  it('fits from a slot profile on the labelled queries: held-out metrics beside the start, the trace, and a config profiles.save takes with its diff', async () => {
    const { session } = await setup();
    const r = await call(session, 'lab.fit', { queries, from: 'flat', name: 'flat-fitted', k: 1, knobs: ['knobs.weights.recency'], max_evaluations: 12, held_out_share: 0.25 });
    expect(r.label_source).toBe('used-later');
    expect(r.labelled).toEqual({ train: 6, held_out: 2, unlabelled: 0 });
    expect(r.report.train.base.recall).toBeLessThan(1);
    expect(r.report.held_out!.fitted.recall).toBe(1);
    expect(r.report.objective[0]).toBe(r.report.train.base.recall);
    expect(r.report.objective.at(-1)).toBe(r.report.train.fitted.recall);
    expect(r.diff.map((d) => d.key)).toEqual(['knobs.weights.recency']);
    const saved = await call(session, 'profiles.save', { name: 'flat-fitted', base: 'flat', ...r.config });
    expect(saved.diff).toEqual(r.diff);
  });

  it('reports progress while it runs, refuses a second fit, and a cancel stops it without an answer', async () => {
    const { session } = await setup();
    const running = invoke(session, 'lab.fit', { queries, from: 'flat', name: 'x', k: 1, max_evaluations: 400 });
    let p = await call(session, 'lab.fitProgress', {});
    while (p.evaluation < 3) {
      await nextTurn();
      p = await call(session, 'lab.fitProgress', {});
    }
    expect(p).toMatchObject({ running: true, of: 400, started_at: NOW });
    expect(p.objective).toHaveLength(p.evaluation);
    expect(p.best).toBe(p.objective.at(-1));
    expect(await invoke(session, 'lab.fit', { queries, from: 'flat', name: 'y' })).toMatchObject({ ok: false, error: { code: 'busy' } });
    expect(await call(session, 'lab.fitCancel', {})).toEqual({ cancelled: true });
    expect(await running).toMatchObject({ ok: false, error: { code: 'conflict', details: { cancelled: true } } });
    expect(await call(session, 'lab.fitProgress', {})).toMatchObject({ running: false });
    expect(await call(session, 'lab.fitCancel', {})).toEqual({ cancelled: false });
  });

  it('goes on while another writer adds to the store, and its answer is a profile profiles.save takes', async () => {
    const { session, path } = await setup();
    const running = call(session, 'lab.fit', { queries, from: 'flat', name: 'x', k: 1, knobs: ['knobs.weights.recency'], max_evaluations: 30 });
    while ((await call(session, 'lab.fitProgress', {})).evaluation < 2) await nextTurn();
    // A second connection, as another process would be: it writes while the fit ranks.
    const other = Engine.open(path, { clock: fixedClock(NOW) });
    try {
      put(other, { content: 'project amber status report, a newer copy', importance: 9 });
    } finally {
      other.close();
    }
    const r = await running;
    expect(r.report.evaluations).toBeGreaterThan(2);
    expect((await call(session, 'profiles.save', { name: 'after-write', base: 'flat', ...r.config })).name).toBe('after-write');
  });

  it.each([
    ['too many evaluations', { max_evaluations: 501 }],
    ['too many queries', { queries: Array.from({ length: 201 }, (_, i) => ({ query: `q${i}` })) }],
    ['an unknown knob', { knobs: ['knobs.top_k'] }],
    ['a built-in name for the result', { name: 'nooa-0.0.9' }],
    ['queries without labels', { queries: [{ query: 'never asked' }] }],
    ['a held-out share above one half', { held_out_share: 0.6 }],
  ])('refuses %s, writing nothing', async (_what, patch) => {
    const { session } = await setup();
    const before = await call(session, 'journal.history', {});
    expect(await invoke(session, 'lab.fit', { queries, from: 'flat', name: 'z', max_evaluations: 3, ...patch })).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(await call(session, 'journal.history', {})).toEqual(before);
  });
});
