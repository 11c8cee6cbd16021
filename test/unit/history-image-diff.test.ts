/**
 * History's before/after rendering (renderer/views/history/image-diff.ts): real journal rows from
 * an edit, a merge and a forget become field changes, with the store's columns taking precedence.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { changedFields, countsLabel, flattenImage, listDiff } from '../../renderer/views/history/image-diff.js';
import { expected, fixtureCopy } from '../../support/fixture.js';

let session: ApiSession;
afterEach(() => session?.close());

async function open() {
  session = ApiSession.withFrozenClock(expected().now as number);
  session.open(fixtureCopy());
  return (await call(session, 'memory.list', { limit: 3, types: ['info'] })).rows.map((r) => r.id);
}

describe('history image diff', () => {
  it('shows the edited fields of an update, and nothing else', async () => {
    const [id] = await open();
    const r = await call(session, 'memory.update', { id: id!, patch: { title: 'New title', tags: ['a', 'b'] } });
    const { rows } = await call(session, 'journal.rows', { change_id: r.change_id! });
    expect(rows).toHaveLength(1);
    const fields = changedFields(rows[0]!.key, rows[0]!.before, rows[0]!.after).map((f) => f.field);
    expect(fields).toContain('title');
    expect(fields).toContain('tags');
    expect(fields).not.toContain('content');
    // Title and tags are embedded text: the new vector shows as a changed checksum.
    expect(fields).toContain('embedding');
  });

  it('reads archived from the column (what the store uses) and diffs edge lists', async () => {
    const [a, b] = await open();
    const r = await call(session, 'memory.merge', { ids: [a!, b!], survivor: a!, allow_cross_owner: true });
    const { rows } = await call(session, 'journal.rows', { change_id: r.change_id! });
    const dup = rows.find((x) => x.key === `m:${b}`)!;
    expect(flattenImage(dup.key, dup.after)!['archived']).toBe(true);
    expect(changedFields(dup.key, dup.before, dup.after).find((f) => f.field === 'archived')).toEqual({ field: 'archived', before: false, after: true });
    const survivor = rows.find((x) => x.key === `m:${a}`)!;
    const edges = changedFields(survivor.key, survivor.before, survivor.after).find((f) => f.field === 'edges')!;
    const d = listDiff(edges.before, edges.after)!;
    expect(d.added.some((e) => String(e).startsWith(`refines → ${b}`))).toBe(true);
    expect(d.removed).toEqual([]);
  });

  it('lists every field of a deleted row, and labels the counts', async () => {
    const [id] = await open();
    const r = await call(session, 'memory.forget', { ids: [id!] });
    const { change, rows } = await call(session, 'journal.rows', { change_id: r.change_id! });
    const m = rows.find((x) => x.key === `m:${id}`)!;
    expect(m.after).toBeNull();
    const fields = changedFields(m.key, m.before, m.after);
    expect(fields.find((f) => f.field === 'content')!.after).toBeUndefined();
    expect(flattenImage(m.key, m.after)).toBeNull();
    expect(countsLabel(change.counts)).toMatch(/1 memory deleted/);
    expect(countsLabel({ memories_modified: 1200, t_created: 1, other_thing: 2 })).toBe('1,200 memories modified · 1 tombstone created · 2 other thing');
    expect(rows.some((x) => x.key.startsWith('t:'))).toBe(true);
  });
});
