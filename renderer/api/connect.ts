/** Picks the transport for this shell: the preload bridge in Electron, HTTP + token in browser mode. */
import { platform } from '../platform/browser.js';
import { httpTransport, startSession } from './http-transport.js';
import { ipcTransport } from './ipc-transport.js';
import type { Transport } from './transport.js';

const TOKEN_KEY = 'mnemo.token';

/**
 * Reads the token from the URL mnemo serve printed (`#token=…`, or `token=…` in a route's query),
 * keeps it for this tab, and strips it from the address bar.
 */
export function takeToken(): string {
  const hash = platform.readHash();
  const m = /(?:^|[?&#])token=([A-Za-z0-9_-]+)/.exec(hash);
  if (m) {
    platform.sessionSet(TOKEN_KEY, m[1]!);
    const rest = hash
      .replace(/(^|[?&])token=[A-Za-z0-9_-]+&?/, '$1')
      .replace(/[?&]$/, '');
    platform.writeHash(rest.startsWith('/') ? rest : '/memories', true);
    return m[1]!;
  }
  return platform.sessionGet(TOKEN_KEY) ?? '';
}

export function connectTransport(): Transport {
  const bridge = platform.preloadBridge();
  if (bridge) return ipcTransport(bridge);
  const token = takeToken();
  // Without a token (a deep link opened in a new tab) the session cookie, if any, authenticates.
  if (token) void startSession(platform.baseUrl(), token);
  return httpTransport(platform.baseUrl(), token);
}
