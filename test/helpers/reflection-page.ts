/// <reference lib="dom" />
/**
 * Making a plan in the Reflection view of a page that may already show one. The earlier plan stays
 * on screen, locked, while the new one is made, so waiting for "a plan" or "an accepted item"
 * finds the old one at once: wait for the summary to name a different plan instead.
 */
import type { Page } from 'playwright-core';

export async function planAgain(p: Page, timeout = 30_000): Promise<string> {
  const earlier = await p.getAttribute('[data-testid=reflection-plan-summary]', 'data-plan-id', { timeout: 1_000 }).catch(() => null);
  await p.click('[data-testid=reflection-plan]');
  await p.waitForFunction(
    (id) => {
      const summary = document.querySelector('[data-testid=reflection-plan-summary]');
      return summary !== null && summary.getAttribute('data-plan-id') !== id && summary.getAttribute('data-replacing') === 'false';
    },
    earlier,
    { timeout },
  );
  return (await p.getAttribute('[data-testid=reflection-plan-summary]', 'data-plan-id'))!;
}
