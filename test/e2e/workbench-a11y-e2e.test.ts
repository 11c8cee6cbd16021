/// <reference lib="dom" />
/**
 * Issue 14 part 6 in the browser: every view passes axe-core with no serious or critical finding,
 * the keyboard reaches and drives what the mouse does (sortable headers, Enter on a row, 9/0,
 * Ctrl+Z, Edit focusing its field), and a deep link opened in a new tab of the same browser works
 * without the token in its URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../core/api/service.js';
import { axeFindings } from '../helpers/axe.js';
import { expected, fixtureCopy } from '../../support/fixture.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';

const NOW = expected().now as number;
let wb: Workbench;
let firstId: string;

beforeAll(async () => {
  wb = await openWorkbench(fixtureCopy(), { now: NOW });
  await wb.page.waitForSelector('[data-testid=memory-row]');
  firstId = (await wb.page.getAttribute('[data-testid=memory-row]', 'data-memory-id'))!;
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

/** Opens a route and waits until the view has drawn its content (no spinner left). */
async function show(hash: string, ready: string): Promise<void> {
  await wb.go(hash);
  await wb.page.waitForSelector(ready, { timeout: 30_000 });
  await wb.page.waitForFunction(() => !document.querySelector('.spinner'), undefined, { timeout: 30_000 });
}

const VIEWS: [string, () => string, string][] = [
  ['memories', () => '/memories', '[data-testid=memory-row]'],
  ['memory', () => `/memory/${firstId}`, '[data-testid=edit-panel]'],
  ['graph', () => '/graph', '[data-testid=graph-status]'],
  ['recall', () => '/recall?q=deploy', '[data-testid=recall-result], [data-testid=empty-state]'],
  ['audit', () => '/audit', '[data-testid=access-row], [data-testid=empty-state]'],
  ['overview', () => '/overview', '[data-testid=overview-kpis]'],
  ['reflection', () => '/reflection', '.content h2, [data-testid=reflection-plan-summary]'],
  ['history', () => '/history', '[data-testid=history-row], [data-testid=empty-state]'],
  ['beliefs', () => '/beliefs', '[data-testid=belief-search]'],
  ['fleet', () => '/fleet', '[data-testid=fleet-folder], [data-testid=fleet-choose], [data-testid=fleet-table]'],
  ['prospective', () => '/prospective', '[data-testid=intents-pending]'],
  // Issue 41: every view, the ones reached from others too.
  ['duplicates', () => '/duplicates', '[data-testid=duplicates-view]'],
  ['lab', () => '/lab', '[data-testid=lab-view]'],
  ['history diff', () => `/history/diff?from=${NOW - 86_400}&to=${NOW}`, '[data-testid=diff-view]'],
];

describe('accessibility (axe-core) on every view', () => {
  for (const theme of ['light', 'dark'] as const) {
    for (const [name, hash, ready] of VIEWS) {
      it(`${name} (${theme}): no serious or critical finding`, async () => {
        await wb.page.evaluate((t) => {
          document.documentElement.dataset['theme'] = t;
        }, theme);
        await show(hash(), ready);
        const findings = await axeFindings(wb.page, 'serious');
        expect(findings.map((f) => `${f.impact} ${f.id}: ${f.help} @ ${f.targets.join(' | ')}`)).toEqual([]);
      });
    }
  }
});

describe('keyboard', () => {
  const focusBody = () => wb.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

  it('9 opens the ninth link of the top bar (Intents) and 0 the tenth (Fleet)', async () => {
    const p = wb.page;
    await show('/memories', '[data-testid=memory-row]');
    const order = await p.$$eval('header.topbar nav a', (as) => as.map((a) => a.getAttribute('data-testid')));
    await focusBody();
    await p.keyboard.press('9');
    await p.waitForFunction(() => window.location.hash.startsWith('#/prospective'));
    expect(order[8]).toBe('nav-prospective');
    await focusBody();
    await p.keyboard.press('0');
    await p.waitForFunction(() => window.location.hash.startsWith('#/fleet'));
    expect(order[9]).toBe('nav-fleet');
  });

  it('sortable column headers take focus and sort with Enter', async () => {
    const p = wb.page;
    await show('/memories', '[data-testid=memory-row]');
    await p.focus('[data-testid=sort-importance]');
    expect(await p.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('sort-importance');
    await p.keyboard.press('Enter');
    await p.waitForFunction(() => window.location.hash.includes('sort=importance'));
  });

  it('Enter on a focused row opens that memory', async () => {
    const p = wb.page;
    await show('/memories', '[data-testid=memory-row]');
    const id = (await p.getAttribute('[data-testid=memory-row]', 'data-memory-id'))!;
    await p.focus(`[data-testid=memory-row][data-memory-id="${id}"]`);
    await p.keyboard.press('Enter');
    await p.waitForSelector(`[data-testid=memory-detail][data-memory-id="${id}"]`);
  });

  it('Edit moves focus into the field, and Ctrl+Z outside a field undoes the saved change with a notice', async () => {
    const p = wb.page;
    const before = (await call(wb.session, 'memory.get', { id: firstId })).memory.title;
    await show(`/memory/${firstId}`, '[data-testid=edit-panel]');
    await p.click('[data-testid=edit-title]');
    expect(await p.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('field-input-title');
    await p.keyboard.press('Control+A');
    await p.keyboard.type('Typed without a click');
    await p.keyboard.press('Enter');
    await p.waitForFunction(() => document.querySelector('[data-testid=field-value-title]')?.textContent === 'Typed without a click');
    await focusBody();
    await p.keyboard.press('Control+z');
    await p.waitForSelector('[data-testid=notice]');
    expect(await p.textContent('[data-testid=notice]')).toMatch(/^Undid change #\d+/);
    await p.waitForFunction((t) => document.querySelector('[data-testid=field-value-title]')?.textContent === (t ?? '—'), before);
    expect((await call(wb.session, 'memory.get', { id: firstId })).memory.title).toBe(before);
  });
});

describe('deep links in a new tab', () => {
  it('a link opened in another tab of the same browser works without the token in its URL', async () => {
    const tab = await wb.browser.context.newPage();
    await tab.goto(`${wb.server.url}#/memory/${firstId}`);
    await tab.waitForSelector(`[data-testid=memory-detail][data-memory-id="${firstId}"]`);
    expect(await tab.$('[data-testid=error]')).toBeNull();
    await tab.close();
  });
});

describe('URL values', () => {
  it('an out-of-range page in the Audit link is reported, not silently replaced', async () => {
    await show('/audit?page=-3', '[data-testid=audit-total]');
    await wb.page.waitForSelector('[data-testid=url-param-error]');
    expect(await wb.page.textContent('[data-testid=url-param-error]')).toContain('"-3" is not a whole number 0 or more');
  });
});
