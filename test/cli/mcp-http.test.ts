/**
 * Issue 18: `mnemo mcp --http`. The server in-process with a table of test tokens (the store's
 * credentials plug into the same verifier): an SDK client initializes, lists the tools and
 * remembers/recalls; the refusals (401, 403, 413, 429) come back with their status and a message
 * for people; one agent's token cannot reach another's memories or sessions; idle sessions end.
 */
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHttp, credential, httpServer, INITIALIZE, rawPost, sseEvents, type HttpFixture } from '../helpers/mcp-http.js';
import { dataOf, textOf } from '../helpers/mcp.js';
import { movableClock } from '../helpers/agents.js';

const TOKEN_A = 'tok-alice-0123456789abcdef';
const TOKEN_B = 'tok-bob-0123456789abcdef';
const TOKENS = { [TOKEN_A]: credential('cred-a', 'alice@1'), [TOKEN_B]: credential('cred-b', 'bob@1'), 'tok-revoked': credential('cred-r', 'carol@1', 1) };

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function serve(opts: Parameters<typeof httpServer>[1] = {}): Promise<HttpFixture> {
  const f = await httpServer(TOKENS, opts);
  cleanup.push(() => f.close());
  return f;
}

async function agent(url: string, token: string | null) {
  const c = await connectHttp(url, token);
  cleanup.push(() => c.close());
  return c;
}

/** A POST with headers fetch will not set (Host). */
function postWithHost(url: string, host: string, headers: Record<string, string> = {}): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN_A}`, ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(INITIALIZE);
  });
}

describe('mnemo mcp --http: the same tools over Streamable HTTP', () => {
  it('initializes a session, lists the tools, remembers and recalls as the token\'s owner', async () => {
    const { server } = await serve();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const a = await agent(server.url, TOKEN_A);
    expect(a.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const tools = (await a.client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(['remember', 'recall', 'search', 'forget', 'update_memory']));
    const added = dataOf(await a.call('remember', { content: 'the staging database moved to port 6543' }));
    const recalled = dataOf(await a.call('recall', { query: 'staging database port' }));
    expect(recalled.results.map((r: { id: string }) => r.id)).toContain(added.id);
    expect(server.sessions.size).toBe(1);
  });

  it('two sessions share one engine and see each other\'s writes at once', async () => {
    const { server } = await serve();
    const first = await agent(server.url, TOKEN_A);
    const second = await agent(server.url, TOKEN_A);
    const id = dataOf(await first.call('remember', { content: 'the kiln fires at 1200 degrees' })).id;
    expect(dataOf(await second.call('recall', { query: 'kiln' })).results.map((r: { id: string }) => r.id)).toContain(id);
    expect(server.sessions.countFor('credential:cred-a')).toBe(2);
  });

  it('DELETE ends the session', async () => {
    const { server } = await serve();
    const a = await connectHttp(server.url, TOKEN_A);
    expect(server.sessions.size).toBe(1);
    await a.close();
    expect(server.sessions.size).toBe(0);
  });
});

describe('authentication', () => {
  it('no token, a wrong token and a revoked token get 401 with a Bearer challenge', async () => {
    const { server } = await serve();
    const none = await rawPost(server.url, INITIALIZE);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="mnemo"');
    expect(none.json?.error?.message).toMatch(/needs a token.*Authorization: Bearer/);
    for (const bad of ['Bearer wrong-token', 'Bearer tok-revoked', 'Basic YTpi']) {
      const r = await rawPost(server.url, INITIALIZE, { authorization: bad });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
    await expect(connectHttp(server.url, 'wrong-token')).rejects.toThrow();
  });

  it('--anonymous serves requests without a token as its one owner, and still refuses a wrong token', async () => {
    const { server } = await serve({ anonymousOwner: 'tester@1' });
    const anon = await agent(server.url, null);
    const id = dataOf(await anon.call('remember', { content: 'anonymous note about the build cache' })).id;
    const a = await agent(server.url, TOKEN_A);
    // alice's default reads are her role plus shared: the tester's memory is not among them.
    expect(dataOf(await a.call('recall', { query: 'build cache' })).results.map((r: { id: string }) => r.id)).not.toContain(id);
    expect((await rawPost(server.url, INITIALIZE, { authorization: 'Bearer nope' })).status).toBe(401);
  });

  it('--anonymous is refused on a non-loopback host, and any non-loopback host needs allowRemote', async () => {
    await expect(httpServer(TOKENS, { host: '0.0.0.0', allowRemote: true, anonymousOwner: 'tester@1' })).rejects.toThrow(/--anonymous.*only on a loopback address/);
    await expect(httpServer(TOKENS, { host: '0.0.0.0' })).rejects.toThrow(/not a loopback address.*--allow-remote/);
  });
});

describe('owners: a token reaches its own owner\'s memories only', () => {
  it('A cannot read B\'s memories by default, nor change or forget them, nor use B\'s session', async () => {
    const { server } = await serve();
    const a = await agent(server.url, TOKEN_A);
    const b = await agent(server.url, TOKEN_B);
    const bobs = dataOf(await b.call('remember', { content: 'bob keeps the deploy key in the vault' })).id;
    expect(dataOf(await a.call('recall', { query: 'deploy key vault' })).results.map((r: { id: string }) => r.id)).not.toContain(bobs);
    const update = await a.call('update_memory', { memory_id: bobs, content: 'alice was here' });
    expect(update.isError).toBe(true);
    expect(textOf(update)).toMatch(/^permission: /);
    const forget = await a.call('forget', { memory_id: bobs });
    expect(forget.isError).toBe(true);
    expect(textOf(forget)).toMatch(/^permission: /);
    // B's session id with A's token: the session does not exist for A.
    const hijack = await rawPost(server.url, JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }), {
      authorization: `Bearer ${TOKEN_A}`,
      'mcp-session-id': b.transport.sessionId!,
      'mcp-protocol-version': '2025-11-25',
    });
    expect(hijack.status).toBe(404);
    // B's memory is unchanged.
    const still = dataOf(await b.call('recall', { query: 'deploy key vault' })).results.find((r: { id: string }) => r.id === bobs);
    expect(still.content).toContain('bob keeps the deploy key');
  });

  it('the token never reaches the store', async () => {
    const f = await serve();
    const a = await agent(f.server.url, TOKEN_A);
    dataOf(await a.call('remember', { content: 'a note written over HTTP' }));
    await f.close();
    cleanup.length = 0;
    for (const file of [f.path, `${f.path}-wal`]) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        continue;
      }
      expect(bytes.includes(Buffer.from(TOKEN_A))).toBe(false);
    }
  });
});

describe('DNS-rebinding protection', () => {
  it('a foreign Host or a foreign Origin is refused with 403; the server\'s own names are answered', async () => {
    const { server } = await serve();
    const port = new URL(server.url).port;
    expect(await postWithHost(server.url, 'evil.example.com')).toBe(403);
    expect(await postWithHost(server.url, `evil.example.com:${port}`)).toBe(403);
    expect(await postWithHost(server.url, `127.0.0.1:${port}`, { origin: 'http://evil.example.com' })).toBe(403);
    expect(await postWithHost(server.url, `127.0.0.1:${port}`, { origin: `http://127.0.0.1:${port}` })).toBe(200);
    expect(await postWithHost(server.url, `localhost:${port}`)).toBe(200);
  });
});

