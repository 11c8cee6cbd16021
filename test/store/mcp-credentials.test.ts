/**
 * The MCP tools of a session serving an agent credential: the credential's scopes are refused as
 * tool errors that name the scope, its owner is the one the owner policy applies, and what it does
 * is attributed to it in the access log.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentMemory } from '../../core/agent/agent-memory.js';
import { issueCredential, type AgentCredential } from '../../core/agent/credentials.js';
import { fixedClock } from '../../core/clock.js';
import { AgentApiSession } from '../../core/host/agent-session.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';
import { connectInProcess, dataOf, textOf, type McpHandle } from '../helpers/mcp.js';

const clock = fixedClock(1_750_000_000);
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

function storeWith(...creds: { owner: string; scopes?: AgentCredential['scopes']; label?: string }[]): { path: string; store: MemoryStore; credentials: AgentCredential[] } {
  const path = join(tempDir(), 'mcp-creds.sqlite');
  const store = MemoryStore.open(path, { create: true, clock });
  cleanup.push(() => store.close());
  return { path, store, credentials: creds.map((c) => issueCredential(store, c, clock).credential) };
}

async function mcpAs(path: string, credential: AgentCredential): Promise<McpHandle> {
  const session = new AgentApiSession({ clock, credential, reader: { session_ref: 'remote-1' } });
  session.open(path);
  const agent = new AgentMemory(session, { workspaceRoot: null });
  const mcp = await connectInProcess(agent);
  cleanup.push(() => agent.close(), () => mcp.close());
  return mcp;
}

describe('MCP tools under a credential', () => {
  it('a read-only credential: write tools answer a permission error naming the scope; recall works', async () => {
    const { path, credentials } = storeWith({ owner: 'coder@a' }, { owner: 'coder@a', scopes: ['read-only'], label: 'dashboard' });
    const writer = await mcpAs(path, credentials[0]!);
    const { id } = dataOf(await writer.call('remember', { content: 'builds run on the self-hosted runner' })) as { id: string };
    const reader = await mcpAs(path, credentials[1]!);
    for (const [tool, args] of [
      ['remember', { content: 'x' }],
      ['update_memory', { memory_id: id.slice(0, 8), title: 'runner' }],
      ['forget', { memory_id: id.slice(0, 8) }],
      ['todo_open', { content: 'check the runner' }],
      ['reflect', {}],
    ] as const) {
      const r = await reader.call(tool, args);
      expect(r.isError, tool).toBe(true);
      expect(textOf(r), tool).toMatch(new RegExp(`^permission: credential dashboard \\(${credentials[1]!.id}\\) has the read-only scope, so ${tool} is refused`));
    }
    const hits = dataOf(await reader.call('recall', { query: 'self-hosted runner' })) as { memories: { id: string }[] };
    expect(JSON.stringify(hits)).toContain(id);
  });

  it('a no-reflect credential: reflect is refused, remember is not', async () => {
    const { path, credentials } = storeWith({ owner: 'coder@a', scopes: ['no-reflect'] });
    const mcp = await mcpAs(path, credentials[0]!);
    expect((await mcp.call('remember', { content: 'a durable fact' })).isError).toBeFalsy();
    const r = await mcp.call('reflect', {});
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^permission: .*no-reflect scope, so reflect is refused/);
  });

  it("A's credential cannot change B's memories, and its reads are logged as A with A's credential", async () => {
    const { path, store, credentials } = storeWith({ owner: 'coder@a' }, { owner: 'planner@b' });
    const [a, b] = [await mcpAs(path, credentials[0]!), await mcpAs(path, credentials[1]!)];
    const { id } = dataOf(await b.call('remember', { content: 'the release is on friday' })) as { id: string };
    const update = await a.call('update_memory', { memory_id: id.slice(0, 8), content: 'the release is cancelled' });
    expect(update.isError).toBe(true);
    expect(textOf(update)).toMatch(/^permission: /);
    expect((await a.call('forget', { memory_id: id.slice(0, 8) })).isError).toBe(true);
    expect(store.get(id)!.content).toBe('the release is on friday');
    await a.call('recall', { query: 'release friday', owner: '*' });
    const events = store.accessEvents({ memoryId: id, channels: ['recalled'] }).events;
    expect(events.map((e) => [e.reader_owner, e.credential_id])).toEqual([['coder@a', credentials[0]!.id]]);
  });
});
