import { afterEach, describe, expect, it } from 'vitest';
import type { AgentMemory } from '../../core/agent/agent-memory.js';
import { agentOn, freshStorePath } from '../helpers/agents.js';
import { requireMemory } from '../../core/store/queries/memory-lookups.js';

const open: AgentMemory[] = [];
afterEach(() => {
  for (const a of open.splice(0)) a.close();
});
function agent(path: string, owner: string): AgentMemory {
  const a = agentOn(path, owner);
  open.push(a);
  return a;
}
async function rejection(p: Promise<unknown> | (() => unknown)): Promise<{ code: string; message: string }> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    return e as { code: string; message: string };
  }
  throw new Error('expected a rejection');
}

describe('remember and dedup-on-write', () => {
  it('stores the schema fields with verbal importance', async () => {
    const a = agent(freshStorePath(), 'alice@1');
    const r = await a.remember({ content: 'Deploys go through scripts/deploy.sh', type: 'skill', importance: 'HIGH', tags: ['deploy'], title: 'How to deploy' });
    expect(r.reinforced).toBe(false);
    expect(r.memory).toMatchObject({ type: 'skill', importance: 8, tags: ['deploy'], title: 'How to deploy', owner: 'alice@1' });
    await expect(a.remember({ content: 'x', importance: 'HUGE' })).rejects.toThrowError(/unknown importance label "HUGE"/);
    await expect(a.remember({ content: 'x', type: 'fact' as never })).rejects.toThrowError(/unknown memory type/);
  });

  it('a near-duplicate of the same type reinforces the existing memory and drops the new tags and references', async () => {
    const a = agent(freshStorePath(), 'alice@1');
    // Tags are part of the embedded text, so the wording must carry the similarity (as in the reference).
    const text = 'The staging database runs postgres 16 on host db-stage-1, with nightly backups to the cold bucket and a read replica in the second zone';
    const first = await a.remember({ content: text, importance: 'LOW', tags: ['db'] });
    const again = await a.remember({ content: text, importance: 'HIGH', tags: ['ops'], references: ['var:x'] });
    expect(again).toMatchObject({ id: first.id, reinforced: true });
    expect(again.cos).toBeGreaterThanOrEqual(0.92);
    expect(again.memory).toMatchObject({ reinforcement_count: 1, strength: 2, importance: 8, tags: ['db'], references: [], reinforced_count: 1 });
    const ev = a.engine.store.accessEvents({ memoryId: first.id, channels: ['reinforced'] }).events;
    expect(ev).toMatchObject([{ reader_owner: 'alice@1', session_ref: 'test-alice@1', strength_after: 2 }]);
    const other = await a.remember({ content: text, type: 'episode', tags: ['db'] });
    expect(other.reinforced).toBe(false);
    expect(a.stats()).toMatchObject({ writes: 2, reinforced: 1 });
  });

  it('never reinforces across roles, but does across instances of a role (keeping the original writer)', async () => {
    const path = freshStorePath();
    const a1 = agent(path, 'alice@1');
    const a2 = agent(path, 'alice@2');
    const b = agent(path, 'bob');
    const orig = await a1.remember({ content: 'The office wifi password rotates every monday' });
    expect((await b.remember({ content: 'The office wifi password rotates every monday' })).reinforced).toBe(false);
    const sib = await a2.remember({ content: 'The office wifi password rotates every monday' });
    expect(sib).toMatchObject({ id: orig.id, reinforced: true });
    expect(sib.memory.owner).toBe('alice@1');
  });

  it('dedup can be turned off', async () => {
    const a = agent(freshStorePath(), 'alice');
    const x = await a.remember({ content: 'same words' });
    const y = await a.remember({ content: 'same words', dedup: false });
    expect(y.id).not.toBe(x.id);
  });
});

