/**
 * `mnemo://` deep links: the same addresses as the renderer's hash routes, so a trace or a colleague
 * can point straight at a memory: mnemo://memory/<id>, mnemo://graph?focus=<id>, mnemo://recall?q=…
 */
const VIEWS = new Set(['memories', 'memory', 'graph', 'recall', 'audit', 'overview', 'reflection', 'history', 'beliefs', 'fleet', 'prospective']);

/** Returns the hash route (without '#') for a mnemo:// URL, or null when it is not one of ours. */
export function routeFromDeepLink(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  if (u.protocol !== 'mnemo:') return null;
  // mnemo://memory/abc parses with host "memory"; mnemo:///memory/abc with an empty host.
  const parts = [u.host, ...u.pathname.split('/')].filter(Boolean).map((p) => decodeURIComponent(p));
  const view = parts[0];
  if (!view || !VIEWS.has(view)) return null;
  const arg = parts.slice(1).join('/');
  if (arg && !/^[0-9A-Za-z_-]{1,200}$/.test(arg)) return null;
  const query = u.search.length > 1 ? u.search : '';
  return `/${view}${arg ? `/${encodeURIComponent(arg)}` : ''}${query}`;
}

/** The deep link among a second instance's (or the first launch's) command-line arguments. */
export function deepLinkFromArgv(argv: readonly string[]): string | null {
  return argv.find((a) => a.startsWith('mnemo://')) ?? null;
}
