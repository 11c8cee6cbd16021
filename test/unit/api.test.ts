import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { METHOD_NAMES } from '../../core/api/contract/index.js';
import { handlers } from '../../core/api/handlers/index.js';
import { invoke } from '../../core/api/service.js';
import { expected, fixtureCopy } from '../../support/fixture.js';

const NOW = expected().now as number;
let session: ApiSession;
afterEach(() => session?.close());

function openFixture(): ApiSession {
  session = ApiSession.withFrozenClock(NOW);
  session.open(fixtureCopy());
  return session;
}

describe('core/api service', () => {
  it('has a handler for every contract method', () => {
    for (const m of METHOD_NAMES) expect(typeof (handlers as Record<string, unknown>)[m], m).toBe('function');
  });

  it('returns typed errors in an envelope, never a stack', async () => {
    session = new ApiSession();
    const noStore = await invoke(session, 'memory.list', {});
    expect(noStore).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await invoke(session, 'nope.method', {})).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/unknown method/) } });
    openFixture();
    const bad = await invoke(session, 'memory.list', { limit: 0, types: ['thought'] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.message).toMatch(/limit/);
      expect(bad.error.message).toMatch(/types/);
      expect(JSON.stringify(bad)).not.toMatch(/at .*\.ts:\d+/);
    }
  });

  it('lists with filters, paging and sort', async () => {
    openFixture();
    const all = await invoke(session, 'memory.list', { archived: 'all', limit: 5000 });
    expect(all).toMatchObject({ ok: true, value: { total: 160 } });
    const todos = await invoke(session, 'memory.list', { types: ['todo'], statuses: ['open'], archived: 'all' });
    expect(todos.ok && (todos.value as { total: number }).total).toBe(expected().summary.todo_status.open);
    const planner = await invoke(session, 'memory.list', { owner: 'Planner@a1', archived: 'all', limit: 5000 });
    const rows = planner.ok ? (planner.value as { rows: { owner: string }[] }).rows : [];
    expect(new Set(rows.map((r) => r.owner))).toEqual(new Set(['Planner@a1', '']));
    const page = await invoke(session, 'memory.list', { sort: 'importance', dir: 'desc', limit: 3, offset: 0 });
    const imps = page.ok ? (page.value as { rows: { importance: number }[] }).rows.map((r) => r.importance) : [];
    expect(imps).toEqual([...imps].sort((a, b) => b - a));
    const tagged = await invoke(session, 'memory.list', { tags: ['ci'] });
    expect(tagged.ok && (tagged.value as { rows: { tags: string[] }[] }).rows.every((r) => r.tags.includes('ci'))).toBe(true);
    const bad = await invoke(session, 'memory.list', { owner: 'Plan%ner' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_input' } });
  });

  it('adds, updates, archives and restores through the journal', async () => {
    openFixture();
    const added = await invoke(session, 'memory.add', { content: 'Rotate ledger keys', type: 'todo', importance: 'HIGH', tags: ['security'], owner: 'Planner@a1' });
    expect(added).toMatchObject({ ok: true, value: { type: 'todo', status: 'open', importance: 8 } });
    const id = (added as { value: { id: string } }).value.id;
    const upd = await invoke(session, 'memory.update', { id: id.slice(0, 8), patch: { status: 'done', content: 'Rotated ledger keys.' } });
    expect(upd).toMatchObject({ ok: true, value: { changed: ['content', 'status'] } });
    const nonTodo = (await invoke(session, 'memory.list', { types: ['info'], limit: 1 })) as { value: { rows: { id: string }[] } };
    const refused = await invoke(session, 'memory.update', { id: nonTodo.value.rows[0]!.id, patch: { status: 'done' } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/only to todo/) } });
    expect(await invoke(session, 'memory.archive', { ids: [id] })).toMatchObject({ ok: true, value: { changed: [id] } });
    expect(await invoke(session, 'memory.restore', { ids: [id] })).toMatchObject({ ok: true, value: { changed: [id] } });
    const detail = await invoke(session, 'memory.get', { id });
    expect(detail).toMatchObject({ ok: true, value: { labels: { importance: 'HIGH' }, has_embedding: true } });
  });

  it('links and unlinks with typed edges and refuses unknown types', async () => {
    openFixture();
    const rows = ((await invoke(session, 'memory.list', { limit: 2 })) as { value: { rows: { id: string }[] } }).value.rows;
    const [a, b] = rows.map((r) => r.id);
    expect(await invoke(session, 'edge.add', { src: a, dst: b, type: 'causes', weight: 0.4 })).toMatchObject({ ok: true, value: { changed: true } });
    const d = (await invoke(session, 'memory.get', { id: b })) as { value: { incoming: { id: string; type: string }[] } };
    expect(d.value.incoming.some((e) => e.id === a && e.type === 'causes')).toBe(true);
    expect(await invoke(session, 'edge.add', { src: a, dst: b, type: 'befriends' })).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(await invoke(session, 'edge.remove', { src: a, dst: b, type: 'causes' })).toMatchObject({ ok: true, value: { changed: true } });
    expect(await invoke(session, 'edge.remove', { src: a, dst: b, type: 'causes' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('reports store info and basic stats', async () => {
    openFixture();
    const info = await invoke(session, 'store.info', {});
    expect(info).toMatchObject({ ok: true, value: { profile: 'nooa-0.0.9', nooa_schema_version: 2, counts: { memories: 160, archived: 10 }, now: NOW, clock_frozen: true } });
    const stats = await invoke(session, 'stats.basic', {});
    expect(stats).toMatchObject({ ok: true, value: { total: 160, archived: 10, edges: 222, by_type: expected().summary.by_type } });
  });
});
