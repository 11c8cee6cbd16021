/**
 * `mnemo mcp --http` as a real process with the store's own credentials (issued as `mnemo agents
 * add` issues them): the token's owner is the request's owner, its scopes hold, its accesses carry
 * its id, a revocation (from another process) holds from the next request, and the token appears
 * neither on the server's stderr nor in the store's files.
 */
import { readFileSync, existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { issueCredential, listCredentials } from '../../core/agent/credentials.js';
import { fixedClock } from '../../core/clock.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { startMcpHttpChild, type McpHttpChild } from '../../support/mcp-http-child.js';
import { connectHttp, rawPost, INITIALIZE } from '../helpers/mcp-http.js';
import { dataOf, textOf } from '../helpers/mcp.js';
import { freshStorePath, T0 } from '../helpers/agents.js';
import { runCli } from '../helpers/cli.js';

const REPO = process.cwd();
const clock = fixedClock(T0);
const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0).reverse()) await s();
});

function withStore<T>(path: string, fn: (store: MemoryStore) => T): T {
  const store = MemoryStore.open(path, { create: true, clock });
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

describe('mnemo mcp --http with the store\'s credentials', () => {
  it('serves each token as its owner, enforces scopes, attributes accesses, honours revocation, and never shows the token', async () => {
    const path = freshStorePath();
    // bob's and the viewer's tokens straight from the store (which this creates), alice's as an operator issues it.
    const [bob, viewer] = withStore(path, (store) => [
      issueCredential(store, { owner: 'bob@1' }, clock),
      issueCredential(store, { owner: 'alice@2', scopes: ['read-only'], label: 'dashboard' }, clock),
    ]);
    const added = await runCli(['agents', 'add', path, 'alice@1', '--json', '--now', String(T0)]);
    expect(added.code).toBe(0);
    const { token: aliceToken } = added.json() as { owner: string; token: string };
    const aliceId = withStore(path, (store) => listCredentials(store).find((c) => c.owner === 'alice@1')!.id);
    const server: McpHttpChild = await startMcpHttpChild(REPO, ['mcp', path, '--http', '--now', String(T0)]);
    stops.push(() => server.stop());

    const a = await connectHttp(server.url, aliceToken);
    const b = await connectHttp(server.url, bob!.token);
    const v = await connectHttp(server.url, viewer!.token);
    stops.push(() => a.close(), () => b.close(), () => v.close());
    const mine = dataOf(await a.call('remember', { content: 'the ferry leaves at nine' })).id;
    const theirs = dataOf(await b.call('remember', { content: 'the ferry ticket office closes at eight' })).id;
    expect(dataOf(await a.call('recall', { query: 'ferry' })).results.map((r: { id: string }) => r.id)).toEqual([mine]);
    const cross = await a.call('forget', { memory_id: theirs });
    expect(textOf(cross)).toMatch(/^permission: /);
    const readOnly = await v.call('remember', { content: 'x' });
    expect(textOf(readOnly)).toMatch(/^permission: credential dashboard \(\w+\) has the read-only scope/);
    // The viewer (role alice) reads alice's memory; the access names its credential.
    expect(dataOf(await v.call('recall', { query: 'ferry' })).results.map((r: { id: string }) => r.id)).toContain(mine);
    const recalled = withStore(path, (store) => store.accessEvents({ memoryId: mine, channels: ['recalled'] }).events);
    expect(recalled.map((e) => e.credential_id)).toEqual(expect.arrayContaining([aliceId, viewer!.credential.id]));

    // Revoked from another process: the next request is refused.
    expect((await runCli(['agents', 'revoke', path, 'bob@1', '--now', String(T0)])).code).toBe(0);
    const revoked = await rawPost(server.url, INITIALIZE, { authorization: `Bearer ${bob!.token}` });
    expect(revoked.status).toBe(401);
    await expect(b.client.ping()).rejects.toThrow();

    await server.stop();
    for (const token of [aliceToken, bob!.token, viewer!.token]) {
      expect(server.stderr()).not.toContain(token);
      for (const file of [path, `${path}-wal`]) {
        if (existsSync(file)) expect(readFileSync(file).includes(Buffer.from(token))).toBe(false);
      }
    }
  });
});
