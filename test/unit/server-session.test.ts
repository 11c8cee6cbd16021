/**
 * Issue 14 part 6, deep links in a new tab: a page holding the token trades it for an HttpOnly,
 * SameSite=Strict session cookie; API calls then accept that cookie, but only from a same-origin
 * JSON request on a loopback Host. The token and Host checks are unchanged.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/http-server.js';
import { TOKEN_HEADER } from '../../server/security.js';
import { fixtureServer } from '../helpers/test-server.js';

const start = fixtureServer({ eventWaitMs: 500, pollMs: 100 });

interface Reply {
  status: number;
  body: string;
  setCookie: string[];
}

function post(s: RunningServer, path: string, headers: Record<string, string>, body = '{}'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: s.port, path, method: 'POST', headers: { 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, setCookie: res.headers['set-cookie'] ?? [] }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const json = { 'content-type': 'application/json' };
const sameOrigin = (s: RunningServer) => ({ ...json, origin: `http://127.0.0.1:${s.port}`, 'sec-fetch-site': 'same-origin' });

async function cookieFor(s: RunningServer): Promise<string> {
  const r = await post(s, '/api/_session', { ...sameOrigin(s), [TOKEN_HEADER]: s.token });
  expect(r.status).toBe(200);
  expect(r.setCookie).toHaveLength(1);
  return r.setCookie[0]!.split(';')[0]!;
}

describe('browser-mode session cookie', () => {
  it('is set only for the token, HttpOnly, SameSite=Strict, limited to /api/ and named by port', async () => {
    const s = await start();
    const r = await post(s, '/api/_session', { ...sameOrigin(s), [TOKEN_HEADER]: s.token });
    const cookie = r.setCookie[0]!;
    expect(cookie).toMatch(new RegExp(`^mnemo_session_${s.port}=`));
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\/api\//);
    expect(cookie).not.toContain(s.token);
    expect((await post(s, '/api/_session', sameOrigin(s))).status).toBe(401);
    expect((await post(s, '/api/_session', { ...sameOrigin(s), [TOKEN_HEADER]: 'wrong' })).status).toBe(401);
  });

  it('lets a tab without the token call the API with the cookie (a deep link opened in a new tab)', async () => {
    const s = await start();
    const cookie = await cookieFor(s);
    const r = await post(s, '/api/store.info', { ...sameOrigin(s), cookie });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).ok).toBe(true);
  });

  it('a cookie cannot start a new session by itself', async () => {
    const s = await start();
    const cookie = await cookieFor(s);
    expect((await post(s, '/api/_session', { ...sameOrigin(s), cookie })).status).toBe(401);
  });

  it('refuses the cookie on a cross-site request, without an Origin, or without a JSON body (CSRF)', async () => {
    const s = await start();
    const cookie = await cookieFor(s);
    const cases: Record<string, string>[] = [
      { ...json, cookie, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
      { ...json, cookie, origin: `http://127.0.0.1:${s.port + 1}` },
      { ...json, cookie, origin: `http://127.0.0.1:${s.port}`, 'sec-fetch-site': 'same-site' },
      { ...json, cookie },
      { cookie, origin: `http://127.0.0.1:${s.port}`, 'content-type': 'text/plain' },
      { ...sameOrigin(s), cookie: 'mnemo_session_1=forged' },
      { ...sameOrigin(s), cookie: `mnemo_session_${s.port}=${s.token}` },
    ];
    for (const headers of cases) {
      const r = await post(s, '/api/memory.list', headers);
      expect(r.status, JSON.stringify(headers)).toBe(401);
    }
  });

  it('keeps the Host check in front of the cookie', async () => {
    const s = await start();
    const cookie = await cookieFor(s);
    const r = await post(s, '/api/store.info', { ...sameOrigin(s), cookie, host: 'evil.example' });
    expect(r.status).toBe(403);
  });
});
