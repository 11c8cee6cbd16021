import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import { freshEngine, DAY } from '../helpers/beliefs.js';

const T0 = 1_700_000_000;
let sessions: ApiSession[] = [];
afterEach(() => {
  for (const s of sessions) s.close();
  sessions = [];
});

function session(): ApiSession {
  const { engine } = freshEngine();
  const s = new ApiSession();
  s.adopt(engine);
  sessions.push(s);
  return s;
}

const line = (entity: string, attribute: string, value: string, day: number, reliability = 0.9, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ entity, attribute, value, t: T0 + day * DAY, reliability, evidence: `${entity}'s ${attribute} is ${value}.`, ...extra });

async function seeded(): Promise<ApiSession> {
  const s = session();
  await call(s, 'beliefs.ingest', {
    jsonl: [
      line('Keiko Silva', 'city', 'Osaka', 0),
      line('Keiko Silva', 'city', 'Osaka', 20),
      line('Keiko Silva', 'city', 'Denver', 90),
      line('Keiko Silva', 'role', 'chef', 5),
      line('Keiko Silva', 'role', 'chef', 50),
      line('Keiko Silva', 'pet', 'a beagle', 10),
      line('Keiko Silva', 'hobby', 'chess', 12),
      line('Kei Silva', 'city', 'Osaka', 25),
      line('Kei Silva', 'role', 'chef', 30),
      line('Kei Silva', 'pet', 'a beagle', 35),
      line('Kei Silva', 'hobby', 'chess', 40),
    ].join('\n'),
  });
  return s;
}

