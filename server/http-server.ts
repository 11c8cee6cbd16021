/**
 * Browser mode: serves the built renderer and `core/api` over loopback HTTP.
 *   GET  /, /assets/*        the renderer (static files, with the CSP)
 *   POST /api/<method>       one route per core/api method; JSON body in, result envelope out
 *   POST /api/_events        long-poll: resolves when the store's generation moves past `after`
 *   POST /api/_session       trades the token (header) for an HttpOnly session cookie, so other tabs
 *                            of the same browser open deep links without the token in their URL
 * Every request must carry a loopback Host header; every /api call the per-run token header, or the
 * session cookie on a same-origin JSON request.
 *
 * The engine is not on this thread: each call goes to the door (an engine host, core/host/engine-host.ts),
 * whose workers run it, so this thread is free to answer while they work. A call whose client
 * disconnects before its answer is cancelled (a long job stops and leaves the store as it was).
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import type { ApiDoor } from '../core/host/engine-host.js';
import type { Generation } from '../core/host/generation.js';
import { RENDERER_CSP } from '../core/host/renderer-csp.js';
import { cookieValue, isLoopbackHost, newToken, sameOriginRequest, sessionCookieHeader, sessionCookieName, TOKEN_HEADER, tokenMatches } from './security.js';

export interface ServerOptions {
  /** Where calls run (an EngineHost); its generation is what /api/_events waits on. */
  door: ApiDoor;
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  token?: string;
  /** Long-poll timeout for /api/_events. */
  eventWaitMs?: number;
}

export interface RunningServer {
  url: string;
  /** The URL to open: carries the token in the fragment (never sent to the server by the browser). */
  openUrl: string;
  port: number;
  token: string;
  live: Generation;
  close(): Promise<void>;
}

const MAX_BODY = 16 * 1024 * 1024;
const MAX_DISCARD = 8 * MAX_BODY;

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

const HTTP_STATUS: Record<string, number> = {
  bad_input: 400,
  not_found: 404,
  permission: 403,
  schema: 422,
  conflict: 409,
  busy: 503,
  internal: 500,
};

function send(res: ServerResponse, status: number, body: unknown): void {
  sendText(res, status, JSON.stringify(body));
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(text);
}

/** A body that is not read in full: over MAX_BODY (answered with 400 once the rest has been discarded) or cut off. */
class BodyRefused extends Error {}

/**
 * Reads the body, at most MAX_BODY bytes. A larger body is read on and discarded (never kept), so
 * the client, which is still sending, receives the 400 instead of a connection reset; past
 * MAX_DISCARD the connection is cut, so nobody can keep the server reading forever.
 */
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (tooLarge) {
        if (size > MAX_DISCARD) req.destroy();
        return;
      }
      if (size > MAX_BODY) {
        tooLarge = true;
        parts.length = 0;
      } else parts.push(c);
    });
    req.on('end', () => (tooLarge ? reject(new BodyRefused(`the request body is larger than ${MAX_BODY / 1024 / 1024} MB`)) : resolve(Buffer.concat(parts).toString('utf8'))));
    req.on('error', reject);
    req.on('close', () => reject(new BodyRefused('the request was cut off before its end')));
  });
}

