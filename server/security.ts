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

/**
 * The session cookie lets a second tab of the same browser (a copied or Ctrl-clicked deep link)
 * reach the API without the token in its URL. A page that holds the token trades it once for this
 * cookie; the cookie is HttpOnly (scripts cannot read it), SameSite=Strict (no other site's page
 * sends it), and limited to /api/. Cookies ignore ports, so the name carries the port: two servers
 * on one machine never share a session.
 */
export function sessionCookieName(port: number): string {
  return `mnemo_session_${port}`;
}

export function sessionCookieHeader(port: number, secret: string): string {
  return `${sessionCookieName(port)}=${secret}; Path=/api/; HttpOnly; SameSite=Strict`;
}

/** The value of cookie `name` in a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * True when the browser says the request comes from a page of this very server (CSRF defence for
 * cookie-authenticated calls: a cookie rides along on any request, a same-origin page is the only
 * caller we accept it from). Browsers send Origin on every POST from fetch; Sec-Fetch-Site, when
 * present, must agree.
 */
export function sameOriginRequest(headers: { origin?: string | undefined; 'sec-fetch-site'?: string | string[] | undefined }, port: number): boolean {
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = headers.origin;
  if (!origin) return false;
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    return false;
  }
  return u.protocol === 'http:' && Number(u.port) === port && isLoopbackHost(u.host, port);
}

/**
 * DNS-rebinding defence for a server that may bind beyond loopback (the MCP HTTP endpoint): the
 * Host header must name one of `allowed` (host[:port], lower case), and an Origin, when a browser
 * sends one, must name one of them too. A page on evil.example resolving to our address sends
 * Host: evil.example, so it is refused before anything runs.
 */
export function allowedHostsFor(boundHost: string, port: number): Set<string> {
  const names = new Set(['127.0.0.1', 'localhost', '[::1]']);
  const bound = boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost;
  // A wildcard bind answers on every interface; only the names the operator can vouch for are allowed.
  if (bound !== '0.0.0.0' && bound !== '[::]') names.add(bound.toLowerCase());
  return new Set([...names].map((n) => `${n}:${port}`));
}

/**
 * Adds names the operator allows beyond the defaults (a reverse proxy's public name): `host:port`
 * allows that port only, a bare `host` any port (the proxy's, or none).
 */
export function withExtraHosts(allowed: Set<string>, extra: readonly string[]): Set<string> {
  const out = new Set(allowed);
  for (const raw of extra) {
    const h = raw.trim().toLowerCase();
    if (h) out.add(h);
  }
  return out;
}

function nameOf(hostAndPort: string): string {
  return hostAndPort.replace(/:\d+$/, '');
}

/** True when the Host header names an allowed host (exactly, or by a bare name allowed on any port). */
export function hostAllowed(host: string | undefined, allowed: Set<string>): boolean {
  if (!host) return false;
  const h = host.trim().toLowerCase();
  return allowed.has(h) || allowed.has(nameOf(h));
}

/** True when there is no Origin (not a browser) or it names an allowed host over http or https. */
export function originAllowed(origin: string | undefined, allowed: Set<string>): boolean {
  if (origin === undefined) return true;
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    return false;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  const name = u.hostname.toLowerCase();
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return allowed.has(`${name}:${port}`) || allowed.has(name);
}

/** Loopback addresses a server may bind without exposing itself to the network. */
export function isLoopbackAddress(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