describe('beliefs API', () => {
  it('reports the constants, recorded once the first observation lands', async () => {
    const s = session();
    const before = await call(s, 'beliefs.config', {});
    expect(before.recorded).toBe(false);
    expect(before.config.profile).toBe('paper');
    const d = await call(s, 'beliefs.observe', { observation: { entity: 'Ada Osei', attribute: 'city', value: 'Lyon', t: T0, reliability: 0.9 } });
    expect(d).toMatchObject({ entity: 'Ada Osei', value: 'Lyon', mode_before: null, mode_after: 'Lyon', moved: true, memory_exists: false, surprise: 1 });
    expect((await call(s, 'beliefs.config', {})).recorded).toBe(true);
    const refused = await invoke(s, 'beliefs.configure', { profile: 'nous-code' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('conflict');
  });

  it('rejects bad observations by position, with nothing written', async () => {
    const s = session();
    const res = await invoke(s, 'beliefs.ingest', {
      observations: [
        { entity: 'Ada Osei', attribute: 'city', value: 'Lyon', t: T0, reliability: 0.9 },
        { entity: 'Ada Osei', attribute: 'city', value: 'Porto', t: T0, reliability: 7 },
      ],
    });
    expect(res).toEqual({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/^observation 2: reliability/), details: { line: 2 } } });
    expect((await call(s, 'beliefs.entities', {})).total).toBe(0);
    const both = await invoke(s, 'beliefs.ingest', { jsonl: '', observations: [] });
    expect(both.ok).toBe(false);
  });

  it('lists entities, reads an entity and one dimension as of T with its deltas', async () => {
    const s = await seeded();
    const list = await call(s, 'beliefs.entities', {});
    expect(list.entities.map((e) => e.entity)).toEqual(['Kei Silva', 'Keiko Silva']);
    const ent = await call(s, 'beliefs.entity', { entity: 'Keiko Silva', at: T0 + 60 * DAY });
    expect(ent.dimensions.map((d) => [d.attribute, d.value])).toEqual([
      ['city', 'Osaka'],
      ['hobby', 'chess'],
      ['pet', 'a beagle'],
      ['role', 'chef'],
    ]);
    const got = await call(s, 'beliefs.get', { entity: 'Keiko Silva', attribute: 'city', at: T0 + 60 * DAY });
    expect(got.belief.deltas).toBe(2);
    expect(got.deltas.map((d) => d.value)).toEqual(['Osaka', 'Osaka']);
    expect(got.belief.entropy).toBeLessThanOrEqual(got.belief.max_entropy);
    const timeline = await call(s, 'beliefs.deltas', { entity: 'Keiko Silva', attribute: 'city' });
    expect(timeline.deltas.map((d) => d.t)).toEqual([T0 + 90 * DAY, T0 + 20 * DAY, T0]);
    const unknown = await call(s, 'beliefs.get', { entity: 'Nobody', attribute: 'city' });
    expect(unknown.belief.value).toBeNull();
  });

  it('plans, applies, lists and rejects aliases', async () => {
    const s = await seeded();
    const plan = await call(s, 'beliefs.aliases.plan', { at: T0 + 100 * DAY });
    expect(plan.proposals.map((p) => p.id)).toEqual(['Kei Silva → Keiko Silva']);
    const applied = await call(s, 'beliefs.aliases.apply', { basis: plan.basis, merges: plan.proposals.map((p) => ({ alias: p.alias, canonical: p.canonical })) });
    expect(applied.merged).toEqual([{ alias: 'Kei Silva', canonical: 'Keiko Silva' }]);
    const list = await call(s, 'beliefs.entities', {});
    expect(list.entities).toEqual([expect.objectContaining({ entity: 'Keiko Silva', aliases: ['Kei Silva'] })]);
    const viaAlias = await call(s, 'beliefs.entity', { entity: 'Kei Silva' });
    expect(viaAlias.entity).toBe('Keiko Silva');
    expect(viaAlias.aliases).toEqual(['Kei Silva']);
    const stale = await invoke(s, 'beliefs.aliases.apply', { basis: plan.basis, merges: [{ alias: 'Kei Silva', canonical: 'Keiko Silva' }] });
    expect(stale.ok).toBe(false);
    await call(s, 'beliefs.aliases.reject', { a: 'Keiko Silva', b: 'Kiko Silva' });
    const lists = await call(s, 'beliefs.aliases.list', {});
    expect(lists.aliases.map((a) => a.alias)).toEqual(['Kei Silva']);
    expect(lists.rejections.map((r) => [r.a, r.b])).toEqual([['Keiko Silva', 'Kiko Silva']]);
  });

  it('links deltas and memories both ways', async () => {
    const s = session();
    const m = await call(s, 'memory.add', { content: 'Ada said she moved to Porto.' });
    await call(s, 'beliefs.ingest', { jsonl: line('Ada Osei', 'city', 'Porto', 0, 0.9, { memory_id: m.id }) });
    const moved = await call(s, 'beliefs.forMemory', { memory_id: m.id });
    expect(moved.dimensions).toEqual([{ entity: 'Ada Osei', attribute: 'city' }]);
    expect(moved.deltas[0]).toMatchObject({ memory_id: m.id, memory_exists: true, memory_head: 'Ada said she moved to Porto.' });
  });

  it('answers queries and retrieves fact lines', async () => {
    const s = await seeded();
    const { answers } = await call(s, 'beliefs.answer', {
      queries: [
        { kind: 'current', entity: 'Keiko Silva', attribute: 'city', at: T0 + 95 * DAY, id: 'a' },
        { kind: 'values', entity: 'Keiko Silva', attribute: 'hobby', at: T0 + 95 * DAY, id: 'b' },
      ],
    });
    expect(answers[0]).toMatchObject({ id: 'a', value: 'Denver' });
    expect(answers[1]).toEqual({ id: 'b', values: ['chess'] });
    const r = await call(s, 'beliefs.retrieve', { query: 'Where does Keiko Silva live?', at: T0 + 95 * DAY });
    expect(r.seeds).toEqual(['Keiko Silva']);
    expect(r.facts.find((f) => f.attribute === 'city')?.value).toBe('Denver');
  });
});