/** decodeURIComponent without the URIError: null for a malformed %-escape (the caller answers 400). */
function decodePathPart(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

function serveStatic(res: ServerResponse, root: string, urlPath: string): void {
  const rel = urlPath === '/' ? 'index.html' : decodePathPart(urlPath.replace(/^\/+/, ''));
  if (rel === null) {
    send(res, 400, { ok: false, error: { code: 'bad_input', message: 'the URL has a malformed %-escape' } });
    return;
  }
  const file = normalize(join(root, rel));
  if (!file.startsWith(root.endsWith(sep) ? root : root + sep) || !existsSync(file) || !statSync(file).isFile()) {
    if (urlPath === '/' || urlPath === '/index.html') {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('The workbench renderer is not built yet: run "npm run build:renderer", then reload.\n');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('not found\n');
    return;
  }
  res.writeHead(200, {
    'content-type': MIME[extname(file)] ?? 'application/octet-stream',
    'content-security-policy': RENDERER_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cache-control': file.endsWith('.html') ? 'no-store' : 'max-age=3600',
  });
  createReadStream(file).pipe(res);
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const token = opts.token ?? newToken();
  const live = opts.door.live;
  const eventWaitMs = opts.eventWaitMs ?? 25_000;
  const root = normalize(opts.rendererDir);
  let port = 0;
  // A separate secret for the cookie: it never travels in a URL, and the token never in a cookie.
  const sessionSecret = newToken();
  /** The cookie counts only on a same-origin JSON request (a cross-site form or image cannot send one). */
  const sessionCookieAccepted = (req: IncomingMessage): boolean => {
    const given = cookieValue(req.headers.cookie, sessionCookieName(port));
    if (!tokenMatches(given, sessionSecret)) return false;
    const type = req.headers['content-type'] ?? '';
    return sameOriginRequest(req.headers, port) && /^application\/json\b/i.test(type);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!isLoopbackHost(req.headers.host, port)) {
      send(res, 403, { ok: false, error: { code: 'permission', message: 'refused: the Host header must be a loopback address (127.0.0.1 or localhost)' } });
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    } catch {
      send(res, 400, { ok: false, error: { code: 'bad_input', message: 'the request URL cannot be parsed' } });
      return;
    }
    if (!url.pathname.startsWith('/api/')) {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        send(res, 405, { ok: false, error: { code: 'bad_input', message: 'only GET serves the renderer' } });
        return;
      }
      serveStatic(res, root, url.pathname);
      return;
    }
    const header = req.headers[TOKEN_HEADER];
    const byToken = tokenMatches(Array.isArray(header) ? header[0] : header, token);
    if (!byToken && !sessionCookieAccepted(req)) {
      send(res, 401, { ok: false, error: { code: 'permission', message: `missing or wrong ${TOKEN_HEADER} header; use the URL mnemo serve printed` } });
      return;
    }
    if (req.method !== 'POST') {
      send(res, 405, { ok: false, error: { code: 'bad_input', message: 'API calls are POST /api/<method> with a JSON body' } });
      return;
    }
    if (url.pathname === '/api/_session') {
      // Only the token itself buys a cookie: a cookie cannot renew or widen itself.
      if (!byToken) {
        send(res, 401, { ok: false, error: { code: 'permission', message: `a session starts only with the ${TOKEN_HEADER} header` } });
        return;
      }
      res.setHeader('set-cookie', sessionCookieHeader(port, sessionSecret));
      send(res, 200, { ok: true, value: { session: true } });
      return;
    }
    let input: unknown;
    try {
      const text = await readBody(req);
      input = text.trim() === '' ? {} : JSON.parse(text);
    } catch (err) {
      const message = err instanceof BodyRefused ? err.message : `the request body is not valid JSON: ${(err as Error).message}`;
      send(res, 400, { ok: false, error: { code: 'bad_input', message } });
      return;
    }
    const method = decodePathPart(url.pathname.slice('/api/'.length));
    if (method === null) {
      send(res, 400, { ok: false, error: { code: 'bad_input', message: 'the method name in the URL has a malformed %-escape' } });
      return;
    }
    if (method === '_events') {
      const after = Number((input as { after?: unknown })?.after ?? -1);
      const generation = await live.waitPast(Number.isFinite(after) ? after : -1, eventWaitMs);
      send(res, 200, { ok: true, value: { generation } });
      return;
    }
    // A client that goes away before its answer cancels its call (the answer would reach nobody).
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const answer = await opts.door.invokeJson(method, input, { signal: gone.signal });
    if (res.destroyed) return;
    sendText(res, answer.ok ? 200 : (HTTP_STATUS[answer.code ?? 'internal'] ?? 500), answer.json);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, { ok: false, error: { code: 'internal', message: (err as Error).message } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/`;
  return {
    url,
    openUrl: `${url}#token=${token}`,
    port,
    token,
    live,
    close: () =>
      new Promise<void>((resolve) => {
        // Wakes the long polls, so the connections close at once.
        live.release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
