/**
 * What the workbench shows of agent credentials: the access audit names the credential behind each
 * access (label, owner, id), and a fleet store's KPIs list each credential with the accesses and
 * changes it made.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentMemory } from '../../core/agent/agent-memory.js';
import { issueCredential, revokeCredentials } from '../../core/agent/credentials.js';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { AgentApiSession } from '../../core/host/agent-session.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';

const NOW = 1_750_000_000;
const clock = fixedClock(NOW);
const closers: { close(): void }[] = [];
afterEach(() => {
  while (closers.length) closers.pop()!.close();
});

async function storeUsedByAnAgent() {
  const folder = tempDir();
  const path = join(folder, 'run-1.sqlite');
  const store = MemoryStore.open(path, { create: true, clock });
  const laptop = issueCredential(store, { owner: 'coder@laptop', label: 'laptop' }, clock).credential;
  const idle = issueCredential(store, { owner: 'coder@ci' }, clock).credential;
  revokeCredentials(store, idle.id, clock);
  store.close();
  const session = new AgentApiSession({ clock, credential: laptop });
  session.open(path);
  const agent = new AgentMemory(session, { workspaceRoot: null });
  const { id } = await agent.remember({ content: 'the nightly build publishes to the staging bucket' });
  await agent.recall('nightly build staging');
  agent.close();
  const workbench = new ApiSession({ clock });
  workbench.open(path);
  closers.push(workbench);
  return { folder, path, laptop, idle, id, workbench };
}

describe('the access audit names credentials', () => {
  it('each access made with a credential carries its id, owner and label; local accesses carry none', async () => {
    const { laptop, id, workbench } = await storeUsedByAnAgent();
    await call(workbench, 'recall.run', { query: 'nightly build', k: 3 });
    const { events } = await call(workbench, 'access.list', { memory_id: id, order: 'asc' });
    const byReader = events.map((e) => [e.channel, e.reader_owner, e.credential]);
    expect(byReader).toContainEqual(['recalled', 'coder@laptop', { id: laptop.id, owner: 'coder@laptop', label: 'laptop' }]);
    expect(byReader).toContainEqual(['recalled', 'workbench', null]);
    for (const e of events) expect(e.credential === null).toBe(e.reader_owner === 'workbench');
  });
});

describe('the access audit filters by credential', () => {
  it('a credential id keeps only its accesses; "local" keeps only those made without one', async () => {
    const { laptop, idle, workbench } = await storeUsedByAnAgent();
    await call(workbench, 'recall.run', { query: 'nightly build', k: 3 });
    const all = await call(workbench, 'access.list', {});
    const mine = await call(workbench, 'access.list', { credential: laptop.id });
    const local = await call(workbench, 'access.list', { credential: 'local' });
    expect(mine.total).toBeGreaterThanOrEqual(2);
    expect(mine.events.every((e) => e.credential?.id === laptop.id)).toBe(true);
    expect(local.total).toBeGreaterThanOrEqual(1);
    expect(local.events.every((e) => e.credential === null)).toBe(true);
    expect(mine.total + local.total).toBe(all.total);
    expect((await call(workbench, 'access.list', { credential: idle.id })).total).toBe(0);
  });

  it('offers every credential of the store, revoked ones marked', async () => {
    const { laptop, idle, workbench } = await storeUsedByAnAgent();
    expect(await call(workbench, 'access.credentials', {})).toEqual({
      credentials: [
        { id: laptop.id, owner: 'coder@laptop', label: 'laptop', revoked: false },
        { id: idle.id, owner: 'coder@ci', label: null, revoked: true },
      ],
    });
  });

  it('refuses a filter that is neither a credential id nor "local", saying what it takes', async () => {
    const { workbench } = await storeUsedByAnAgent();
    for (const method of ['access.list', 'journal.history'] as const) {
      const err = await call(workbench, method, { credential: 'laptop' }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'bad_input' });
      expect((err as Error).message).toContain('12 hex digits');
      expect((err as Error).message).toContain('"local"');
    }
  });
});

describe('History names the credential behind each change', () => {
  it('each change carries its credential (label and owner) or null, and the filter keeps one side', async () => {
    const { laptop, workbench, id } = await storeUsedByAnAgent();
    await call(workbench, 'memory.update', { id, patch: { importance: 8 } });
    const history = await call(workbench, 'journal.history', {});
    const byWho = history.map((c) => [c.kind, c.credential]);
    expect(byWho).toEqual([
      [expect.any(String), null],
      [expect.any(String), { id: laptop.id, owner: 'coder@laptop', label: 'laptop' }],
    ]);
    expect((await call(workbench, 'journal.history', { credential: laptop.id })).map((c) => c.credential_id)).toEqual([laptop.id]);
    expect((await call(workbench, 'journal.history', { credential: 'local' })).map((c) => c.id)).toEqual([history[0]!.id]);
  });
});

describe('fleet KPIs list credentials', () => {
  it('with the accesses and changes each made, last use first, revoked ones marked', async () => {
    const { folder, laptop, idle, workbench } = await storeUsedByAnAgent();
    await call(workbench, 'fleet.open', { folder });
    const kpis = await call(workbench, 'fleet.kpis', { name: 'run-1.sqlite' });
    expect(kpis.ok).toBe(true);
    expect(kpis.credentials).toEqual([
      { id: laptop.id, owner: 'coder@laptop', label: 'laptop', revoked: false, accesses: expect.any(Number), changes: 1, last_used: NOW },
      { id: idle.id, owner: 'coder@ci', label: null, revoked: true, accesses: 0, changes: 0, last_used: null },
    ]);
    expect(kpis.credentials[0]!.accesses).toBeGreaterThanOrEqual(2);
  });
});
