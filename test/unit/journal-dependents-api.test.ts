/** journal.dependents and journal.undo with with_dependents through the API door: inputs, the list, the one-step undo. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { runCli } from '../helpers/cli.js';
import { fixtureCopy, tempDir } from '../../support/fixture.js';

const NOW = 1_780_000_000;

async function chain() {
  const s = new ApiSession({ clock: fixedClock(NOW) });
  s.open(join(tempDir(), 'd.sqlite'), { create: true });
  const a = await call(s, 'memory.add', { content: 'the boiler is serviced in March' });
  const b = await call(s, 'memory.add', { content: 'the boiler service costs 90 euros' });
  const other = await call(s, 'memory.add', { content: 'the bike needs new brakes' });
  const first = (await call(s, 'memory.update', { id: a.id, patch: { title: 'Boiler service' } })).change_id!;
  const unrelated = (await call(s, 'memory.update', { id: other.id, patch: { title: 'Bike' } })).change_id!;
  const second = (await call(s, 'memory.archive', { ids: [a.id, b.id] })).change_id!;
  const third = (await call(s, 'memory.update', { id: b.id, patch: { importance: 9 } })).change_id!;
  return { s, a, b, first, unrelated, second, third };
}

describe('journal.dependents / journal.undo with_dependents', () => {
  it('lists the dependants newest first with labels and counts, and undoes them with the change in one call', async () => {
    const { s, a, b, first, unrelated, second, third } = await chain();
    const deps = await call(s, 'journal.dependents', { change_id: first });
    expect(deps.change.id).toBe(first);
    expect(deps.dependents.map((c) => c.id)).toEqual([third, second]);
    expect(deps.total).toBe(2);
    expect(deps.rows).toBe(1 + 2 + 1);
    expect(deps.dependents[0]!.memory_ids).toEqual([b.id]);
    expect(new Set(deps.dependents[1]!.memory_ids)).toEqual(new Set([a.id, b.id]));
    expect(deps.dependents[1]).toMatchObject({ label: expect.any(String), counts: { memories_modified: 2 } });
    expect((await call(s, 'journal.dependents', { change_id: first, limit: 1 })).dependents.map((c) => c.id)).toEqual([third]);
    // The journal's own list names the memories each change touched too (History shows their titles).
    const listed = await call(s, 'journal.history', { limit: 10 });
    expect(listed.find((c) => c.id === third)!.memory_ids).toEqual([b.id]);
    expect(listed.find((c) => c.id === first)!.memory_ids).toEqual([a.id]);

    await expect(call(s, 'journal.undo', { change_id: first })).rejects.toMatchObject({ code: 'conflict', details: { blocked_by: [second] } });
    const undone = await call(s, 'journal.undo', { change_id: first, with_dependents: true });
    expect(undone).toMatchObject({ id: first, state: 'undone' });
    expect(undone.dependents_undone!.map((c) => [c.id, c.state])).toEqual([
      [third, 'undone'],
      [second, 'undone'],
    ]);
    const history = await call(s, 'journal.history', {});
    expect(history.find((c) => c.id === unrelated)!.state).toBe('applied');
    const ma = (await call(s, 'memory.get', { id: a.id })).memory;
    const mb = (await call(s, 'memory.get', { id: b.id })).memory;
    expect([ma.title, ma.archived, mb.archived, mb.importance]).toEqual([a.title, false, false, b.importance]);
    // Redo brings them back one at a time, the change itself first.
    expect((await call(s, 'journal.redo', {})).id).toBe(first);
    expect((await call(s, 'journal.redo', {})).id).toBe(second);
  });

  it('refuses ids that are not positive whole numbers, limits out of range and unknown changes', async () => {
    const { s } = await chain();
    for (const input of [{ change_id: 0 }, { change_id: 1.5 }, { change_id: '3' }, { change_id: 1, limit: 0 }, { change_id: 1, limit: 10_001 }]) {
      expect((await invoke(s, 'journal.dependents', input)).ok).toBe(false);
    }
    const bad = await invoke(s, 'journal.undo', { change_id: 1, with_dependents: 'yes' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    await expect(call(s, 'journal.dependents', { change_id: 999 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(call(s, 'journal.undo', { change_id: 999, with_dependents: true })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('mnemo undo --with-dependents undoes the later changes first and says which', async () => {
    const db = fixtureCopy();
    const [first] = (await runCli(['list', db, '--limit', '1', '--json'])).json().rows as { id: string }[];
    expect((await runCli(['archive', db, first!.id])).code).toBe(0);
    expect((await runCli(['archive', db, first!.id, '--restore'])).code).toBe(0);
    const history = (await runCli(['history', db, '--json'])).json() as { id: number }[];
    const [later, earlier] = history;
    expect((await runCli(['undo', db, String(earlier!.id)])).code).toBe(1);
    const r = await runCli(['undo', db, String(earlier!.id), '--with-dependents']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^undid change #${earlier!.id} .*\\nundid change #${later!.id} .*which depended on it$`));
  });
});
