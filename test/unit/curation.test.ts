/**
 * Manual curation and journal coverage: merge into a survivor, forget with a tombstone that undo
 * removes, delete; every mutating API method writes one journal entry.
 */
import { describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { addMemory } from '../../core/engine/memory-ops.js';
import { tombstoneFor } from '../../core/store/queries/tombstones.js';
import { join } from 'node:path';
import { tempDir } from '../../support/fixture.js';
import { sqliteAdapterOf } from '../../support/sqlite-adapter.js';
import { requireMemory } from '../../core/store/queries/memory-lookups.js';

const NOW = 1_780_000_000;

function session(): ApiSession {
  const s = new ApiSession({ clock: fixedClock(NOW) });
  s.open(join(tempDir(), 'c.sqlite'), { create: true });
  return s;
}

describe('manual merge', () => {
  it('folds sources into the survivor, applies edits, keeps lineage and archives the sources; undo restores', async () => {
    const s = session();
    const a = await call(s, 'memory.add', { content: 'deploy billing with make deploy', importance: 4, tags: ['deploy'] });
    const b = await call(s, 'memory.add', { content: 'deploy billing using make deploy today', importance: 7, salience: 0.4 });
    const c = await call(s, 'memory.add', { content: 'billing owner is Ana' });
    await call(s, 'edge.add', { src: b.id, dst: c.id, type: 'supports', weight: 0.6 });
    const res = await call(s, 'memory.merge', { ids: [b.id], survivor: a.id, patch: { title: 'Deploying billing' } });
    const m = res.survivor;
    expect(m.importance).toBe(7);
    expect(m.salience).toBe(0.4);
    expect(m.strength).toBe(2);
    expect(m.reinforcement_count).toBe(1);
    expect(m.title).toBe('Deploying billing');
    expect(m.edges.map((e) => [e.target_id, e.type])).toEqual([
      [c.id, 'supports'],
      [b.id, 'refines'],
    ]);
    expect((await call(s, 'memory.get', { id: b.id })).memory.archived).toBe(true);
    await call(s, 'journal.undo', { change_id: res.change_id! });
    expect((await call(s, 'memory.get', { id: b.id })).memory.archived).toBe(false);
    expect((await call(s, 'memory.get', { id: a.id })).memory.title).toBeNull();
    s.close();
  });
});

describe('forget', () => {
  it('deletes, tombstones the content, flags re-adding it, and undo removes the tombstone', async () => {
    const s = session();
    const engine = s.engine();
    const a = await call(s, 'memory.add', { content: 'The staging password is hunter2' });
    const res = await call(s, 'memory.forget', { ids: [a.id] });
    expect(engine.store.exists(a.id)).toBe(false);
    expect(tombstoneFor(sqliteAdapterOf(engine), '  the STAGING password is   hunter2 ')).not.toBeNull();
    const again = await invoke(s, 'memory.add', { content: 'The staging password is hunter2' });
    expect(again.ok).toBe(false);
    if (!again.ok) {
      expect(again.error.code).toBe('conflict');
      expect(again.error.message).toMatch(/forgotten/);
      expect((again.error.details as { tombstone: { memory_id: string } }).tombstone.memory_id).toBe(a.id);
    }
    // On purpose, it can still be added.
    await addMemory(engine, { content: 'The staging password is hunter2' }, { allowForgotten: true });
    const rows = await call(s, 'journal.rows', { change_id: res.change_id! });
    expect(rows.rows.map((r) => r.key.split(':')[0]).sort()).toEqual(['m', 't']);
    const later = engine.store.journal.history(1)[0]!.id;
    await call(s, 'journal.undo', { change_id: later });
    await call(s, 'journal.undo', { change_id: res.change_id! });
    expect(engine.store.exists(a.id)).toBe(true);
    expect(tombstoneFor(sqliteAdapterOf(engine), 'The staging password is hunter2')).toBeNull();
    s.close();
  });
});

describe('journal coverage', () => {
  it('every mutating method writes one journal entry that undo reverts', async () => {
    const s = session();
    const a = await call(s, 'memory.add', { content: 'alpha fact' });
    const b = await call(s, 'memory.add', { content: 'beta fact' });
    const c = await call(s, 'memory.add', { content: 'gamma fact' });
    const calls: [string, unknown][] = [
      ['memory.update', { id: a.id, patch: { importance: 9 } }],
      ['memory.archive', { ids: [b.id] }],
      ['memory.restore', { ids: [b.id] }],
      ['edge.add', { src: a.id, dst: b.id, type: 'causes' }],
      ['edge.remove', { src: a.id, dst: b.id, type: 'causes' }],
      ['edge.addMany', { srcs: [b.id, c.id], dst: a.id, type: 'supports' }],
      ['memory.merge', { ids: [c.id], survivor: a.id }],
      ['memory.delete', { ids: [b.id] }],
      ['memory.forget', { ids: [a.id] }],
    ];
    const kinds: string[] = [];
    for (const [m, input] of calls) {
      const before = (await call(s, 'journal.history', { limit: 1 }))[0]!.id;
      const r = await invoke(s, m, input);
      expect(r.ok, `${m}: ${JSON.stringify(r)}`).toBe(true);
      const head = (await call(s, 'journal.history', { limit: 1 }))[0]!;
      expect(head.id, m).toBe(before + 1);
      kinds.push(head.kind);
    }
    expect(kinds).toEqual(['memory.update', 'memory.archive', 'memory.restore', 'edge.add', 'edge.remove', 'edge.add', 'memory.merge', 'memory.delete', 'memory.forget']);
    // Undo everything newest first: the store returns to the three fresh memories.
    for (const h of await call(s, 'journal.history', { limit: 9 })) await call(s, 'journal.undo', { change_id: h.id });
    const list = await call(s, 'memory.list', { archived: 'all' });
    expect(list.rows.map((r) => [r.id, r.importance, r.archived]).sort()).toEqual(
      [
        [a.id, 5, false],
        [b.id, 5, false],
        [c.id, 5, false],
      ].sort(),
    );
    s.close();
  });
});

describe('bulk link', () => {
  it('links several sources to one target as one change that one undo takes back', async () => {
    const s = session();
    const [t, x, y, z] = [await call(s, 'memory.add', { content: 'target note' }), await call(s, 'memory.add', { content: 'x note' }), await call(s, 'memory.add', { content: 'y note' }), await call(s, 'memory.add', { content: 'z note' })];
    await call(s, 'edge.add', { src: z.id, dst: t.id, type: 'related', weight: 1 });
    const before = (await call(s, 'journal.history', { limit: 1 }))[0]!.id;
    const r = await call(s, 'edge.addMany', { srcs: [x.id, y.id, z.id, x.id], dst: t.id, type: 'related' });
    // z already had the edge at full weight: not a change; x listed twice links once.
    expect(r.changed.sort()).toEqual([x.id, y.id].sort());
    const history = await call(s, 'journal.history', { limit: 2 });
    expect(history[0]!.id).toBe(before + 1);
    expect(history[0]!.label).toBe(`link 3 memories -related-> ${t.id.slice(0, 8)}`);
    const inbound = () => ['x', 'y', 'z'].map((k) => ({ x, y, z })[k as 'x']!.id).filter((id) => requireMemory(s.engine().store, id).edges.some((e) => e.target_id === t.id));
    expect(inbound().length).toBe(3);
    await call(s, 'journal.undo', { change_id: r.change_id! });
    expect(inbound()).toEqual([z.id]);
    const head = s.engine().store.journal.history(1)[0]!.id;
    const bad = await invoke(s, 'edge.addMany', { srcs: [], dst: t.id, type: 'related' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(JSON.stringify(bad)).toMatch(/srcs/);
    const self = await invoke(s, 'edge.addMany', { srcs: [x.id, t.id], dst: t.id, type: 'related' });
    expect(self).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    // A refused call writes nothing: no journal entry, and x (listed before the bad target) has no edge.
    expect(s.engine().store.journal.history(1)[0]!.id).toBe(head);
    expect(inbound()).toEqual([z.id]);
    s.close();
  });
});
