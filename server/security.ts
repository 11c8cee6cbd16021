/**
 * The checks every browser-mode request passes: the Host header must name a loopback address (a
 * DNS-rebinding page cannot reach the API), and every API call must carry this run's random token.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const TOKEN_HEADER = 'x-mnemo-token';

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** True when the Host header names a loopback host (any port, or exactly `port` when given). */
export function isLoopbackHost(host: string | undefined, port?: number): boolean {
  if (!host) return false;
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.trim().toLowerCase());
  if (!m) return false;
  if (!LOOPBACK_HOSTS.has(m[1]!)) return false;
  if (port !== undefined && m[2] !== undefined && Number(m[2]) !== port) return false;
  return true;
}

/** Constant-time token comparison (a wrong token of the right length leaks nothing by timing). */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The renderer's Content-Security-Policy (the same one the Electron window sets). */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // React and echarts set element.style through the CSSOM; cytoscape needs inline style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
