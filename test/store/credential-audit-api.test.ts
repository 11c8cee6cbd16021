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
import { MemoryStore } from '../../core/store/store.js';
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
