/// <reference lib="dom" />
/**
 * The Conflicts view in browser mode: the queue with both sides, what differs and what recall
 * returns today; axe finds nothing serious or critical in either theme; the keyboard reaches the
 * view (c) and a resolution; a resolution takes the pair out and the undo toast brings it back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../core/api/service.js';
import { axeFindings } from '../helpers/axe.js';
import { expected, fixtureCopy } from '../../support/fixture.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';

const NOW = expected().now as number;
let wb: Workbench;
const ids: Record<string, string> = {};

beforeAll(async () => {
  wb = await openWorkbench(fixtureCopy(), { now: NOW });
  for (const [k, content] of Object.entries({
    dana: 'The billing ledger is owned by Dana.',
    lior: 'The billing ledger is now owned by Lior.',
    names: 'Ask Dana or Lior about the ledger.',
  })) {
    ids[k] = (await call(wb.session, 'memory.add', { content })).id;
  }
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const items = () => wb.page.$$eval('[data-testid=conflict-item]', (els) => els.map((e) => e.getAttribute('data-ids') ?? e.getAttribute('data-key')));

describe('the Conflicts view', () => {
  it('opens with c and lists the pair with both sides, what differs and what recall returns today', async () => {
    const p = wb.page;
    await wb.go('/memories');
    await p.waitForSelector('[data-testid=memory-row]');
    await p.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await p.keyboard.press('c');
    await p.waitForFunction(() => window.location.hash.startsWith('#/conflicts'));
    await p.waitForSelector('[data-testid=conflict-item]', { timeout: 30_000 });
    // The fixture's flagged pairs have been used and rank first; the new pair is among the values.
    await p.check('[data-testid=conflicts-kind-value]');
    const pair = p.locator(`[data-testid=conflict-item][data-ids*="${ids.dana}"]`);
    await expect.poll(() => pair.count()).toBe(1);
    const text = await pair.innerText();
    expect(text).toContain('different values');
    expect(text).toMatch(/Dana.*\/.*Lior|Lior.*\/.*Dana/s);
    expect(text).toContain('owner');
    expect(text).toContain('source');
    await expect.poll(() => pair.locator('[data-testid=conflict-recall]').innerText()).toMatch(/Recall today .* gives [AB] first\./);
    const summary = await p.innerText('[data-testid=conflicts-summary]');
    const total = (await call(wb.session, 'review.conflicts', { kinds: ['value'] })).total;
    expect(summary).toContain(`${total.toLocaleString('en-US')} different values in the queue`);
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`passes axe with no serious or critical finding (${theme})`, async () => {
      await wb.page.evaluate((t) => {
        document.documentElement.dataset['theme'] = t;
      }, theme);
      await wb.go('/conflicts');
      await wb.page.waitForSelector('[data-testid=conflict-item]');
      await wb.page.waitForFunction(() => !document.querySelector('.spinner'), undefined, { timeout: 30_000 });
      const findings = await axeFindings(wb.page, 'serious');
      expect(findings.map((f) => `${f.impact} ${f.id}: ${f.help} @ ${f.targets.join(' | ')}`)).toEqual([]);
    });
  }

  it('a resolution from the keyboard takes the pair out of the queue and out of recall; Undo brings both back', async () => {
    const p = wb.page;
    await wb.go('/conflicts');
    await p.waitForSelector('[data-testid=conflict-item]');
    await p.check('[data-testid=conflicts-kind-value]');
    const pair = p.locator(`[data-testid=conflict-item][data-ids*="${ids.dana}"]`);
    await pair.waitFor();
    const [first] = (await pair.getAttribute('data-ids'))!.split(',');
    // Tab to "B holds, A superseded" and press Enter.
    await pair.locator('[data-testid=resolve-b-holds]').focus();
    await p.keyboard.press('Enter');
    await expect.poll(() => pair.count()).toBe(0);
    const recall = await call(wb.session, 'recall.explain', { query: 'who owns the billing ledger', k: 10 });
    expect(recall.rows.map((r) => r.id)).not.toContain(first);
    expect(recall.superseded_excluded).toBe(1);
    await p.waitForSelector('[data-testid=undo-toast]');
    await p.click('[data-testid=undo-toast-undo]');
    await expect.poll(() => pair.count(), { timeout: 15_000 }).toBe(1);
    const after = await call(wb.session, 'recall.explain', { query: 'who owns the billing ledger', k: 10 });
    expect(after.rows.map((r) => r.id)).toContain(first);
    expect(wb.pageErrors).toEqual([]);
    expect((await items()).length).toBeGreaterThan(0);
  });
});
