/// <reference lib="dom" />
/**
 * Screenshots of the Conflicts view on a copy of the cached demo store (100k memories by default):
 *
 *   node --import tsx scripts/screenshots-conflicts.ts --out <folder> [--size 100000]
 *
 * The first visit builds the conflict index (shot part-way, the page stood still as
 * screenshots-index-build.ts does), then the queue, each kind alone, the dark theme, and a
 * resolution with its Undo.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { demoStoreCopy } from '../bench/lib/demo-store.js';
import { openWorkbench, type Workbench } from '../support/workbench.js';

const { values: args } = parseArgs({ options: { out: { type: 'string' }, size: { type: 'string', default: '100000' } } });
if (!args.out) {
  console.error('usage: node --import tsx scripts/screenshots-conflicts.ts --out <folder> [--size 100000]');
  process.exit(2);
}
const OUT = resolve(args.out);
mkdirSync(OUT, { recursive: true });
const NOW = 1_780_000_000;

async function save(wb: Workbench, name: string): Promise<void> {
  await wb.page.waitForTimeout(400);
  await wb.page.screenshot({ path: join(OUT, `${name}.png`) });
  console.log(join(OUT, `${name}.png`));
}

const db = demoStoreCopy(Number(args.size), NOW, (l) => console.error(l));
const wb = await openWorkbench(db, { now: NOW, width: 1440, height: 1000 });
try {
  await wb.go('/conflicts');
  await wb.page.waitForFunction(
    () => {
      const bar = document.querySelector<HTMLProgressElement>('[data-testid=conflicts-build] progress');
      if (!bar || bar.value < 15 || bar.value > 85) return false;
      const app = document.getElementById('root')!;
      app.replaceWith(app.cloneNode(true));
      return true;
    },
    undefined,
    { timeout: 300_000, polling: 50 },
  );
  await save(wb, 'conflicts-build');
  // The stood-still copy is gone with a reload; the index is built by now or soon.
  await wb.page.reload();
  await wb.go('/conflicts');
  await wb.page.waitForSelector('[data-testid=conflict-item]', { timeout: 300_000 });
  await wb.page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid=conflict-recall]')).slice(0, 2).every((e) => !e.textContent?.includes('ranking…')), undefined, { timeout: 300_000 });
  await wb.page.setViewportSize({ width: 1440, height: 1500 });
  await save(wb, 'conflicts');
  for (const kind of ['value', 'belief'] as const) {
    await wb.page.check(`[data-testid=conflicts-kind-${kind}]`);
    await wb.page.waitForSelector(`[data-testid=conflict-item][data-kind=${kind}]`, { timeout: 60_000 });
    await wb.page.waitForFunction(() => Array.from(document.querySelectorAll('[data-testid=conflict-recall]')).slice(0, 2).every((e) => !e.textContent?.includes('ranking…')), undefined, { timeout: 300_000 });
    await save(wb, `conflicts-${kind}`);
  }
  await wb.page.check('[data-testid=conflicts-kind-all]');
  await wb.page.evaluate(() => (document.documentElement.dataset['theme'] = 'dark'));
  await wb.page.waitForSelector('[data-testid=conflict-item]');
  await save(wb, 'conflicts-dark');
  await wb.page.evaluate(() => (document.documentElement.dataset['theme'] = 'light'));
  await wb.page.setViewportSize({ width: 1440, height: 1000 });
  await wb.page.locator('[data-testid=conflict-item]').first().locator('[data-testid=resolve-b-holds]').click();
  await wb.page.waitForSelector('[data-testid=undo-toast]');
  await save(wb, 'conflicts-resolved');
} finally {
  await wb.close();
  rmSync(dirname(db), { recursive: true, force: true });
}
