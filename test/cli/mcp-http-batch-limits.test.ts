/**
 * Issue #36's attacks on `mnemo mcp --http`, each against a real server on loopback:
 *
 * - a JSON-RPC batch is many calls in one POST: each call counts against the caller's rate, burst
 *   and in-flight bound, and a call over a limit gets its own 429-equivalent error inside the
 *   batch, having run nothing; a batch longer than --max-batch is refused at once, whole;
 * - idle sockets that send nothing (no token needed to open one) are capped per client address and
 *   in total: past a cap the server answers at once with 503 and a reason, and a squatter that has
 *   sent no authenticated request in a while gives its place to a newcomer;
 * - `--anonymous` serves loopback names only: a public `--allowed-host` beside it is refused.
 *
 * What could go wrong: a batch running every call on one token, a refusal that leaves the whole
 * batch unanswered or answers the wrong ids, a cap that hangs the newcomer instead of answering,
 * a count that never goes down when sockets close.
 */
import { spawnSync } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';
import { connectHttp, credential, httpServer, INITIALIZE, rawPost, type HttpFixture } from '../helpers/mcp-http.js';
import { movableClock } from '../helpers/agents.js';
import { countMemories } from '../../core/store/queries/memory-lookups.js';

const TOKEN_A = 'tok-alice-0123456789abcdef';
const TOKEN_B = 'tok-bob-0123456789abcdef';
const TOKENS = { [TOKEN_A]: credential('cred-a', 'alice@1'), [TOKEN_B]: credential('cred-b', 'bob@1') };
const ROOT = join(import.meta.dirname, '..', '..');

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function serve(opts: Parameters<typeof httpServer>[1] = {}): Promise<HttpFixture> {
  const f = await httpServer(TOKENS, opts);
  cleanup.push(() => f.close());
  return f;
}

interface RpcAnswer {
  id: number;
  result?: { isError?: boolean };
  error?: { code: number; message: string; data?: { status?: number; retry_after?: number } };
}

/** POSTs a batch on an initialized session; the JSON-RPC answers, from a JSON body or the SSE stream. */
async function postBatch(url: string, session: Record<string, string>, batch: unknown[]): Promise<{ status: number; answers: RpcAnswer[]; body: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...session }, body: JSON.stringify(batch) });
  const body = await res.text();
  const answers: RpcAnswer[] = [];
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    for (const m of body.matchAll(/^data: ?(.*)$/gm)) {
      if (m[1]!.trim() === '') continue; // the priming event
      const parsed = JSON.parse(m[1]!) as RpcAnswer | RpcAnswer[];
      answers.push(...(Array.isArray(parsed) ? parsed : [parsed]));
    }
  } else if (body) {
    const parsed = JSON.parse(body) as RpcAnswer | RpcAnswer[];
    answers.push(...(Array.isArray(parsed) ? parsed : [parsed]));
  }
  return { status: res.status, answers: answers.sort((a, b) => a.id - b.id), body };
}

async function openSession(url: string, token: string): Promise<Record<string, string>> {
  const asCaller = { authorization: `Bearer ${token}` };
  const init = await rawPost(url, INITIALIZE, asCaller);
  expect(init.status).toBe(200);
  const session = { ...asCaller, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
  expect((await rawPost(url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), session)).status).toBe(202);
  return session;
}

const remember = (i: number) => ({ jsonrpc: '2.0', id: 1000 + i, method: 'tools/call', params: { name: 'remember', arguments: { content: `batched note number ${i} about the release train` } } });
const memoriesIn = (path: string) => {
  const store = MemoryStore.open(path, { readonly: true });
  try {
    return countMemories(store, { includeArchived: true });
  } finally {
    store.close();
  }
};

