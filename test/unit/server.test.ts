/** Browser mode's HTTP server: loopback Host only, the token on every API call, envelopes, static files with a CSP, live refresh. */
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { startServer, type RunningServer } from '../../server/http-server.js';
import { isLoopbackHost, tokenMatches, TOKEN_HEADER } from '../../server/security.js';
import { runCli } from '../helpers/cli.js';
import { expected, fixtureCopy, tempDir } from '../../support/fixture.js';
import { inProcessDoor } from '../helpers/in-process-door.js';
import { allMemories } from '../../core/store/queries/memory-lookups.js';

let server: RunningServer | null = null;
let session: ApiSession | null = null;
let door: ReturnType<typeof inProcessDoor> | null = null;
afterEach(async () => {
  await server?.close();
  door?.close();
  session?.close();
  server = null;
  session = null;
  door = null;
});

function fakeRenderer(): string {
  const dir = join(tempDir(), 'renderer');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(dir, 'assets', 'app.js'), 'console.log(1)');
  return dir;
}

async function start(db = fixtureCopy()): Promise<{ server: RunningServer; db: string }> {
  session = ApiSession.withFrozenClock(expected().now);
  session.open(db);
  door = inProcessDoor(session, 100);
  server = await startServer({ door, rendererDir: fakeRenderer(), eventWaitMs: 3000 });
  return { server, db };
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: () => any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A raw request, so the test controls the Host header (fetch would not let it). */
function raw(port: number, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: opts.headers ?? {} }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) }));
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

const api = (s: RunningServer, method: string, input: unknown, headers: Record<string, string> = {}) =>
  raw(s.port, `/api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', [TOKEN_HEADER]: s.token, ...headers }, body: JSON.stringify(input) });

describe('browser-mode server security', () => {
  it('binds to 127.0.0.1 and prints a URL carrying the token in the fragment', async () => {
    const { server: s } = await start();
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(s.openUrl).toBe(`${s.url}#token=${s.token}`);
    expect(s.token.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses an API call without the token, or with a wrong one, with 401', async () => {
    const { server: s } = await start();
    const none = await raw(s.port, '/api/store.info', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(401);
    expect(none.json()).toMatchObject({ ok: false, error: { code: 'permission' } });
    // Change the last character to one it is not (a fixed 'x' equals it in 1 run of 64).
    const last = s.token.endsWith('x') ? 'y' : 'x';
    const wrong = await api(s, 'store.info', {}, { [TOKEN_HEADER]: `${s.token.slice(0, -1)}${last}` });
    expect(wrong.status).toBe(401);
    const ok = await api(s, 'store.info', {});
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ ok: true, value: { counts: { memories: expected().summary.memories } } });
  });

  it('refuses any request whose Host header is not loopback (DNS rebinding), even with the token', async () => {
    const { server: s } = await start();
    for (const host of ['evil.example', `evil.example:${s.port}`, `10.0.0.5:${s.port}`, '127.0.0.1.evil.example']) {
      const r = await api(s, 'store.info', {}, { host });
      expect(r.status, host).toBe(403);
    }
    const page = await raw(s.port, '/', { headers: { host: 'attacker.test' } });
    expect(page.status).toBe(403);
    expect((await api(s, 'store.info', {}, { host: `localhost:${s.port}` })).status).toBe(200);
  });

  it('answers with result envelopes and HTTP statuses for typed errors', async () => {
    const { server: s } = await start();
    const bad = await api(s, 'memory.list', { limit: -1 });
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/limit/) } });
    expect((await api(s, 'memory.get', { id: 'doesnotexist' })).status).toBe(404);
    expect((await api(s, 'no.such.method', {})).json()).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/unknown method/) } });
    const notJson = await raw(s.port, '/api/store.info', { method: 'POST', headers: { [TOKEN_HEADER]: s.token }, body: '{nope' });
    expect(notJson.status).toBe(400);
    expect((await raw(s.port, '/api/store.info', { headers: { [TOKEN_HEADER]: s.token } })).status).toBe(405);
    expect(bad.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it('serves the renderer with a CSP and never a file outside it', async () => {
    const { server: s } = await start();
    const index = await raw(s.port, '/');
    expect(index.status).toBe(200);
    expect(String(index.headers['content-security-policy'])).toMatch(/script-src 'self'/);
    expect(String(index.headers['content-security-policy'])).toMatch(/object-src 'none'/);
    expect((await raw(s.port, '/assets/app.js')).headers['content-type']).toMatch(/javascript/);
    expect((await raw(s.port, '/../../../etc/passwd')).status).toBe(404);
    expect((await raw(s.port, '/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
  });

  it('wakes a waiting /api/_events call when another process writes the store', async () => {
    const { server: s, db } = await start();
    const first = (await api(s, '_events', { after: -1 })).json().value.generation as number;
    const waiting = api(s, '_events', { after: first });
    // A second connection (what another process is to SQLite) commits a write.
    const other = MemoryStore.open(db);
    other.setArchived(allMemories(other)[0]!.id, true);
    other.close();
    const woke = (await waiting).json();
    expect(woke.value.generation).toBeGreaterThan(first);
  });

  it('counts its own writes as changes too', async () => {
    const { server: s } = await start();
    const g0 = (await api(s, '_events', { after: -1 })).json().value.generation as number;
    const id = (await api(s, 'memory.list', { limit: 1 })).json().value.rows[0].id;
    expect((await api(s, 'memory.archive', { ids: [id] })).status).toBe(200);
    expect((await api(s, '_events', { after: -1 })).json().value.generation).toBe(g0 + 1);
  });
});

describe('security helpers', () => {
  it('recognises loopback hosts only', () => {
    expect(isLoopbackHost('127.0.0.1:8080', 8080)).toBe(true);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('[::1]:8080', 8080)).toBe(true);
    expect(isLoopbackHost('127.0.0.1:9999', 8080)).toBe(false);
    expect(isLoopbackHost('127.0.0.2')).toBe(false);
    expect(isLoopbackHost('localhost.evil.com')).toBe(false);
    expect(isLoopbackHost(undefined)).toBe(false);
  });
  it('compares tokens exactly', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abd', 'abc')).toBe(false);
    expect(tokenMatches('ab', 'abc')).toBe(false);
    expect(tokenMatches(undefined, 'abc')).toBe(false);
  });
});

describe('mnemo serve', () => {
  it('explains a missing store instead of serving nothing', async () => {
    const r = await runCli(['serve', join(tempDir(), 'missing.sqlite'), '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no store at/);
  });
  it('rejects a bad port', async () => {
    const r = await runCli(['serve', fixtureCopy(), '--port', '70000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--port/);
  });
});
