/// <reference lib="dom" />
/** A running browser-mode workbench on a store copy, with a Chromium page pointed at it (e2e, bench, screenshots). */
import type { Page } from 'playwright-core';
import { serveStore } from '../cli/commands/serve.js';
import type { EngineHost } from '../core/host/engine-host.js';
import type { LlmEndpoints } from '../core/reflect/llm-endpoints.js';
import type { RunningServer } from '../server/http-server.js';
import { launchChromium, type LaunchedBrowser } from './browser.js';
import type { RunPacing } from '../core/model/run-pacing.js';

export interface Workbench {
  server: RunningServer;
  /** The server's engine host: `call(wb.session, method, input)` runs a call as the page's would. */
  session: EngineHost;
  browser: LaunchedBrowser;
  page: Page;
  pageErrors: string[];
  /** Sets the hash route and waits for the router to pick it up. */
  go(hash: string): Promise<void>;
  close(): Promise<void>;
}

export async function openWorkbench(
  db: string,
  opts: { now?: number; width?: number; height?: number; colorScheme?: 'light' | 'dark'; llmEndpoints?: LlmEndpoints; roots?: string[]; readonly?: boolean; runPacing?: RunPacing } = {},
): Promise<Workbench> {
  const quiet = { out: () => undefined, err: () => undefined };
  const { server, session } = await serveStore({ now: opts.now, io: quiet }, db, {
    ...(opts.llmEndpoints ? { llmEndpoints: opts.llmEndpoints } : {}),
    // Browser mode opens other stores only inside folders it was started with (--root).
    ...(opts.roots ? { roots: opts.roots } : {}),
    ...(opts.readonly ? { readonly: true } : {}),
    ...(opts.runPacing ? { runPacing: opts.runPacing } : {}),
  });
  const browser = await launchChromium(opts);
  const page = await browser.context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(server.openUrl);
  return {
    server,
    session,
    browser,
    page,
    pageErrors,
    go: async (hash: string) => {
      await page.evaluate((h) => {
        window.location.hash = h;
      }, hash);
    },
    close: async () => {
      await browser.close();
      await server.close();
      await session.close();
    },
  };
}
