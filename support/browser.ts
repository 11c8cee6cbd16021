/**
 * Chromium driven by playwright-core, for the browser-mode e2e tests, the benchmark and the
 * screenshots. Never downloads a browser: chromium.ts picks a system one or the packaged one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { resolveChromium } from './chromium.js';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LaunchedBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A persistent context on a fresh user-data dir (removed on close). */
export async function launchChromium(opts: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<LaunchedBrowser> {
  const { executablePath } = await resolveChromium();
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
