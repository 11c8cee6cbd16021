/**
 * `mnemo://` deep links: the same addresses as the renderer's hash routes, so a trace or a colleague
 * can point straight at a memory: mnemo://memory/<id>, mnemo://graph?focus=<id>, mnemo://recall?q=…
 * A link comes from outside the app (another program, a web page), so a malformed one is refused
 * with a reason and never throws: the app keeps running and tells the user why nothing opened.
 */
const VIEWS = new Set(['memories', 'memory', 'graph', 'recall', 'audit', 'overview', 'reflection', 'history', 'beliefs', 'fleet', 'prospective', 'lab']);

export type DeepLink = { ok: true; route: string } | { ok: false; reason: string };

/** Parses a mnemo:// URL into a hash route (without '#'), or says why it is not one. */
export function parseDeepLink(raw: string): DeepLink {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return { ok: false, reason: 'it is not a valid URL' };
  }
  if (u.protocol !== 'mnemo:') return { ok: false, reason: `it is not a mnemo:// link (${u.protocol})` };
  // mnemo://memory/abc parses with host "memory"; mnemo:///memory/abc with an empty host.
  const raws = [u.host, ...u.pathname.split('/')].filter(Boolean);
  const parts: string[] = [];
  for (const p of raws) {
    const decoded = decodeSegment(p);
    if (decoded === null) return { ok: false, reason: `it has a malformed %-escape in ${JSON.stringify(p.slice(0, 80))}` };
    parts.push(decoded);
  }
  const view = parts[0];
  if (!view || !VIEWS.has(view)) return { ok: false, reason: `${JSON.stringify((view ?? '').slice(0, 40))} is not a view (${[...VIEWS].join(', ')})` };
  const arg = parts.slice(1).join('/');
  if (arg && !/^[0-9A-Za-z_-]{1,200}$/.test(arg)) return { ok: false, reason: 'the id may only hold letters, digits, "-" and "_" (at most 200)' };
  const query = u.search.length > 1 ? u.search : '';
  return { ok: true, route: `/${view}${arg ? `/${encodeURIComponent(arg)}` : ''}${query}` };
}

/** Returns the hash route (without '#') for a mnemo:// URL, or null when it is not one of ours. */
export function routeFromDeepLink(raw: string): string | null {
  const link = parseDeepLink(raw);
  return link.ok ? link.route : null;
}

/** The deep link among a second instance's (or the first launch's) command-line arguments. */
export function deepLinkFromArgv(argv: readonly string[]): string | null {
  return argv.find((a) => a.startsWith('mnemo://')) ?? null;
}

function decodeSegment(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}
