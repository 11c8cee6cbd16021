/// <reference lib="dom" />
/**
 * Accessibility check for the e2e tests: injects axe-core's own script into the page and runs it
 * over the whole document. The renderer's CSP refuses inline scripts (so a script tag is blocked);
 * evaluating the source through the DevTools protocol is not subject to the page's CSP. Returns
 * the findings at or above `minImpact`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let source: string | null = null;

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

const ORDER = ['minor', 'moderate', 'serious', 'critical'];

export async function axeFindings(page: Page, minImpact: 'serious' | 'critical' | 'moderate' = 'serious'): Promise<AxeFinding[]> {
  source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(`${source}\n;true`);
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact ?? 'minor', help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(' ')) }));
  });
  const floor = ORDER.indexOf(minImpact);
  return results.filter((f) => ORDER.indexOf(f.impact) >= floor);
}
