/**
 * Beliefs in the conflict queue: a dimension the layer doubts is listed by entity and attribute;
 * a curator's assertion settles it and a rejected observation stops counting, each one undoable
 * change that replays the entity.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { freshStorePath } from '../helpers/agents.js';

const NOW = 1_725_920_000;
const DAY = 86_400;
let open: ApiSession[] = [];
afterEach(() => {
  for (const s of open) s.close();
  open = [];
});

async function seeded(): Promise<ApiSession> {
  const s = new ApiSession({ clock: fixedClock(NOW) });
  s.open(freshStorePath(), { create: true });
  open.push(s);
  const observe = (entity: string, value: string, daysAgo: number, reliability = 0.9) =>
    call(s, 'beliefs.observe', { observation: { entity, attribute: 'city', value, t: NOW - daysAgo * DAY, reliability, evidence: `${entity} lives in ${value}` } });
  // Ada: settled in Lyon. Ben: the last month's reports go back and forth between Rome and Porto.
  for (const d of [200, 150, 100, 60]) await observe('Ada Osei', 'Lyon', d);
  for (const d of [30, 20]) await observe('Ben Park', 'Rome', d);
  await observe('Ben Park', 'Porto', 15, 0.85);
  await observe('Ben Park', 'Rome', 10, 0.85);
  await observe('Ben Park', 'Porto', 5, 0.6);
  return s;
}

const beliefItems = async (s: ApiSession) => (await call(s, 'review.conflicts', { kinds: ['belief'] })).items;

describe('beliefs in the conflict queue', () => {
  it('lists a dimension the layer doubts by entity and attribute, with its answer, p and the reports behind it', async () => {
    const s = await seeded();
    const items = await beliefItems(s);
    const ben = items.find((i) => i.entity === 'Ben Park');
    expect(ben).toBeDefined();
    expect(ben!.kind).toBe('belief');
    expect(ben!.attribute).toBe('city');
    expect(ben!.ids).toBeUndefined();
    expect(ben!.belief!.p).toBeLessThan(0.8);
    expect(ben!.p_wrong).toBeCloseTo(1 - ben!.belief!.p, 12);
    expect(ben!.belief!.reports[0]).toMatchObject({ value: 'Porto' });
    expect(items.some((i) => i.entity === 'Ada Osei')).toBe(false);
    // An owner scope (an agent) never sees beliefs: they have no owner.
    expect((await call(s, 'review.conflicts', { owner: 'planner', kinds: ['belief'] })).items).toEqual([]);
  });

  it('a curator assertion settles it; undo brings the doubt back', async () => {
    const s = await seeded();
    const before = (await call(s, 'beliefs.get', { entity: 'Ben Park', attribute: 'city', mode: 'hindsight' })).belief;
    const res = await call(s, 'review.resolve', { do: 'assert', entity: 'Ben Park', attribute: 'city', value: 'Rome' });
    expect(res.change_id).not.toBeNull();
    const after = (await call(s, 'beliefs.get', { entity: 'Ben Park', attribute: 'city', mode: 'hindsight' })).belief;
    expect(after.value).toBe('Rome');
    expect(after.p).toBeGreaterThan(0.8);
    expect((await beliefItems(s)).some((i) => i.entity === 'Ben Park')).toBe(false);
    await call(s, 'journal.undo', { change_id: res.change_id! });
    const undone = (await call(s, 'beliefs.get', { entity: 'Ben Park', attribute: 'city', mode: 'hindsight' })).belief;
    expect([undone.value, undone.p]).toEqual([before.value, before.p]);
    expect((await beliefItems(s)).some((i) => i.entity === 'Ben Park')).toBe(true);
    await call(s, 'journal.redo', { change_id: res.change_id! });
    expect((await call(s, 'beliefs.get', { entity: 'Ben Park', attribute: 'city', mode: 'hindsight' })).belief.value).toBe('Rome');
  });

  it('a rejected observation stops counting (the entity is replayed); undo counts it again', async () => {
    const s = await seeded();
    // The last Rome report (ten days ago) is the one that keeps Rome ahead.
    const rome = (await beliefItems(s)).find((i) => i.entity === 'Ben Park')!.belief!.reports.find((r) => r.value === 'Rome')!;
    const before = (await call(s, 'beliefs.get', { entity: 'Ben Park', attribute: 'city', mode: 'as-of' })).belief;
    expect(before.value).toBe('Rome');
    const res = await call(s, 'review.resolve', { do: 'reject', delta_id: rome.delta_id });
    expect(res).toMatchObject({ do: 'reject', delta_id: rome.delta_id, entity: 'Ben Park', attribute: 'city' });
    const after = await call(s, 'beliefs.get', { entity: 'Ben Park', attribute: 'city', mode: 'as-of' });
    expect(after.belief.value).toBe('Porto');
    expect(after.deltas.map((d) => d.id)).not.toContain(rome.delta_id);
    await expect(call(s, 'review.resolve', { do: 'reject', delta_id: rome.delta_id })).rejects.toMatchObject({ code: 'conflict' });
    await call(s, 'journal.undo', { change_id: res.change_id! });
    const undone = (await call(s, 'beliefs.get', { entity: 'Ben Park', attribute: 'city', mode: 'as-of' })).belief;
    expect([undone.value, undone.p]).toEqual([before.value, before.p]);
    await expect(call(s, 'review.resolve', { do: 'reject', delta_id: 999_999 })).rejects.toMatchObject({ code: 'not_found' });
  });
});
