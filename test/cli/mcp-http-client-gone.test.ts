/**
 * MCP over HTTP with the agents' memories in engine workers: a reflection whose client goes away
 * (its connection closes before the answer, or its session ends) is cancelled and writes nothing,
 * and one session's reflection never holds up another session's recall (reflect runs in the jobs
 * lane). The jobs worker is held by a test extension first, so the reflection is still waiting
 * when its caller leaves, whatever the machine's speed.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHttp, credential, httpServer, INITIALIZE, rawPost, type HttpFixture } from '../helpers/mcp-http.js';
import { textOf } from '../helpers/mcp.js';

const HOLD = pathToFileURL(join(import.meta.dirname, '..', 'helpers', 'engine-hold-extension.ts')).href;
const TOKEN = 'tok-coder-0123456789abcdef';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let fixture: HttpFixture | null = null;
afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

/** Work for a reflection at the agent's role: the same note written three times (merges), as the API writes it (no dedup). */
async function seedDuplicates(f: HttpFixture): Promise<void> {
  for (let i = 0; i < 3; i++) await f.engines.call('memory.add', { content: 'The billing deploy failed because the staging key expired', owner: 'Coder@a' });
}

async function reflectChanges(f: HttpFixture): Promise<number> {
  const history = (await f.engines.call('journal.history', { limit: 100 })) as { kind: string; state: string }[];
  return history.filter((c) => c.kind === 'reflect.apply' && c.state === 'applied').length;
}

describe('a reflection whose MCP client goes away', () => {
  it('is cancelled when its connection closes before the answer: nothing is written; the same call kept runs and writes', { timeout: 120_000 }, async () => {
    fixture = await httpServer({ [TOKEN]: credential('c1', 'Coder@a') }, { lanes: { agents: 1, jobs: 1 }, extensions: [HOLD] });
    const f = fixture;
    const agent = await connectHttp(f.server.url, TOKEN);
    await seedDuplicates(f);
    const session = { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': agent.transport.sessionId!, 'mcp-protocol-version': '2025-11-25' };

    // The jobs worker is busy: the reflection waits there.
    const held = f.engines.request('jobs', 'test.hold', { ms: 2500 });
    const leave = new AbortController();
    const call = fetch(f.server.url, {
      method: 'POST',
      signal: leave.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'reflect', arguments: {} } }),
    })
      .then((r) => r.text())
      .catch(() => 'gone');
    await sleep(300);
    leave.abort();
    expect(await call).toBe('gone');
    await held;
    await sleep(500);
    expect(await reflectChanges(f)).toBe(0);

    // Not a store without work: the same call, kept, reflects and writes its change.
    const kept = await agent.call('reflect', {});
    expect(kept.isError).toBeFalsy();
    expect(textOf(kept)).toMatch(/^reflected: merged [1-9]/);
    expect(await reflectChanges(f)).toBe(1);
    await agent.close();
  });

  it('is cancelled when its session ends, and the reflection of one session never waits for another session', { timeout: 120_000 }, async () => {
    fixture = await httpServer({ [TOKEN]: credential('c1', 'Coder@a') }, { lanes: { agents: 1, jobs: 1 }, extensions: [HOLD] });
    const f = fixture;
    const writer = await connectHttp(f.server.url, TOKEN);
    await seedDuplicates(f);
    const init = await rawPost(f.server.url, INITIALIZE, { authorization: `Bearer ${TOKEN}` });
    const sessionId = init.headers.get('mcp-session-id')!;
    const asLeaving = { authorization: `Bearer ${TOKEN}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    await rawPost(f.server.url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), asLeaving);

    let released = false;
    const held = f.engines.request('jobs', 'test.hold', { ms: 2500 }).then(() => (released = true));
    const reflecting = rawPost(f.server.url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'reflect', arguments: {} } }), asLeaving).catch(() => null);
    await sleep(300);
    // Another session's recall is answered while the jobs worker is still held and the reflection waits.
    expect((await writer.call('recall', { query: 'billing deploy' })).isError).toBeFalsy();
    expect(released).toBe(false);
    // The leaving session ends (DELETE): its reflection is cancelled.
    const del = await fetch(f.server.url, { method: 'DELETE', headers: asLeaving });
    expect(del.status).toBeLessThan(300);
    await held;
    await reflecting;
    await sleep(500);
    expect(await reflectChanges(f)).toBe(0);
    await writer.close();
  });
});
