/**
 * The conflict queue through the API: a value conflict and a flagged contradiction are listed,
 * ranked by harm; supersede takes the superseded memory out of default recall, include_superseded
 * brings it back marked, why-not names the resolution, and undo restores the earlier ranking.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { freshStorePath } from '../helpers/agents.js';

const NOW = 1_780_000_000;
let open: ApiSession[] = [];
afterEach(() => {
  for (const s of open) s.close();
  open = [];
});

function session(): ApiSession {
  const s = new ApiSession({ clock: fixedClock(NOW) });
  s.open(freshStorePath(), { create: true });
  open.push(s);
  return s;
}

async function seed(s: ApiSession) {
  const dana = await call(s, 'memory.add', { content: 'The billing service is owned by Dana Cohen.' });
  const lior = await call(s, 'memory.add', { content: 'The billing service is owned by Lior.' });
  const search = await call(s, 'memory.add', { content: 'The search service is owned by Kemi.' });
  const port = await call(s, 'memory.add', { content: 'The billing database listens on port 5432.' });
  const port2 = await call(s, 'memory.add', { content: 'The billing database listens on port 6432.' });
  const cold = await call(s, 'memory.add', { content: 'Deploys freeze on Fridays after noon.' });
  const warm = await call(s, 'memory.add', { content: 'Deploys are fine any day of the week.' });
  // A mention of Kemi mid-sentence makes "Kemi" a name the detector knows.
  await call(s, 'memory.add', { content: 'Ask Dana or Lior or Kemi about ownership.' });
  return { dana, lior, search, port, port2, cold, warm };
}

describe('the conflict queue', () => {
  it('lists value conflicts and flagged contradictions with both sides, not statements about different things', async () => {
    const s = session();
    const m = await seed(s);
    const flag = await call(s, 'review.flag', { a_id: m.warm.id, b_id: m.cold.id, note: 'the freeze was lifted in May' });
    expect(flag.changed).toBe(true);
    expect(flag.change_id).not.toBeNull();
    const page = await call(s, 'review.conflicts', {});
    const pairs = page.items.map((i) => `${i.kind}:${[...i.ids!].sort().join(',')}`);
    expect(pairs).toContain(`value:${[m.dana.id, m.lior.id].sort().join(',')}`);
    expect(pairs).toContain(`value:${[m.port.id, m.port2.id].sort().join(',')}`);
    expect(pairs).toContain(`contradicts:${[m.warm.id, m.cold.id].sort().join(',')}`);
    // Billing and search are different subjects.
    expect(pairs.some((p) => p.includes(m.search.id))).toBe(false);
    expect(page.total).toBe(3);
    expect(page.by_kind).toEqual({ contradicts: 1, value: 2, belief: 0 });
    const owned = page.items.find((i) => i.ids!.includes(m.dana.id))!;
    expect(owned.spans).toEqual([{ a: expect.stringMatching(/Dana Cohen|Lior/), b: expect.stringMatching(/Dana Cohen|Lior/), kind: 'name' }]);
    expect(owned.sides!.map((x) => x.owner)).toEqual(['', '']);
    expect(owned.sides!.every((x) => x.created_at === NOW)).toBe(true);
    const flagged = page.items.find((i) => i.kind === 'contradicts')!;
    expect(flagged.ids).toEqual([m.warm.id, m.cold.id]);
    expect(flagged.note).toMatchObject({ note: 'the freeze was lifted in May', from: m.warm.id, to: m.cold.id });
    // Harm = p_wrong × (1 + uses); nothing was used yet.
    for (const i of page.items) expect(i.harm).toBeCloseTo(i.p_wrong, 12);
  });

  it('ranks a pair recall has served often above one never used', async () => {
    const s = session();
    const m = await seed(s);
    for (let i = 0; i < 3; i++) await call(s, 'recall.run', { query: 'billing database port', k: 2 });
    const page = await call(s, 'review.conflicts', { kinds: ['value'] });
    expect(page.items[0]!.ids).toEqual(expect.arrayContaining([m.port.id, m.port2.id]));
    expect(page.items[0]!.uses).toBeGreaterThanOrEqual(6);
    expect(page.items[0]!.harm).toBeGreaterThan(page.items[1]!.harm);
  });
});

describe('a supersede resolution', () => {
  it('takes the superseded memory out of default recall; include_superseded brings it back marked; why-not names it; undo restores the ranking', async () => {
    const s = session();
    const m = await seed(s);
    const query = { query: 'who owns the billing service', k: 5 };
    const before = await call(s, 'recall.explain', query);
    expect(before.rows.map((r) => r.id)).toEqual(expect.arrayContaining([m.dana.id, m.lior.id]));
    const today = await call(s, 'review.conflictRecall', { query: 'billing service owned', ids: [m.dana.id, m.lior.id] });
    expect(today.places.every((p) => p.rank !== null && !p.left_out)).toBe(true);

    const res = await call(s, 'review.resolve', { do: 'supersede', current: m.lior.id, superseded: m.dana.id });
    expect(res.change_id).not.toBeNull();
    const after = await call(s, 'recall.explain', query);
    expect(after.rows.map((r) => r.id)).not.toContain(m.dana.id);
    expect(after.rows.map((r) => r.id)).toContain(m.lior.id);
    expect(after.superseded).toBe('exclude');
    expect(after.superseded_excluded).toBe(1);

    const included = await call(s, 'recall.explain', { ...query, include_superseded: true });
    const dana = included.rows.find((r) => r.id === m.dana.id)!;
    expect(dana.superseded_by).toBe(m.lior.id);
    expect(included.rows.find((r) => r.id === m.lior.id)!.superseded_by).toBeUndefined();

    const why = await call(s, 'recall.whyNot', { ...query, target: m.dana.id });
    expect(why.status).toBe('superseded');
    expect(why.superseded).toMatchObject({ by: m.lior.id, at: NOW, change_id: res.change_id, policy: 'exclude' });
    expect(why.explanation[0]).toContain(`superseded by ${m.lior.id.slice(0, 8)}`);
    expect(why.explanation[0]).toContain(`(change #${res.change_id})`);

    // The memory stays, with its validity end and superseded_by, and the pair left the queue.
    const detail = await call(s, 'memory.get', { id: m.dana.id });
    expect(detail.memory.valid_to).toBe(NOW);
    expect(detail.memory.extra).toEqual({ superseded_by: m.lior.id });
    expect(detail.superseded).toEqual({ by: m.lior.id, by_head: 'The billing service is owned by Lior.', at: NOW });
    expect((await call(s, 'memory.get', { id: m.lior.id })).superseded).toBeNull();
    expect(detail.memory.archived).toBe(false);
    const page = await call(s, 'review.conflicts', { kinds: ['value'] });
    expect(page.items.some((i) => i.ids!.includes(m.dana.id))).toBe(false);
    const nowToday = await call(s, 'review.conflictRecall', { query: 'billing service owned', ids: [m.dana.id, m.lior.id] });
    expect(nowToday.places.find((p) => p.id === m.dana.id)).toMatchObject({ rank: null, left_out: true });
    expect(nowToday.first).toBe(m.lior.id);

    await call(s, 'journal.undo', { change_id: res.change_id! });
    const undone = await call(s, 'recall.explain', query);
    expect(undone.rows.map((r) => [r.id, r.score])).toEqual(before.rows.map((r) => [r.id, r.score]));
    expect((await call(s, 'memory.get', { id: m.dana.id })).memory.valid_to).toBeNull();
    expect((await call(s, 'review.conflicts', { kinds: ['value'] })).items.some((i) => i.ids!.includes(m.dana.id))).toBe(true);
  });

  it('a logged recall marks the superseded memories it returns', async () => {
    const s = session();
    const m = await seed(s);
    await call(s, 'review.resolve', { do: 'supersede', current: m.lior.id, superseded: m.dana.id });
    const plain = await call(s, 'recall.run', { query: 'who owns the billing service', k: 5 });
    expect(plain.items.map((i) => i.id)).not.toContain(m.dana.id);
    const run = await call(s, 'recall.run', { query: 'who owns the billing service', k: 5, include_superseded: true });
    expect(run.items.find((i) => i.id === m.dana.id)!.superseded_by).toBe(m.lior.id);
    expect(run.items.find((i) => i.id === m.lior.id)!.superseded_by).toBeUndefined();
  });

  it('demote keeps a superseded memory ranked with half its activation, shown as a term', async () => {
    const s = session();
    const m = await seed(s);
    await call(s, 'review.resolve', { do: 'supersede', current: m.lior.id, superseded: m.dana.id });
    await call(s, 'profiles.save', { name: 'demoting', base: 'mnemo', features: { superseded: 'demote' } });
    const res = await call(s, 'recall.explain', { query: 'who owns the billing service', k: 8, profile: 'demoting' });
    const row = res.rows.find((r) => r.id === m.dana.id)!;
    expect(row.superseded_by).toBe(m.lior.id);
    expect(row.terms.superseded).toBeLessThan(0);
    const sum = Object.values(row.terms).reduce((a, b) => a + b, 0);
    expect(Math.abs(sum - row.score)).toBeLessThan(0.001);
  });
});

describe('other resolutions', () => {
  it('both_hold takes the pair out of the queue for good; forget deletes with a tombstone; each undoes', async () => {
    const s = session();
    const m = await seed(s);
    const held = await call(s, 'review.resolve', { do: 'both_hold', ids: [m.port.id, m.port2.id] });
    let page = await call(s, 'review.conflicts', { kinds: ['value'] });
    expect(page.items.some((i) => i.ids!.includes(m.port.id))).toBe(false);
    expect(page.settled).toBe(1);
    await call(s, 'journal.undo', { change_id: held.change_id! });
    page = await call(s, 'review.conflicts', { kinds: ['value'] });
    expect(page.items.some((i) => i.ids!.includes(m.port.id))).toBe(true);

    const forgot = await call(s, 'review.resolve', { do: 'forget', wrong: m.dana.id });
    await expect(call(s, 'memory.get', { id: m.dana.id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(call(s, 'memory.add', { content: 'The billing service is owned by Dana Cohen.' })).rejects.toMatchObject({ code: 'conflict' });
    await call(s, 'journal.undo', { change_id: forgot.change_id! });
    expect((await call(s, 'memory.get', { id: m.dana.id })).memory.content).toContain('Dana');
  });

  it('refuses a resolution naming one memory twice, or one that does not exist, and writes nothing', async () => {
    const s = session();
    const m = await seed(s);
    const head = (await call(s, 'journal.history', {})).length;
    await expect(call(s, 'review.resolve', { do: 'supersede', current: m.dana.id, superseded: m.dana.id })).rejects.toMatchObject({ code: 'bad_input' });
    await expect(call(s, 'review.resolve', { do: 'supersede', current: 'ffffffffffff', superseded: m.dana.id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(call(s, 'review.resolve', { do: 'nonsense' } as never)).rejects.toMatchObject({ code: 'bad_input' });
    expect((await call(s, 'journal.history', {})).length).toBe(head);
  });
});
