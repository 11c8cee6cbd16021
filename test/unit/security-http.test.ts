/**
 * Issue 13 item 9 (HTTP door): a body over 16 MB is answered with a 400 JSON error the client
 * actually receives (not a connection reset), and a malformed %-escape in the URL is a 400, not a 500.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/http-server.js';
import { TOKEN_HEADER } from '../../server/security.js';
import { fixtureServer } from '../helpers/test-server.js';

const start = fixtureServer({ eventWaitMs: 1000, pollMs: 100 });

interface Reply {
  status: number;
  body: string;
}

/** A real HTTP request; the body is written in 1 MB chunks, as a client streaming a big upload would. */
function post(s: RunningServer, path: string, body: Buffer | string, opts: { chunked?: boolean } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const buf = typeof body === 'string' ? Buffer.from(body) : body;
    const headers: Record<string, string | number> = { 'content-type': 'application/json', [TOKEN_HEADER]: s.token };
    if (!opts.chunked) headers['content-length'] = buf.length;
    const req = request({ host: '127.0.0.1', port: s.port, path, method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    const step = 1024 * 1024;
    for (let i = 0; i < buf.length; i += step) req.write(buf.subarray(i, i + step));
    req.end();
  });
}

function get(s: RunningServer, path: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: s.port, path, method: 'GET' }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A syntactically valid JSON body of `bytes` bytes. */
function jsonOf(bytes: number): Buffer {
  const head = Buffer.from('{"query":"');
  const tail = Buffer.from('"}');
  return Buffer.concat([head, Buffer.alloc(bytes - head.length - tail.length, 'a'), tail]);
}

describe('HTTP door: body size and malformed URLs', () => {
  it('answers a 17 MB body with a 400 JSON error the client receives, with or without a content-length', async () => {
    const s = await start();
    for (const chunked of [false, true]) {
      const reply = await post(s, '/api/recall.explain', jsonOf(17 * 1024 * 1024), { chunked });
      expect(reply.status, `chunked=${chunked}`).toBe(400);
      expect(JSON.parse(reply.body)).toEqual({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/larger than 16 MB/) } });
    }
    // The server still answers afterwards.
    const after = await post(s, '/api/store.info', '{}');
    expect(after.status).toBe(200);
  });

  it('answers a malformed %-escape in the path with 400, not 500; a bad escape in the query is not an error', async () => {
    const s = await start();
    const api = await post(s, '/api/recall.explain%E0%A4%A', '{"query":"x"}');
    expect(api.status).toBe(400);
    expect(JSON.parse(api.body)).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringMatching(/malformed %-escape/) } });
    const asset = await get(s, '/assets/%E0%A4%A.js');
    expect(asset.status).toBe(400);
    expect(JSON.parse(asset.body)).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect((await get(s, '/%')).status).toBe(400);
    // The query string is never decoded as a path: the call is answered normally.
    expect((await post(s, '/api/store.info?x=%E0%A4%A', '{}')).status).toBe(200);
  });
});