describe('owner policy on writes', () => {
  it('A cannot update, forget or link from B\'s memory, and the error says whose it is', async () => {
    const path = freshStorePath();
    const a = agent(path, 'alice@1');
    const b = agent(path, 'bob@1');
    const bm = await b.remember({ content: 'bob private note' });
    for (const attempt of [() => a.updateMemory(bm.id, { content: 'hijacked' }), () => a.forget(bm.id.slice(0, 8)), () => a.associate(bm.id, bm.id)]) {
      const err = await rejection(attempt);
      expect(err.code).toBe('permission');
      expect(err.message).toMatch(/belongs to "bob@1"; cross-owner writes are not allowed/);
    }
    const after = requireMemory(a.engine.store, bm.id);
    expect(after).toMatchObject({ content: 'bob private note', archived: false, reinforcement_count: 0 });
  });

  it('unowned memories are writable by everyone; linking from mine to a foreign one is allowed', async () => {
    const path = freshStorePath();
    const a = agent(path, 'alice');
    const b = agent(path, 'bob');
    const shared = agent(path, '');
    const s = await shared.remember({ content: 'shared convention: tabs not spaces' });
    expect(await a.updateMemory(s.id, { importance: 'HIGH' })).toBe(true);
    const mine = await a.remember({ content: 'alice uses the shared convention' });
    const theirs = await b.remember({ content: 'bob has opinions' });
    expect(a.associate(mine.id.slice(0, 8), theirs.id, 'related')).toMatchObject({ src: mine.id, dst: theirs.id, changed: true });
    expect(await b.forget(s.id)).toBe(true);
  });

  it('update and forget return false for a missing id; a short prefix is not found', async () => {
    const a = agent(freshStorePath(), 'alice');
    const m = await a.remember({ content: 'something' });
    expect(await a.updateMemory('ffffffff', { content: 'x' })).toBe(false);
    expect(await a.forget(m.id.slice(0, 5))).toBe(false);
    expect(await a.forget(m.id.slice(0, 8))).toBe(true);
    expect(requireMemory(a.engine.store, m.id).archived).toBe(true);
  });
});

describe('update_memory', () => {
  it('logs a reinforced access without a strength bump and counts a reinforcement', async () => {
    const a = agent(freshStorePath(), 'alice@3');
    const m = await a.remember({ content: 'the build takes 4 minutes' });
    await a.updateMemory(m.id.slice(0, 8), { content: 'the build takes 6 minutes', importance: 'CRITICAL', tags: ['ci'] });
    const after = requireMemory(a.engine.store, m.id);
    expect(after).toMatchObject({ content: 'the build takes 6 minutes', importance: 10, tags: ['ci'], strength: 1, reinforcement_count: 1, reinforced_count: 1, access_count: 1 });
    expect(a.engine.store.accessEvents({ memoryId: m.id, channels: ['reinforced'] }).events).toMatchObject([{ reader_owner: 'alice@3', session_ref: 'test-alice@3', reinforce: false }]);
  });

  it('status applies only to todos; a type switch opens or clears it', async () => {
    const a = agent(freshStorePath(), 'alice');
    const m = await a.remember({ content: 'look into flaky test' });
    expect((await rejection(a.updateMemory(m.id, { status: 'DONE' }))).message).toMatch(/status applies only to todo memories/);
    await a.updateMemory(m.id, { type: 'todo' });
    expect(requireMemory(a.engine.store, m.id).status).toBe('open');
    await a.updateMemory(m.id, { status: 'done' });
    expect(requireMemory(a.engine.store, m.id).status).toBe('done');
    expect((await rejection(a.updateMemory(m.id, { status: 'LATER' }))).message).toMatch(/OPEN \| DONE \| DROPPED/);
    await a.updateMemory(m.id, { type: 'info' });
    expect(requireMemory(a.engine.store, m.id).status).toBeNull();
  });

  it('replaces references with fresh captures; a malformed one writes nothing', async () => {
    const a = agent(freshStorePath(), 'alice');
    const m = await a.remember({ content: 'see the plan', references: ['var:plan'] });
    await a.updateMemory(m.id, { references: ['memory:' + m.id.slice(0, 8)] });
    expect(requireMemory(a.engine.store, m.id).references).toMatchObject([{ kind: 'memory', key: m.id.slice(0, 8), preview: '[info] see the plan' }]);
    expect((await rejection(a.updateMemory(m.id, { references: ['plan'] }))).message).toMatch(/malformed reference/);
    expect(requireMemory(a.engine.store, m.id).reinforcement_count).toBe(1);
  });
});

