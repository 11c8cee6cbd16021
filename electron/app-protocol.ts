/**
 * Serves the built renderer from `app://mnemo/…` instead of file://, so the page has a real origin
 * ('self' in the CSP means something), cannot read arbitrary files, and every response carries the CSP.
 */
import type { Protocol } from 'electron';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { RENDERER_CSP } from '../core/host/renderer-csp.js';
import { APP_HOST, APP_SCHEME } from './security.js';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export const PRIVILEGED_SCHEME = { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false, stream: false } };

/** Resolves a request URL to a file under `root`, or null when it is outside it or not ours. */
export function resolveAppFile(root: string, url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null;
  const rel = decodeURIComponent(u.pathname).replace(/^\/+/, '') || 'index.html';
  const file = normalize(join(root, rel));
  const base = root.endsWith(sep) ? root : root + sep;
  return file.startsWith(base) ? file : null;
}

export function registerAppProtocol(protocol: Pick<Protocol, 'handle'>, root: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppFile(root, request.url);
    if (!file) return new Response('not found', { status: 404 });
    try {
      const body = await readFile(file);
      return new Response(body, {
        headers: {
          'content-type': MIME[extname(file)] ?? 'application/octet-stream',
          'content-security-policy': RENDERER_CSP,
          'x-content-type-options': 'nosniff',
        },
      });
    } catch {
      return new Response('not found', { status: 404 });
    }
  });
}
