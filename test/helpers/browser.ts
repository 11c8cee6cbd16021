/**
 * Debian's Chromium driven by playwright-core, for the browser-mode e2e tests, the benchmark and
 * the screenshots. Never downloads a browser: it uses the system one (or MNEMO_CHROMIUM).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath(): string | null {
  const candidates = [process.env['MNEMO_CHROMIUM'], '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => !!p);
  return candidates.find((p) => existsSync(p)) ?? null;
}

export interface LaunchedBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A persistent context on a fresh user-data dir (removed on close). */
export async function launchChromium(opts: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<LaunchedBrowser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('Chromium not found: install Debian\'s "chromium" package (apt-get install chromium) or set MNEMO_CHROMIUM');
  const userDataDir = mkdtempSync(join(tmpdir(), 'mnemo-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: opts.width ?? 1400, height: opts.height ?? 900 },
    colorScheme: opts.colorScheme ?? 'light',
  });
  return {
    context,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export type { Browser };
