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
import { connectHttp, credential, httpServer, INITIALIZE, rawPost, sseEvents, type HttpFixture } from '../helpers/mcp-http.js';
import { textOf } from '../helpers/mcp.js';

const HOLD = pathToFileURL(join(import.meta.dirname, '..', 'helpers', 'engine-hold-extension.ts')).href;
const TOKEN = 'tok-coder-0123456789abcdef';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long a dropped call waits for its client to resume the stream, in these tests. */
const GRACE_MS = 300;

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
  it('is cancelled when its connection closes before the answer and is not resumed: nothing is written; the same call kept runs and writes', { timeout: 120_000 }, async () => {
    fixture = await httpServer({ [TOKEN]: credential('c1', 'Coder@a') }, { lanes: { agents: 1, jobs: 1 }, extensions: [HOLD], resumeGraceMs: GRACE_MS });
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
    // Past the grace for a resume, the call is cancelled; the reflection starts cancelled once the worker is free.
    await sleep(GRACE_MS * 2);
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

  it('is not cancelled when its client resumes the dropped stream in time: the answer arrives there, and the change is written', { timeout: 120_000 }, async () => {
    fixture = await httpServer({ [TOKEN]: credential('c1', 'Coder@a') }, { lanes: { agents: 1, jobs: 1 }, extensions: [HOLD], resumeGraceMs: 5_000 });
    const f = fixture;
    await seedDuplicates(f);
    const asA = { authorization: `Bearer ${TOKEN}` };
    const init = await rawPost(f.server.url, INITIALIZE, asA);
    const session = { ...asA, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    await rawPost(f.server.url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), session);
    const held = f.engines.request('jobs', 'test.hold', { ms: 2000 });
    const dropped = new AbortController();
    const call = await fetch(f.server.url, {
      method: 'POST',
      signal: dropped.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'reflect', arguments: {} } }),
    });
    const priming = (await sseEvents(call.body!).next()).value!;
    dropped.abort();
    const resumed = new AbortController();
    // As the SDK's client does: reconnect, again a moment later if the server has not yet seen the old stream close (409).
    let again = await fetch(f.server.url, { method: 'GET', signal: resumed.signal, headers: { accept: 'text/event-stream', 'last-event-id': priming.id!, ...session } });
    for (let i = 0; i < 20 && again.status === 409; i++) {
      await sleep(100);
      again = await fetch(f.server.url, { method: 'GET', signal: resumed.signal, headers: { accept: 'text/event-stream', 'last-event-id': priming.id!, ...session } });
    }
    expect(again.status).toBe(200);
    await held;
    let answer: { id?: number; result?: { content: { text: string }[] } } | null = null;
    for await (const e of sseEvents(again.body!)) {
      if (!e.data) continue;
      answer = JSON.parse(e.data);
      if (answer?.id === 9) break;
    }
    resumed.abort();
    expect(answer?.result?.content[0]?.text).toMatch(/^reflected: merged [1-9]/);
    expect(await reflectChanges(f)).toBe(1);
  });

  it('is cancelled when its client cancels the request (notifications/cancelled): nothing is written', { timeout: 120_000 }, async () => {
    fixture = await httpServer({ [TOKEN]: credential('c1', 'Coder@a') }, { lanes: { agents: 1, jobs: 1 }, extensions: [HOLD] });
    const f = fixture;
    await seedDuplicates(f);
    const agent = await connectHttp(f.server.url, TOKEN);
    const held = f.engines.request('jobs', 'test.hold', { ms: 2000 });
    const cancel = new AbortController();
    const call = agent.client.callTool({ name: 'reflect', arguments: {} }, undefined, { signal: cancel.signal }).then(
      () => 'answered',
      () => 'cancelled',
    );
    await sleep(300);
    cancel.abort();
    expect(await call).toBe('cancelled');
    await held;
    await sleep(500);
    expect(await reflectChanges(f)).toBe(0);
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