describe('a JSON-RPC batch counts call by call', () => {
  it('calls past the rate and burst each get their own 429-equivalent error, and only the admitted ones write', async () => {
    const clock = movableClock(1000);
    const { server, path } = await serve({ clock, rateLimit: { perSecond: 2, burst: 2 }, maxInFlight: 100, maxBatch: 20 });
    const session = await openSession(server.url, TOKEN_A);
    clock.advance(10); // the bucket is full again: 2 calls
    const before = memoriesIn(path);
    const { status, answers } = await postBatch(server.url, session, Array.from({ length: 20 }, (_, i) => remember(i)));
    expect(status).toBe(200);
    expect(answers.map((a) => a.id)).toEqual(Array.from({ length: 20 }, (_, i) => 1000 + i));
    const ran = answers.filter((a) => a.result && !a.result.isError);
    const refused = answers.filter((a) => a.error);
    expect({ ran: ran.length, refused: refused.length }, 'calls of a batch of 20 at --rate-limit 2 --burst 2').toEqual({ ran: 2, refused: 18 });
    expect(refused[0]!.error).toMatchObject({ code: -32001, message: expect.stringMatching(/too many requests from this agent; retry in \d+ seconds?/), data: { status: 429, retry_after: expect.any(Number) } });
    expect(memoriesIn(path) - before, 'memories written by the batch').toBe(2);
    // Another caller is not charged for it.
    const other = await connectHttp(server.url, TOKEN_B);
    cleanup.push(() => other.close());
    clock.advance(10);
    expect((await other.call('remember', { content: 'the other agent is served' })).isError ?? false).toBe(false);
  });

  it('calls past the in-flight bound are refused inside the batch; the bound is free again afterwards', async () => {
    const { server, path } = await serve({ rateLimit: { perSecond: 1000, burst: 1000 }, maxInFlight: 3 });
    const session = await openSession(server.url, TOKEN_A);
    const before = memoriesIn(path);
    const { answers } = await postBatch(server.url, session, Array.from({ length: 10 }, (_, i) => remember(i)));
    const refused = answers.filter((a) => a.error);
    expect({ ran: answers.length - refused.length, refused: refused.length }, 'calls of a batch of 10 at --max-in-flight 3').toEqual({ ran: 3, refused: 7 });
    expect(refused[0]!.error?.message).toMatch(/as many requests running as it may/);
    expect(memoriesIn(path) - before).toBe(3);
    expect(server.inFlight.running('credential:cred-a')).toBe(0);
    const again = await postBatch(server.url, session, [remember(50), remember(51)]);
    expect(again.answers.every((a) => a.result && !a.result.isError)).toBe(true);
  });

  it('a batch longer than --max-batch is refused at once, whole, with a reason', async () => {
    const { server, path } = await serve({ maxBatch: 5 });
    const session = await openSession(server.url, TOKEN_A);
    const before = memoriesIn(path);
    const over = await postBatch(server.url, session, Array.from({ length: 6 }, (_, i) => remember(i)));
    expect(over.status, over.body).toBe(413);
    expect(over.body).toMatch(/6 messages.*limit of 5/);
    expect(memoriesIn(path)).toBe(before);
    const within = await postBatch(server.url, session, Array.from({ length: 5 }, (_, i) => remember(i)));
    expect(within.answers.filter((a) => a.result && !a.result.isError)).toHaveLength(5);
  });
});

/** Opens `n` sockets from `localAddress` that send nothing; resolves once each is connected (or was answered and closed). */
async function idleSockets(port: number, n: number, localAddress = '127.0.0.1'): Promise<{ socket: Socket; answer: Promise<string> }[]> {
  const out: { socket: Socket; answer: Promise<string> }[] = [];
  for (let i = 0; i < n; i++) {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    cleanup.push(() => socket.destroy());
    socket.on('error', () => {});
    let text = '';
    socket.on('data', (d) => (text += d.toString()));
    const answer = new Promise<string>((done) => socket.once('close', () => done(text)));
    await new Promise<void>((ready) => socket.once('connect', () => ready()));
    out.push({ socket, answer });
  }
  return out;
}

const within = <T>(p: Promise<T>, ms: number, what: string) => Promise.race([p, new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`${what}: no answer within ${ms} ms`)), ms))]);

describe('open connections are capped per client address and in total', () => {
  it('a socket past the per-client cap is answered at once with 503 and closed; the count goes down as sockets close', async () => {
    const clock = movableClock(1000);
    const { server } = await serve({ clock, maxConnections: 100, maxConnectionsPerClient: 5 });
    const port = Number(new URL(server.url).port);
    const squatters = await idleSockets(port, 5);
    const [extra] = await idleSockets(port, 1);
    const answer = await within(extra!.answer, 2000, 'the socket past the cap');
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toMatch(/too many open connections from 127\.0\.0\.1/);
    // Another address is another client.
    const [fromElsewhere] = await idleSockets(port, 1, '127.0.0.2');
    expect(fromElsewhere!.socket.destroyed).toBe(false);
    for (const s of squatters) s.socket.destroy();
    await new Promise((r) => setTimeout(r, 50));
    const a = await connectHttp(server.url, TOKEN_A);
    cleanup.push(() => a.close());
    await a.client.ping();
  });

  it('past the total cap a newcomer is answered at once; a squatter idle past the grace period gives way to it', async () => {
    const clock = movableClock(1000);
    const { server } = await serve({ clock, maxConnections: 6, maxConnectionsPerClient: 100 });
    const port = Number(new URL(server.url).port);
    const squatters = [...(await idleSockets(port, 3, '127.0.0.3')), ...(await idleSockets(port, 3, '127.0.0.4'))];
    const [refused] = await idleSockets(port, 1, '127.0.0.5');
    expect(await within(refused!.answer, 2000, 'the socket past the total cap')).toMatch(/^HTTP\/1\.1 503 [^]*too many open connections to this server/);
    // The squatters have sent nothing for a while: a newcomer takes the place of the oldest.
    clock.advance(60);
    const a = await within(connectHttp(server.url, TOKEN_A), 5000, 'an agent initializing among squatters');
    cleanup.push(() => a.close());
    await a.client.ping();
    expect(squatters.filter((s) => s.socket.destroyed).length).toBeGreaterThan(0);
  });
});

describe('--anonymous serves loopback names only', () => {
  const run = (args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), 'mcp', join(tempDir('mnemo-anon-'), 'store.sqlite'), '--http', '--port', '0', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 });

  it('refuses --allowed-host with a public name, naming the flag and the fix', () => {
    const r = run(['--anonymous', 'coder@1', '--allowed-host', 'evil.example']);
    expect(r.stderr, 'the server started serving evil.example without a token').toMatch(/--anonymous.*--allowed-host evil\.example/);
    expect(r.status).toBe(2);
  });
});
