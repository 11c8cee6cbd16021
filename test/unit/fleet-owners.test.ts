/**
 * fleet.owners: the agents (owners) of the open store, one row each, through the service (the door
 * every shell calls), on a store three agents wrote through the library as a fleet would. Runs on
 * SQLite and on PostgreSQL (vitest.config.ts, POSTGRES_SUITES).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { issueCredential } from '../../core/agent/credentials.js';
import { ApiSession } from '../../core/api/context.js';
import { call, invoke } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { AgentApiSession } from '../../core/host/agent-session.js';
import { agentOn, freshStorePath, T0 } from '../helpers/agents.js';

const clock = fixedClock(T0);
const closers: { close(): void }[] = [];
afterEach(() => {
  while (closers.length) closers.pop()!.close();
});
const kept = <C extends { close(): void }>(c: C): C => (closers.push(c), c);

/** w0 and w1 write two memories each, the reviewer one; w1 and the reviewer read w0's (another role); w0 reads its own. */
async function fleetStore(): Promise<{ path: string; w0: string[] }> {
  const path = freshStorePath();
  const [w0, w1, reviewer] = ['w0@fleet', 'w1@fleet', 'reviewer@ci'].map((owner) => kept(agentOn(path, owner)));
  const w0Ids = [
    (await w0!.remember({ content: 'the nightly build publishes to the staging bucket', dedup: false })).id,
    (await w0!.remember({ content: 'staging deploys need the canary to be healthy', type: 'skill', dedup: false })).id,
  ];
  await w1!.remember({ content: 'the kiln fires at 1200 degrees', dedup: false });
  await w1!.remember({ content: 'the kiln needs a new thermocouple', dedup: false });
  await reviewer!.remember({ content: 'reviews wait for the integration tests', dedup: false });
  await w1!.recall('staging bucket nightly build', { owner: '*', k: 2 });
  await reviewer!.recall('staging canary deploys', { owner: 'w0', k: 2 });
  await w0!.recall('staging', { k: 2 });
  return { path, w0: w0Ids };
}

function workbench(path: string): ApiSession {
  const session = kept(ApiSession.withFrozenClock(T0));
  session.open(path);
  return session;
}

describe('fleet.owners', () => {
  it('gives one row per owner of the open store, with no fleet folder open, and its numbers are the audit\'s and the list\'s', async () => {
    const { path, w0 } = await fleetStore();
    const session = workbench(path);
    await call(session, 'memory.archive', { ids: [w0[1]!] });
    await call(session, 'edge.add', { src: w0[0]!, dst: w0[1]!, type: 'related' });
    const { owners, truncated } = await call(session, 'fleet.owners', {});
    expect(truncated).toBe(false);
    expect(owners.map((o) => o.owner)).toEqual(['reviewer@ci', 'w0@fleet', 'w1@fleet']);
    const byOwner = new Map(owners.map((o) => [o.owner, o]));
    expect(byOwner.get('w0@fleet')).toMatchObject({ live: 1, archived: 1, by_type: { info: 1 }, edges_out: 1, last_created: T0 });
    expect(byOwner.get('w1@fleet')).toMatchObject({ live: 2, archived: 0, by_type: { info: 2 }, edges_out: 0 });
    expect(byOwner.get('reviewer@ci')).toMatchObject({ live: 1, archived: 0, by_type: { info: 1 }, edges_out: 0 });

    // Reads of other roles' memories: per reader, the Access audit's cross-owner accesses.
    for (const o of owners) {
      const audit = await call(session, 'access.list', { cross_owner_only: true, reader_owner: o.owner, limit: 1 });
      expect(o.foreign_reads, o.owner).toBe(audit.total);
    }
    expect(byOwner.get('w1@fleet')!.foreign_reads).toBeGreaterThan(0);
    expect(byOwner.get('reviewer@ci')!.foreign_reads).toBeGreaterThan(0);
    expect(byOwner.get('w0@fleet')!.foreign_reads).toBe(0); // it read its own role's memories only

    // Accesses on an owner's memories: every access event on each of them, whoever read it.
    for (const o of owners) {
      const ids = (await call(session, 'memory.list', { owners: [o.owner], archived: 'all', limit: 100 })).rows.map((r) => r.id);
      let accesses = 0;
      let last: number | null = null;
      for (const id of ids) {
        const events = await call(session, 'access.list', { memory_id: id, limit: 1 });
        accesses += events.total;
        if (events.events[0]) last = Math.max(last ?? -Infinity, events.events[0].ts);
      }
      expect([o.owner, o.accesses, o.last_access]).toEqual([o.owner, accesses, last]);
    }
    expect(byOwner.get('w0@fleet')!.accesses).toBeGreaterThanOrEqual(3);
  });

  it('caps the rows at `limit`, in byte order, and says so; refuses a limit outside 1..1000', async () => {
    const { path } = await fleetStore();
    const session = workbench(path);
    expect(await call(session, 'fleet.owners', { limit: 2 })).toMatchObject({ owners: [{ owner: 'reviewer@ci' }, { owner: 'w0@fleet' }], truncated: true });
    for (const limit of [0, 1001, 1.5, 'all']) {
      const res = await invoke(session, 'fleet.owners', { limit });
      expect(res, String(limit)).toMatchObject({ ok: false, error: { code: 'bad_input' } });
      expect((res as { error: { message: string } }).error.message).toContain('limit');
    }
  });

  it('refuses a session that serves an agent credential, as it refuses the owner facet: a scoped agent learns no other owner\'s counts', async () => {
    const { path } = await fleetStore();
    const engine = kept(Engine.open(path, { clock }));
    const credential = issueCredential(engine.store, { owner: 'w1@fleet' }, clock).credential;
    const agent = kept(new AgentApiSession({ clock, credential }));
    agent.open(path);
    for (const method of ['fleet.owners', 'memory.facets'] as const) {
      const res = await invoke(agent, method, {});
      expect(res, method).toMatchObject({ ok: false, error: { code: 'permission' } });
      expect((res as { error: { message: string } }).error.message).toContain(method);
    }
    // The same store, read by the workbench (no credential), answers.
    expect((await call(workbench(path), 'fleet.owners', {})).owners).toHaveLength(3);
  });

  it('says no store is open rather than answering for none', async () => {
    const session = kept(ApiSession.withFrozenClock(T0));
    expect(await invoke(session, 'fleet.owners', {})).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
