/**
 * Profiles as data in the store: a saved profile and the store's default are journalled changes
 * (undo and redo like any other), the default cannot be deleted, built-in names cannot be taken,
 * and a hostile profile is refused at the door with nothing written.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import type { Engine } from '../../core/engine/engine.js';
import { explain } from '../../core/recall/explain.js';
import { MNEMO_PROFILE, NOOA_PROFILE, profileConfig } from '../../core/recall/profile.js';
import { newEngine, put } from '../helpers/recall-store.js';

let engine: Engine;
afterEach(() => engine?.close());

function setup(): ApiSession {
  engine = newEngine();
  put(engine, { content: 'deploy billing to staging', importance: 3 });
  put(engine, { content: 'billing invoice run on friday', importance: 9 });
  const session = new ApiSession();
  session.adopt(engine);
  return session;
}

const changeCount = () => engine.store.journal.history(1000).length;

describe('saving a profile', () => {
  it('saves with overrides on a base, returns the diff against it, and any call can name it', async () => {
    const session = setup();
    const saved = await call(session, 'profiles.save', { name: 'fitted-1', base: 'mnemo', knobs: { weights: { recency: 0.9 } }, features: { entity_boost: 0.5 } });
    expect(saved.diff).toEqual([
      { key: 'knobs.weights.recency', a: 0.5, b: 0.9 },
      { key: 'features.entity_boost', a: 1, b: 0.5 },
    ]);
    expect(saved.change_id).toBeGreaterThan(0);
    const list = await call(session, 'profiles.list', {});
    expect(list.map((p) => p.name)).toEqual(['nooa-0.0.9', 'mnemo', 'fitted-1']);
    const r = explain(engine, { query: 'billing', profile: 'fitted-1' });
    expect(r.profile).toBe('fitted-1');
    const info = await call(session, 'recall.profile', { profile: 'fitted-1' });
    expect((info.config as { knobs: { weights: { recency: number } } }).knobs.weights.recency).toBe(0.9);
    // nooa-0.0.9 stays frozen whatever is saved on top of it.
    await call(session, 'profiles.save', { name: 'nooa-tweak', base: 'nooa-0.0.9', knobs: { top_k: 9 } });
    expect(NOOA_PROFILE.knobs.top_k).toBe(5);
    expect(Object.isFrozen(NOOA_PROFILE.knobs)).toBe(true);
  });

  it('a full profile (the profile file shape) round-trips: get returns what was saved', async () => {
    const session = setup();
    const full = profileConfig(MNEMO_PROFILE) as { knobs: Record<string, unknown>; features: Record<string, unknown> };
    full.knobs['hops'] = 2;
    await call(session, 'profiles.save', { name: 'full', ...full });
    const got = await call(session, 'profiles.get', { name: 'full' });
    expect(got.config).toEqual(full);
    expect(got.diff_from_base).toEqual([{ key: 'knobs.hops', a: 1, b: 2 }]);
  });

  it('undo removes a saved profile and redo brings it back', async () => {
    const session = setup();
    const { change_id } = await call(session, 'profiles.save', { name: 'p1', knobs: { top_k: 7 } });
    await call(session, 'journal.undo', { change_id: change_id! });
    expect((await call(session, 'profiles.list', {})).map((p) => p.name)).not.toContain('p1');
    const unknown = await invoke(session, 'recall.explain', { query: 'billing', profile: 'p1' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    await call(session, 'journal.redo', { change_id: change_id! });
    expect((await call(session, 'profiles.get', { name: 'p1' })).config).toMatchObject({ knobs: { top_k: 7 } });
  });

  it('set default is journalled: undo restores the previous default', async () => {
    const session = setup();
    await call(session, 'profiles.save', { name: 'p2', knobs: { top_k: 7 } });
    const set = await call(session, 'profiles.setDefault', { name: 'p2' });
    expect(set.previous).toBe('mnemo');
    expect(engine.profile()).toBe('p2');
    expect(explain(engine, { query: 'billing' }).profile).toBe('p2');
    expect((await call(session, 'store.info', {})).profile).toBe('p2');
    await call(session, 'journal.undo', { change_id: set.change_id! });
    expect(engine.profile()).toBe('mnemo');
    await call(session, 'journal.redo', { change_id: set.change_id! });
    expect(engine.profile()).toBe('p2');
  });

  it('the default cannot be deleted, nor its save undone; another default first, then both work', async () => {
    const session = setup();
    const saved = await call(session, 'profiles.save', { name: 'p3', knobs: { top_k: 7 } });
    await call(session, 'profiles.setDefault', { name: 'p3' });
    const before = changeCount();
    const del = await invoke(session, 'profiles.delete', { name: 'p3' });
    expect(del).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(JSON.stringify(del)).toMatch(/default profile; set another default first/);
    const undo = await invoke(session, 'journal.undo', { change_id: saved.change_id! });
    expect(undo).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(JSON.stringify(undo)).toMatch(/default profile p3/);
    expect(changeCount()).toBe(before);
    expect(engine.profile()).toBe('p3');
    expect(engine.store.getMeta('journal_run')).toBeNull();
    await call(session, 'profiles.setDefault', { name: 'mnemo' });
    const deleted = await call(session, 'profiles.delete', { name: 'p3' });
    expect((await call(session, 'profiles.list', {})).map((p) => p.name)).not.toContain('p3');
    await call(session, 'journal.undo', { change_id: deleted.change_id! });
    expect((await call(session, 'profiles.list', {})).map((p) => p.name)).toContain('p3');
  });

  it('undoing a "set default" back to a profile deleted since is refused (the default always exists)', async () => {
    const session = setup();
    await call(session, 'profiles.save', { name: 'p4', knobs: { top_k: 7 } });
    await call(session, 'profiles.setDefault', { name: 'p4' });
    const back = await call(session, 'profiles.setDefault', { name: 'mnemo' });
    await call(session, 'profiles.delete', { name: 'p4' });
    const undo = await invoke(session, 'journal.undo', { change_id: back.change_id! });
    expect(undo).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(JSON.stringify(undo)).toMatch(/delete profile p4/);
    expect(engine.profile()).toBe('mnemo');
    expect(engine.store.getMeta('journal_run')).toBeNull();
  });
});

describe('refused profiles write nothing', () => {
  const hostile: [string, Record<string, unknown>][] = [
    ['a built-in name', { name: 'mnemo', knobs: { top_k: 3 } }],
    ['the frozen reference', { name: 'nooa-0.0.9', knobs: { top_k: 3 } }],
    ['a case variant of a built-in name', { name: 'MNEMO', knobs: { top_k: 3 } }],
    ['a case variant of nooa', { name: 'Nooa-0.0.9', knobs: { top_k: 3 } }],
    ['a name with a slash', { name: '../etc', knobs: { top_k: 3 } }],
    ['a name too long', { name: 'a'.repeat(65) }],
    ['an empty name', { name: '' }],
    ['a huge number', { name: 'x', knobs: { n_dense: 1e12 } }],
    ['a huge weight', { name: 'x', knobs: { weights: { recency: 1e308 } } }],
    ['a NaN-like string', { name: 'x', knobs: { weights: { recency: 'NaN' } } }],
    ['Infinity', { name: 'x', knobs: { per_hop_decay: Infinity } }],
    ['a fractional count', { name: 'x', knobs: { top_k: 2.5 } }],
    ['an unknown knob', { name: 'x', knobs: { top_kk: 3 } }],
    ['an unknown section', { name: 'x', extra: { a: 1 } }],
    ['deep JSON', { name: 'x', features: { bm25: JSON.parse('{"n":'.repeat(200) + '1' + '}'.repeat(200)) } }],
    ['an unknown sparse field', { name: 'x', features: { sparse_fields: ['content', 'body'] } }],
    ['an unknown base', { name: 'x', base: 'nope', knobs: { top_k: 3 } }],
  ];
  it.each(hostile)('%s', async (_what, input) => {
    const session = setup();
    const before = changeCount();
    const res = await invoke(session, 'profiles.save', input);
    expect(res).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(JSON.stringify(res)).not.toMatch(/at .*\.ts:\d+/);
    expect(changeCount()).toBe(before);
    expect((await call(session, 'profiles.list', {})).map((p) => p.name)).toEqual(['nooa-0.0.9', 'mnemo']);
  });

  it('an unknown profile is a bad_input naming it and listing what exists', async () => {
    const session = setup();
    await call(session, 'profiles.save', { name: 'mine', knobs: { top_k: 3 } });
    for (const method of ['recall.explain', 'recall.run', 'recall.whyNot', 'recall.profile'] as const) {
      const res = await invoke(session, method, { query: 'billing', target: 'x'.repeat(8), profile: 'ghost' });
      expect(res).toMatchObject({ ok: false, error: { code: 'bad_input', details: { profile: 'ghost', known: ['nooa-0.0.9', 'mnemo', 'mine'] } } });
      expect(JSON.stringify(res)).toMatch(/unknown profile \\"ghost\\"; the profiles of this store are nooa-0.0.9, mnemo, mine/);
    }
  });

  it('a saved row another process corrupted is refused on read, not used', async () => {
    const session = setup();
    await call(session, 'profiles.save', { name: 'bent', knobs: { top_k: 3 } });
    const { connectionOf } = await import('../../core/store/sqlite/connection.js');
    connectionOf(engine.store).prepare("UPDATE mnemo_profiles SET config = json_set(config, '$.knobs.n_dense', 1e15) WHERE name = 'bent'").run();
    const res = await invoke(session, 'recall.explain', { query: 'billing', profile: 'bent' });
    expect(res).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(JSON.stringify(res)).toMatch(/knobs\.n_dense/);
  });
});

describe('profiles.diff', () => {
  it('lists every knob where two profiles differ', async () => {
    const session = setup();
    const d = await call(session, 'profiles.diff', { a: 'nooa-0.0.9', b: 'mnemo' });
    expect(d.rows.map((r) => r.key)).toContain('features.recency_scale');
    expect(d.rows.find((r) => r.key === 'features.sparse_fields')).toEqual({ key: 'features.sparse_fields', a: ['content'], b: ['content', 'title', 'tags'] });
    expect((await call(session, 'profiles.diff', { a: 'mnemo', b: 'mnemo' })).rows).toEqual([]);
  });
});
