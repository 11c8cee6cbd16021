/**
 * store.asOf and store.diff through the API: an instant resolves to a feed position (an earlier
 * one than history is a typed refusal naming the earliest instant, a later one is now), and every
 * change between two instants is attributed to its writer: a journalled Mnemo change, an agent's
 * credential and owner, or a foreign writer.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { issueCredential } from '../../core/agent/credentials.js';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import type { Clock } from '../../core/clock.js';
import { agentTurn } from '../../support/agent-turn.js';
import { tempDir } from '../../support/fixture.js';

const T0 = 1_760_000_000;

/** A clock the test moves by hand. */
function steppedClock(start: number): Clock & { set(t: number): void } {
  let t = start;
  return { now: () => t, set: (next) => (t = next) };
}

let path: string;
let clock: ReturnType<typeof steppedClock>;
let session: ApiSession;

beforeEach(() => {
  path = join(tempDir('mnemo-tt-diff-'), 'store.sqlite');
  clock = steppedClock(T0);
  session = new ApiSession({ clock });
  session.open(path, { create: true });
});
afterEach(() => session.close());

describe('store.asOf', () => {
  it('resolves an instant, refuses one before history with the earliest instant, and takes a later one as now', async () => {
    const a = await call(session, 'memory.add', { content: 'first' });
    clock.set(T0 + 10);
    await call(session, 'memory.update', { id: a.id, patch: { content: 'second' } });
    const mid = await call(session, 'store.asOf', { at: T0 + 5 });
    expect(mid).toMatchObject({ at: T0 + 5, earliest: T0, live: false });
    expect(mid.rolled_back).toBeGreaterThan(0);
    const later = await call(session, 'store.asOf', { at: T0 + 3600 });
    expect(later.live).toBe(true);
    expect(later.position.seq).toBeGreaterThan(mid.position.seq);
    const refused = await invoke(session, 'store.asOf', { at: T0 - 1 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_input', details: { reason: 'before_history', earliest: T0 } } });
    // memory.get at that instant: the content then.
    expect((await call(session, 'memory.get', { id: a.id, at: T0 + 5 })).memory.content).toBe('first');
    expect((await call(session, 'memory.get', { id: a.id })).memory.content).toBe('second');
    // The list's facets and "select all matching" read the past too.
    clock.set(T0 + 20);
    const b = await call(session, 'memory.add', { content: 'third' });
    await call(session, 'memory.archive', { ids: [a.id] });
    expect(await call(session, 'memory.facets', { at: T0 + 5 })).toMatchObject({ live: 1, archived: 0 });
    expect(await call(session, 'memory.facets', {})).toMatchObject({ live: 1, archived: 1 });
    expect(await call(session, 'memory.ids', { at: T0 + 5 })).toEqual({ total: 1, ids: [a.id] });
    expect(await call(session, 'memory.ids', {})).toEqual({ total: 1, ids: [b.id] });
  });
});

describe('store.diff', () => {
  it('attributes each change to a journalled change, an agent credential and owner, or a foreign writer', async () => {
    const kept = await call(session, 'memory.add', { content: 'kept as it was' });
    const edited = await call(session, 'memory.add', { content: 'edited by the workbench' });
    const byNooa = await call(session, 'memory.add', { content: 'edited by a nooa agent' });
    clock.set(T0 + 100);

    const workbench = await call(session, 'memory.update', { id: edited.id, patch: { importance: 9 } });
    // A program that knows nothing of Mnemo archives one (before the agent's recall, which then leaves it alone).
    const raw = new Database(path);
    raw.prepare('UPDATE memories SET archived = 1 WHERE id = ?').run(byNooa.id);
    raw.close();
    const { credential } = issueCredential(session.engine().store, { owner: 'coder@laptop' }, clock);
    // The agent remembers (a journalled change) and recalls (accesses, outside the journal) through its credential.
    await agentTurn(path, credential, 'the agent remembered this about the workbench', 'workbench', clock);

    const d = await call(session, 'store.diff', { from: T0 + 50, to: 4_000_000_000 });
    const row = (id: string) => d.memories.find((m) => m.id === id)!;
    expect(d.memories.map((m) => m.id)).not.toContain(kept.id);

    expect(row(edited.id).kind).toBe('changed');
    expect(row(edited.id).fields[0]).toBe('importance');
    expect(row(edited.id).authors[0]).toEqual(expect.objectContaining({ kind: 'journal', change_id: workbench.change_id, writer: 'mnemo', credential_id: null, owner: null }));
    expect(row(edited.id).authors[0]!.text).toMatch(new RegExp(`^change ${workbench.change_id} "`));

    const remembered = d.memories.find((m) => m.kind === 'added')!;
    expect(remembered.head).toBe('the agent remembered this about the workbench');
    const agentChange = session.engine().store.journal.history(1)[0]!;
    expect(remembered.authors[0]).toMatchObject({ kind: 'journal', change_id: agentChange.id, credential_id: credential.id, owner: 'coder@laptop', writer: `mnemo:cred:${credential.id}` });
    expect(remembered.authors[0]!.text).toContain('by agent coder@laptop');
    // Its recall then touched the workbench's memory: an access, outside the journal, still the agent's.
    expect(row(edited.id).fields).toContain('access_log');
    expect(row(edited.id).authors[1]).toEqual(expect.objectContaining({ kind: 'mnemo', change_id: null, credential_id: credential.id, owner: 'coder@laptop' }));

    expect(row(byNooa.id)).toMatchObject({ kind: 'archived', fields: ['archived'] });
    expect(row(byNooa.id).authors).toEqual([expect.objectContaining({ kind: 'foreign', change_id: null, writer: null, text: 'a foreign writer (not Mnemo)' })]);
    expect(d.counts.memories).toMatchObject({ changed: 1, archived: 1, added: 1 });

    const fromStart = await call(session, 'store.diff', { from: (await call(session, 'store.asOf', { at: T0 })).earliest, to: T0 + 50 });
    expect(fromStart.memories.every((m) => m.kind === 'added')).toBe(true);
  });
});
