/**
 * One merge-order rule for the curator and for reflection (the older copy survives), and merges
 * across owners refused unless the caller confirms them.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { tempDir } from '../../support/fixture.js';

const NOW = 1_780_000_000;

function session(now = NOW): ApiSession {
  const s = new ApiSession({ clock: fixedClock(now) });
  s.open(join(tempDir(), 'm.sqlite'), { create: true });
  return s;
}

describe('merge order', () => {
  it('defaults the survivor to the older copy, whatever order the ids come in', async () => {
    const s = session();
    const older = await call(s, 'memory.add', { content: 'deploy billing with make deploy', created_at: NOW - 86_400 });
    const newer = await call(s, 'memory.add', { content: 'deploy billing with make deploy!', created_at: NOW - 60 });
    const order = await call(s, 'memory.mergeOrder', { ids: [newer.id, older.id] });
    expect(order.survivor).toBe(older.id);
    expect(order.cross_owner).toBe(false);
    s.close();
  });
});

describe('cross-owner merges', () => {
  it('refuses a merge across owners and writes nothing', async () => {
    const s = session();
    const a = await call(s, 'memory.add', { content: 'the deploy key rotates monthly', owner: 'Planner@a1' });
    const b = await call(s, 'memory.add', { content: 'the deploy key rotates every month', owner: 'Coder@c3' });
    const before = (await call(s, 'journal.history', { limit: 1 }))[0]!.id;
    const order = await call(s, 'memory.mergeOrder', { ids: [a.id, b.id] });
    expect(order.cross_owner).toBe(true);
    expect(order.owners).toEqual(['Planner@a1', 'Coder@c3']);
    const res = await invoke(s, 'memory.merge', { ids: [b.id], survivor: a.id });
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.error.code).toBe('conflict');
      expect(res.error.message).toMatch(/different owners/);
    }
    expect((await call(s, 'journal.history', { limit: 1 }))[0]!.id).toBe(before);
    expect((await call(s, 'memory.get', { id: b.id })).memory.archived).toBe(false);
    s.close();
  });

  it('merges across owners when the caller allows it', async () => {
    const s = session();
    const a = await call(s, 'memory.add', { content: 'the deploy key rotates monthly', owner: 'Planner@a1' });
    const b = await call(s, 'memory.add', { content: 'the deploy key rotates every month', owner: 'Coder@c3' });
    const res = await call(s, 'memory.merge', { ids: [b.id], survivor: a.id, allow_cross_owner: true });
    expect(res.archived).toEqual([b.id]);
    s.close();
  });

  it('treats owners that differ only in case as different owners', async () => {
    const s = session();
    const a = await call(s, 'memory.add', { content: 'x one', owner: 'Coder' });
    const b = await call(s, 'memory.add', { content: 'x two', owner: 'coder' });
    expect((await invoke(s, 'memory.merge', { ids: [b.id], survivor: a.id })).ok).toBe(false);
    s.close();
  });
});