describe('limits', () => {
  it('a body over the limit gets 413 and a JSON-RPC error that says the limit', async () => {
    const { server } = await serve({ maxBodyBytes: 64 * 1024 });
    const a = await agent(server.url, TOKEN_A);
    const big = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'remember', arguments: { content: 'x'.repeat(100 * 1024) } } });
    const r = await rawPost(server.url, big, { authorization: `Bearer ${TOKEN_A}`, 'mcp-session-id': a.transport.sessionId!, 'mcp-protocol-version': '2025-11-25' });
    expect(r.status).toBe(413);
    expect(r.json?.error?.code).toBe(-32600);
    expect(r.json?.error?.message).toMatch(/request too large: \d+ bytes, over the 0\.1 MB limit/);
    // The session goes on serving.
    expect((await a.client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('a caller over its rate gets 429 with Retry-After; another caller is not affected', async () => {
    const clock = movableClock(1000);
    const { server } = await serve({ clock, rateLimit: { perSecond: 1, burst: 3 } });
    const asA = { authorization: `Bearer ${TOKEN_A}` };
    const init = await rawPost(server.url, INITIALIZE, asA);
    expect(init.status).toBe(200);
    const session = { ...asA, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' });
    expect((await rawPost(server.url, ping, session)).status).toBe(200);
    expect((await rawPost(server.url, ping, session)).status).toBe(200);
    const over = await rawPost(server.url, ping, session);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('1');
    expect(over.json?.error?.message).toBe('too many requests from this agent; retry in 1 second');
    expect((await rawPost(server.url, INITIALIZE, { authorization: `Bearer ${TOKEN_B}` })).status).toBe(200);
    clock.advance(1);
    expect((await rawPost(server.url, ping, session)).status).toBe(200);
  });

  it('a caller with as many requests in flight as allowed gets 429 for the next one; others are served', async () => {
    const { server } = await serve({ maxInFlight: 1 });
    const a = await agent(server.url, TOKEN_A);
    const u = new URL(server.url);
    // Hold one request of A's open: its body never finishes arriving.
    const held = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { authorization: `Bearer ${TOKEN_A}`, 'content-type': 'application/json', 'content-length': '1000' } });
    held.on('error', () => {});
    held.write('{');
    while (server.inFlight.running('credential:cred-a') === 0) await new Promise((r) => setTimeout(r, 5));
    const refused = await rawPost(server.url, JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' }), { authorization: `Bearer ${TOKEN_A}`, 'mcp-session-id': a.transport.sessionId!, 'mcp-protocol-version': '2025-11-25' });
    expect(refused.status).toBe(429);
    expect(refused.json?.error?.message).toMatch(/already has as many requests running/);
    const b = await agent(server.url, TOKEN_B);
    await b.client.ping();
    held.destroy();
  });

  // Whether the flood meets the in-flight bound depends on timing (the test above pins the bound
  // itself); what must hold whatever the timing: the other agent is answered in full, and the
  // flooder is only ever answered or told to slow down.
  it('an agent flooding the server does not crowd out another agent', async () => {
    const { server } = await serve({ maxInFlight: 4 });
    const flooder = await agent(server.url, TOKEN_A);
    const polite = await agent(server.url, TOKEN_B);
    const asFlooder = { authorization: `Bearer ${TOKEN_A}`, 'mcp-session-id': flooder.transport.sessionId!, 'mcp-protocol-version': '2025-11-25' };
    const flood = Array.from({ length: 60 }, (_, i) => rawPost(server.url, JSON.stringify({ jsonrpc: '2.0', id: 100 + i, method: 'tools/call', params: { name: 'recall', arguments: { query: `flood ${i}` } } }), asFlooder));
    // As many at once as its own bound allows: the calls run in engine workers now, so all of them are in flight together.
    const politeCalls = Array.from({ length: 4 }, (_, i) => polite.call('remember', { content: `a polite note number ${i}` }));
    const [flooded, answered] = await Promise.all([Promise.all(flood), Promise.all(politeCalls)]);
    expect(answered.every((r) => !r.isError)).toBe(true);
    const statuses = flooded.map((r) => r.status);
    expect(statuses.filter((st) => st === 200).length).toBeGreaterThanOrEqual(4);
    expect(statuses.every((st) => st === 200 || st === 429)).toBe(true);
  });
});

describe('sessions', () => {
  it('a client that drops a call\'s stream gets the answer on reconnecting with Last-Event-ID', async () => {
    const { server } = await serve();
    const asA = { authorization: `Bearer ${TOKEN_A}` };
    const init = await rawPost(server.url, INITIALIZE, asA);
    const session = { ...asA, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    await rawPost(server.url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), session);
    const dropped = new AbortController();
    const call = await fetch(server.url, {
      method: 'POST',
      signal: dropped.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 42, method: 'tools/call', params: { name: 'stats', arguments: {} } }),
    });
    // The first event is the priming one: an id to resume from, no data.
    const first = (await sseEvents(call.body!).next()).value!;
    expect(first.id).toBeTruthy();
    expect(first.data).toBe('');
    dropped.abort();
    const resumed = new AbortController();
    const again = await fetch(server.url, { method: 'GET', signal: resumed.signal, headers: { accept: 'text/event-stream', 'last-event-id': first.id!, ...session } });
    expect(again.status).toBe(200);
    let answer: { id?: number; result?: unknown } | null = null;
    for await (const e of sseEvents(again.body!)) {
      if (!e.data) continue;
      answer = JSON.parse(e.data);
      if (answer?.id === 42) break;
    }
    resumed.abort();
    expect(answer?.id).toBe(42);
    expect(answer?.result).toBeTruthy();
  });

  it('a session idle past the timeout is closed by the sweep; its id is then unknown', async () => {
    const clock = movableClock(1000);
    const { server } = await serve({ clock, idleSeconds: 60 });
    const a = await agent(server.url, TOKEN_A);
    const id = a.transport.sessionId!;
    clock.advance(30);
    expect(await server.sessions.sweep()).toBe(0);
    await a.client.ping();
    clock.advance(59);
    expect(await server.sessions.sweep()).toBe(0);
    clock.advance(2);
    expect(await server.sessions.sweep()).toBe(1);
    const after = await rawPost(server.url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }), { authorization: `Bearer ${TOKEN_A}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' });
    expect(after.status).toBe(404);
    expect(after.json?.error?.message).toMatch(/no such MCP session/);
  });

  it('a caller cannot open sessions without end', async () => {
    const { server } = await serve({ maxSessionsPerCaller: 2 });
    await agent(server.url, TOKEN_A);
    await agent(server.url, TOKEN_A);
    const third = await rawPost(server.url, INITIALIZE, { authorization: `Bearer ${TOKEN_A}` });
    expect(third.status).toBe(429);
    expect(third.json?.error?.message).toMatch(/too many open sessions/);
    await agent(server.url, TOKEN_B);
  });
});