describe('deref', () => {
  it('memory: logs a deref access (touching) on the target; other kinds log nothing', async () => {
    const a = agent(freshStorePath(), 'alice@1');
    const m = await a.remember({ content: 'the answer is 42' });
    expect(a.deref(`memory:${m.id.slice(0, 8)}`)).toBe(`ref memory:${m.id.slice(0, 8)} (LIVE) → [info] the answer is 42`);
    const after = requireMemory(a.engine.store, m.id);
    expect(after).toMatchObject({ deref_count: 1, strength: 2 });
    expect(after.access_log.at(-1)).toMatchObject({ channel: 'deref', reader_owner: 'alice@1', session_ref: 'test-alice@1' });
    expect(a.deref('var:nothing')).toMatch(/^ref var:nothing \(DANGLING; snapshot @ .*\) → \(no snapshot captured\)$/);
    expect(a.stats()).toMatchObject({ refs_resolved: 1, refs_dangling: 1 });
  });

  it('refuses a file path that leaves the workspace', async () => {
    const a = agent(freshStorePath(), 'alice');
    for (const ref of ['file:../../etc/passwd', 'file:/etc/passwd']) {
      expect((await rejection(() => a.deref(ref))).code).toBe('bad_input');
    }
  });
});

describe('reflect', () => {
  it("runs at the own role's scope: alice's pass merges her duplicates, never bob's", async () => {
    const path = freshStorePath();
    const a = agent(path, 'alice@1');
    const b = agent(path, 'bob@1');
    const text = 'the quarterly report is due on the first friday of the month';
    const a1 = await a.remember({ content: text, dedup: false });
    const a2 = await a.remember({ content: text, dedup: false });
    const b1 = await b.remember({ content: text, dedup: false });
    const b2 = await b.remember({ content: text, dedup: false });
    const out = await a.reflect();
    expect(out.report.merged).toBe(1);
    expect(out.change_id).not.toBeNull();
    const store = a.engine.store;
    expect([a1.id, a2.id].map((id) => requireMemory(store, id).archived).sort()).toEqual([false, true]);
    expect([b1.id, b2.id].map((id) => requireMemory(store, id).archived)).toEqual([false, false]);
    expect(a.stats()).toMatchObject({ reflections: 1, merged: 1 });
    expect((await b.reflect()).report.merged).toBe(1);
  });
});

describe('forget', () => {
  it('archives with a tombstone: writing the same content again is refused (unless forced), only within the own role', async () => {
    const path = freshStorePath();
    const a = agent(path, 'alice@1');
    const a2 = agent(path, 'alice@2');
    const b = agent(path, 'bob');
    const m = await a.remember({ content: 'The VPN password is hunter2' });
    expect(await a.forget(m.id.slice(0, 8))).toBe(true);
    expect(requireMemory(a.engine.store, m.id)).toMatchObject({ archived: true });
    const err = await rejection(a2.remember({ content: 'the vpn  password is HUNTER2' }));
    expect(err.code).toBe('conflict');
    expect(err.message).toMatch(/^this content was forgotten on .* \(memory [0-9a-f]{8}: "The VPN password is hunter2"\); write it again only on purpose \(force: true\)/);
    expect((await b.remember({ content: 'The VPN password is hunter2' })).reinforced).toBe(false);
    const forced = await a.remember({ content: 'The VPN password is hunter2', force: true });
    expect(forced.id).not.toBe(m.id);
  });

  it('the forget is one journalled change; undoing it restores the memory and lifts the tombstone', async () => {
    const a = agent(freshStorePath(), 'alice');
    const m = await a.remember({ content: 'meetings are on tuesdays' });
    await a.forget(m.id);
    const change = a.engine.store.journal.history(1)[0]!;
    expect(change).toMatchObject({ kind: 'memory.forget', counts: { memories_modified: 1, t_created: 1 } });
    a.engine.store.journal.undo(change.id);
    expect(requireMemory(a.engine.store, m.id).archived).toBe(false);
    expect((await a.remember({ content: 'meetings are on tuesdays' })).id).toBe(m.id);
  });
});
