import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import { expected, fixtureCopy } from '../../support/fixture.js';

const NOW = expected().now as number;
let session: ApiSession;
afterEach(() => session?.close());

function openFixture(): ApiSession {
  session = ApiSession.withFrozenClock(NOW);
  session.open(fixtureCopy());
  return session;
}

describe('graph.view', () => {
  it('without a focus draws every live memory and only edges between drawn nodes', async () => {
    openFixture();
    const s = expected().summary;
    const g = await call(session, 'graph.view', {});
    expect(g.nodes.length).toBe(s.memories - s.archived);
    expect(g.truncated).toBe(false);
    const ids = new Set(g.nodes.map((n) => n.id));
    for (const e of g.edges) expect(ids.has(e.src) && ids.has(e.dst)).toBe(true);
    const all = await call(session, 'graph.view', { include_archived: true });
    expect(all.nodes.length).toBe(s.memories);
    expect(all.edges.length).toBe(s.edges);
  });

  it('walks the neighbourhood of a focus in both directions, nearest first, and honours the limit', async () => {
    openFixture();
    const { a, b, c } = expected().summary.chain;
    const one = await call(session, 'graph.view', { focus: b, hops: 1, include_archived: true });
    const depth = new Map(one.nodes.map((n) => [n.id, n.depth]));
    expect(depth.get(b)).toBe(0);
    expect(depth.get(a)).toBe(1); // a → b (incoming edge)
    expect(depth.get(c)).toBe(1); // b → c (outgoing edge)
    const limited = await call(session, 'graph.view', { focus: a, hops: 3, limit: 5 });
    expect(limited.nodes.length).toBe(5);
    expect(limited.truncated).toBe(true);
    expect(limited.reachable).toBeGreaterThan(5);
  });

  it('filters by owner scope and edge type', async () => {
    openFixture();
    const { a, b } = expected().summary.chain;
    const scoped = await call(session, 'graph.view', { focus: a, hops: 1, owner: 'Planner@a1' });
    expect(scoped.nodes.map((n) => n.id)).not.toContain(b); // Coder@c3 is not visible to Planner@a1
    expect(scoped.nodes.every((n) => n.owner === '' || n.owner === 'Planner@a1')).toBe(true);
    const causal = await call(session, 'graph.view', { edge_types: ['causes'] });
    expect(causal.edges.length).toBeGreaterThan(0);
    expect(causal.edges.every((e) => e.type === 'causes')).toBe(true);
  });

  it('rejects bad input with a typed error', async () => {
    openFixture();
    expect(await invoke(session, 'graph.view', { hops: 99 })).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/hops/) } });
    expect(await invoke(session, 'graph.view', { focus: 'zzzzzzzz' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});

describe('memory.tag and memory.facets', () => {
  it('tags many memories in one undoable change and counts tags', async () => {
    openFixture();
    const rows = (await call(session, 'memory.list', { limit: 3 })).rows;
    const ids = rows.map((r) => r.id);
    const r = await call(session, 'memory.tag', { ids, add: ['triage'] });
    expect(r.changed.sort()).toEqual([...ids].sort());
    expect(r.change_id).not.toBeNull();
    const facets = await call(session, 'memory.facets', {});
    expect(facets.tags.find((t) => t.value === 'triage')?.n).toBe(3);
    expect((await call(session, 'memory.list', { tags: ['triage'] })).total).toBe(3);
    // Tagging again changes nothing; removing takes it off everywhere in one change.
    expect((await call(session, 'memory.tag', { ids, add: ['triage'] })).changed).toEqual([]);
    const removed = await call(session, 'memory.tag', { ids, remove: ['triage'] });
    expect((await call(session, 'memory.list', { tags: ['triage'] })).total).toBe(0);
    session.engine().store.journal.undo(removed.change_id!);
    expect((await call(session, 'memory.list', { tags: ['triage'] })).total).toBe(3);
  });

  it('refuses an empty tag change and unknown ids without writing', async () => {
    openFixture();
    const id = (await call(session, 'memory.list', { limit: 1 })).rows[0]!.id;
    expect(await invoke(session, 'memory.tag', { ids: [id] })).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(await invoke(session, 'memory.tag', { ids: [id, 'nope-nope-nope'], add: ['x'] })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((await call(session, 'memory.list', { tags: ['x'] })).total).toBe(0);
  });

  it('facets match the fixture summary', async () => {
    openFixture();
    const f = await call(session, 'memory.facets', { archived: 'all' });
    const s = expected().summary;
    expect(Object.fromEntries(f.types.map((t) => [t.value, t.n]))).toEqual(s.by_type);
    expect(Object.fromEntries(f.owners.map((t) => [t.value, t.n]))).toEqual(s.by_owner);
    expect(f.live + f.archived).toBe(s.memories);
  });
});

describe('memory.list text search (in-memory index)', () => {
  it('matches title, content and id prefixes case-insensitively, and follows writes', async () => {
    openFixture();
    const all = (await call(session, 'memory.list', { archived: 'all', limit: 5000 })).rows;
    const titled = all.find((r) => r.title)!;
    const word = titled.title!.split(/\s+/)[0]!.toUpperCase();
    const hits = await call(session, 'memory.list', { text: word, archived: 'all', limit: 5000 });
    expect(hits.rows.map((r) => r.id)).toContain(titled.id);
    for (const r of hits.rows) expect(`${r.title ?? ''} ${r.head}`.toLowerCase().includes(word.toLowerCase()) || r.id.startsWith(word.toLowerCase())).toBe(true);
    expect((await call(session, 'memory.list', { text: titled.id.slice(0, 10) })).rows.map((r) => r.id)).toContain(titled.id);
    expect((await call(session, 'memory.list', { text: 'qqqzzzxxx' })).total).toBe(0);
    const added = await call(session, 'memory.add', { content: 'a quokka reviewed the deploy', title: 'Quokka note' });
    expect((await call(session, 'memory.list', { text: 'QUOKKA' })).rows.map((r) => r.id)).toEqual([added.id]);
    await call(session, 'memory.update', { id: added.id, patch: { title: 'Wombat note', content: 'a wombat reviewed it' } });
    expect((await call(session, 'memory.list', { text: 'quokka' })).total).toBe(0);
    expect((await call(session, 'memory.list', { text: 'wombat note' })).total).toBe(1);
  });
});
