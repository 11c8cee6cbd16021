/** Why-not answers and replay of logged recalls. */
import { connectionOf } from '../../core/store/sqlite/connection.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import type { Engine } from '../../core/engine/engine.js';
import { memoryHead } from '../../core/model/memory.js';
import { MNEMO_PROFILE } from '../../core/recall/profile.js';
import { recallAndLog } from '../../core/recall/record.js';
import { replay } from '../../core/recall/replay.js';
import { resolveRequest } from '../../core/recall/request.js';
import { whyNot } from '../../core/recall/why-not.js';
import { movableClock, newEngine, NOW, put } from '../helpers/recall-store.js';

let engine: Engine;
afterEach(() => engine?.close());

function store() {
  const clock = movableClock();
  engine = newEngine({ clock });
  const hits = Array.from({ length: 6 }, (_, i) => put(engine, { content: `deploy billing service step ${i}`, importance: 9 - i }));
  const weak = put(engine, { content: 'billing', importance: 1 });
  const miss = put(engine, { content: 'gardening tomatoes in the spring' });
  const foreign = put(engine, { content: 'deploy billing service for coders', owner: 'Coder@c3' });
  const archived = put(engine, { content: 'deploy billing service archived copy' });
  engine.store.setArchived(archived.id, true);
  const reached = put(engine, { content: 'zzz qqq' });
  const hub = put(engine, { content: 'deploy billing hub', importance: 10, edges: [{ target_id: reached.id, type: 'causes', weight: 1, created_at: NOW }] });
  return { clock, hits, weak, miss, foreign, archived, reached, hub };
}

describe('why not', () => {
  it('a memory inside the top k: rank, terms and a non-negative margin', () => {
    const s = store();
    const w = whyNot(engine, resolveRequest(engine, { query: 'deploy billing service', k: 3 }, { k: 10 }), s.hits[0]!.id);
    expect(w.status).toBe('in_top_k');
    expect(w.rank).toBeLessThan(3);
    expect(w.margin!).toBeGreaterThanOrEqual(0);
    expect(w.legs.dense.hit).toBe(true);
    expect(w.legs.sparse.matched).toEqual(['deploy', 'billing', 'service']);
  });

  it('a memory cut by k: its rank among all candidates and how far short it is', () => {
    const s = store();
    const w = whyNot(engine, resolveRequest(engine, { query: 'deploy billing service', k: 2 }, { k: 10 }), s.weak.id.slice(0, 8));
    expect(w.status).toBe('below_k');
    expect(w.rank!).toBeGreaterThanOrEqual(2);
    expect(w.margin!).toBeLessThan(0);
    expect(w.score! - w.kth_score!).toBeCloseTo(w.margin!, 12);
    expect(w.legs.sparse).toMatchObject({ hit: true, matched: ['billing'], missed: ['deploy', 'service'] });
  });

  it('an archived memory and a foreign one were never candidates, and it says why', () => {
    const s = store();
    const req = resolveRequest(engine, { query: 'deploy billing service', k: 3, owner: 'Planner' }, { k: 10 });
    const a = whyNot(engine, req, s.archived.id);
    expect(a.status).toBe('not_candidate');
    expect(a.visibility).toMatchObject({ archived: true, visible: false });
    expect(a.legs.dense.reason).toMatch(/archived/);
    const f = whyNot(engine, req, s.foreign.id);
    expect(f.status).toBe('not_candidate');
    expect(f.visibility.reason).toMatch(/outside the scope/);
    expect(f.legs.spread.reason).toMatch(/outside the owner scope|no edge/);
  });

  it('a memory reached only through spread shows the edge that carried it; at hops 0 it is not ranked', () => {
    const s = store();
    const w1 = whyNot(engine, resolveRequest(engine, { query: 'deploy billing hub', k: 20, hops: 1, profile: 'mnemo' }, { k: 10 }), s.reached.id);
    expect(w1.legs.spread.hit).toBe(true);
    expect(w1.legs.spread.incoming).toEqual([expect.objectContaining({ from: s.hub.id, edge_type: 'causes', status: 'contributed (hop 1)' })]);
    const w0 = whyNot(engine, resolveRequest(engine, { query: 'deploy billing hub', k: 20, hops: 0 }, { k: 10 }), s.reached.id);
    expect(w0.legs.spread.reason).toMatch(/hops = 0/);
    expect(w0.profile).toBe(MNEMO_PROFILE.name);
  });

  it('a memory no keyword reaches: the keyword leg names the tokens', async () => {
    const s = store();
    const session = new ApiSession();
    session.adopt(engine);
    const w = await call(session, 'recall.whyNot', { query: 'deploy billing', target: s.miss.id, k: 3 });
    expect(w.legs.sparse.hit).toBe(false);
    expect(w.legs.sparse.reason).toMatch(/no token \(deploy, billing\)/);
    expect(w.explanation.length).toBeGreaterThan(1);
  });
});

describe('replay', () => {
  it('re-runs a logged recall now and reports how each component moved', () => {
    const s = store();
    recallAndLog(engine, { query: 'deploy billing service', k: 3 }, 'recalled', { owner: 'Planner@a1', session_ref: 's1' });
    const ev = connectionOf(engine.store).prepare("SELECT id, memory_id FROM mnemo_access_events WHERE channel = 'recalled' AND rank = 0").get() as { id: number; memory_id: string };
    // A week later, after the memory was archived and another was reinforced heavily.
    s.clock.advance(7 * 86400);
    const r = replay(engine, ev.id);
    expect(r.rerun).toMatchObject({ query: 'deploy billing service', hops: 1, owner: null, k: 3, assumed: [] });
    expect(r.before.rank).toBe(0);
    expect(r.logged_results.map((x) => x.rank)).toEqual([0, 1, 2]);
    // Each one comes with its head, so the replay names memories by title, not by id.
    for (const x of r.logged_results) expect(x.head).toBe(memoryHead(engine.store.get(x.memory_id)!));
    expect(r.after).not.toBeNull();
    expect(r.rerun.now).toBe(s.clock.now());
    expect(r.delta.rec).toBeCloseTo(r.after!.rec! - r.before.rec!, 3);
    expect(r.after!.rec).not.toBe(r.before.rec); // a week later, recency moved
    expect(r.delta.score).toBeCloseTo(r.after!.score! - r.before.score!, 3);
    engine.store.setArchived(ev.memory_id, true);
    const gone = replay(engine, ev.id);
    expect(gone.after).toBeNull();
    expect(gone.in_top_k_now).toBe(false);
    expect(gone.notes.join(' ')).toMatch(/no longer ranked/);
  });

  it('refuses events without a query and unknown events, writing nothing', async () => {
    const s = store();
    const session = new ApiSession();
    session.adopt(engine);
    await call(session, 'access.deref', { id: s.hits[0]!.id });
    const deref = connectionOf(engine.store).prepare("SELECT id FROM mnemo_access_events WHERE channel = 'deref'").get() as { id: number };
    expect(await invoke(session, 'access.replay', { event_id: deref.id })).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(await invoke(session, 'access.replay', { event_id: 999999 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
