/**
 * The near-duplicate finder: groups of live memories whose text matches once case, punctuation
 * and spacing are ignored, largest first and paged, with owners, the default survivor, and dismissal.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { tempDir } from '../../support/fixture.js';

const NOW = 1_780_000_000;

async function store() {
  const s = new ApiSession({ clock: fixedClock(NOW) });
  s.open(join(tempDir(), 'd.sqlite'), { create: true });
  const add = (content: string, owner = 'Coder@c1', created_at = NOW - 1000) => call(s, 'memory.add', { content, owner, created_at });
  const old = await add('Deploy billing with `make deploy`.', 'Coder@c1', NOW - 5000);
  const same = await add('deploy   billing with make deploy', 'Coder@c1', NOW - 100);
  const other = await add('DEPLOY billing, with make deploy!', 'Planner@a1', NOW - 50);
  const pairA = await add('The staging database is db-2', 'Coder@c1', NOW - 900);
  const pairB = await add('the staging database is db 2', 'Coder@c1', NOW - 800);
  const archived = await add('The staging database is db-2.', 'Coder@c1', NOW - 700);
  await call(s, 'memory.archive', { ids: [archived.id] });
  await add('Something else entirely');
  return { s, old, same, other, pairA, pairB, archived };
}

describe('curation.duplicates', () => {
  it('groups live memories with the same normalized text, largest group first, with owners and the older copy as survivor', async () => {
    const { s, old, same, other, pairA, pairB, archived } = await store();
    const page = await call(s, 'curation.duplicates', {});
    expect(page.total_groups).toBe(2);
    expect(page.total_memories).toBe(5);
    const [first, second] = page.groups;
    expect(first!.members.map((m) => m.id)).toEqual([old.id, same.id, other.id]);
    expect(first!.survivor).toBe(old.id);
    expect(first!.owners).toEqual(['Coder@c1', 'Planner@a1']);
    expect(first!.cross_owner).toBe(true);
    expect(second!.members.map((m) => m.id)).toEqual([pairA.id, pairB.id]);
    expect(second!.members.map((m) => m.id)).not.toContain(archived.id);
    expect(second!.cross_owner).toBe(false);
    s.close();
  });

  it('pages, keeps same-owner groups apart on request, and leaves dismissed groups out', async () => {
    const { s, old, same } = await store();
    const p2 = await call(s, 'curation.duplicates', { offset: 1, limit: 1 });
    expect(p2.groups).toHaveLength(1);
    expect(p2.total_groups).toBe(2);
    const sameOwner = await call(s, 'curation.duplicates', { same_owner: true });
    expect(sameOwner.groups[0]!.members.map((m) => m.id)).toEqual([old.id, same.id]);
    expect(sameOwner.groups.every((g) => !g.cross_owner)).toBe(true);
    const all = await call(s, 'curation.duplicates', {});
    const rest = await call(s, 'curation.duplicates', { dismissed: [all.groups[0]!.key] });
    expect(rest.groups.map((g) => g.key)).toEqual([all.groups[1]!.key]);
    expect((await invoke(s, 'curation.duplicates', { dismissed: ['not a key'] })).ok).toBe(false);
    s.close();
  });

  it('a group merges as one step into its survivor', async () => {
    const { s, pairA, pairB } = await store();
    const g = (await call(s, 'curation.duplicates', { same_owner: true })).groups.find((x) => x.survivor === pairA.id)!;
    await call(s, 'memory.merge', { ids: g.members.map((m) => m.id), survivor: g.survivor });
    expect((await call(s, 'memory.get', { id: pairB.id })).memory.archived).toBe(true);
    expect((await call(s, 'curation.duplicates', { same_owner: true })).groups.some((x) => x.survivor === pairA.id)).toBe(false);
    s.close();
  });
});
