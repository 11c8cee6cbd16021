/// <reference lib="dom" />
/**
 * Screenshots of the store badge while a commit of a whole reflection plan is written in batches by
 * the server's jobs worker (issue 37): the Memories list follows the change batch by batch while
 * store.info's counts are held, and the badge says so; then the list and the badge once it has ended.
 * `node --import tsx scripts/screenshots-held-counts.ts <store.sqlite> <out-dir>` (the store is
 * copied first; the 100k demo store is where the commit lasts minutes).
 */
import { SHOTS_LONG_MS as LONG, startScreenshots } from '../support/screenshot-run.js';

const { wb, save } = await startScreenshots('screenshots-held-counts.ts', async (w) => `badge: ${await w.page.textContent('[data-testid=store-badge]')}`);
const p = wb.page;
try {
  await wb.go('/reflection');
  await p.click('[data-testid=reflection-plan]', { noWaitAfter: true, timeout: LONG });
  await p.waitForSelector('[data-testid=reflection-commit]:not([disabled])', { timeout: LONG });
  await p.click('[data-testid=reflection-commit]', { noWaitAfter: true, timeout: LONG });
  await p.click('[data-testid=reflection-commit-confirm-go]', { noWaitAfter: true, timeout: LONG });
  await p.waitForSelector('[data-testid=counts-held]', { timeout: LONG });
  await p.waitForTimeout(30_000);
  await save('held-counts-reflection');
  await wb.go('/memories');
  await p.waitForSelector('[data-testid=counts-held]', { timeout: LONG });
  await p.waitForTimeout(5_000);
  await save('held-counts-memories');
  // The commit ends (its bar stays on the Reflection view): the badge counts the rows again and agrees with the list.
  await p.waitForSelector('[data-testid=counts-held]', { state: 'detached', timeout: LONG });
  await p.waitForTimeout(3_000);
  await save('held-counts-ended');
} finally {
  await wb.close();
}
