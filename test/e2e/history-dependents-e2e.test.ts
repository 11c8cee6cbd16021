/// <reference lib="dom" />
/**
 * "Undo this and the changes that depend on it" in Chromium: History lists the later changes by
 * name when an undo is refused, the button opens a confirmation that lists all of them, the keyboard
 * drives it, and one step undoes the group (an independent change stays); the "Archived · Undo"
 * toast offers the same when a later change blocks its undo.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../core/api/service.js';
import { axeFindings } from '../helpers/axe.js';
import { expected, fixtureCopy } from '../../support/fixture.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';

const NOW = expected().now as number;
let wb: Workbench;

beforeAll(async () => {
  wb = await openWorkbench(fixtureCopy(), { now: NOW, width: 1400, height: 900 });
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const row = (id: number) => `[data-testid=history-row][data-change-id="${id}"]`;
const HEX_PREFIX = /\b[0-9a-f]{8}\b/;

describe('undo with the changes that depend on it', () => {
  it('History: a refused undo lists the dependants by name; the keyboard confirms and undoes the group in one step', async () => {
    const p = wb.page;
    const [m1, m2, m3] = (await call(wb.session, 'memory.list', { limit: 3, types: ['info'] })).rows;
    const first = (await call(wb.session, 'memory.update', { id: m1!.id, patch: { title: 'Kiln firing schedule' } })).change_id!;
    const unrelated = (await call(wb.session, 'memory.update', { id: m3!.id, patch: { title: 'An unrelated edit' } })).change_id!;
    const second = (await call(wb.session, 'memory.archive', { ids: [m1!.id, m2!.id] })).change_id!;
    const third = (await call(wb.session, 'memory.update', { id: m2!.id, patch: { title: 'Glaze order' } })).change_id!;

    await wb.go('/history');
    // The table names each change by its memory's title, not by an id prefix.
    const changeCell = p.locator(`${row(first)} td`).nth(2);
    await expect.poll(() => changeCell.textContent()).toContain('“Kiln firing schedule”');
    expect(await changeCell.textContent()).not.toMatch(HEX_PREFIX);
    await p.locator(`${row(first)} [data-testid=undo-button]`).click();
    const offer = p.locator('[data-testid=undo-refused] [data-testid=dependents-offer]');
    await offer.waitFor();
    expect(await offer.getAttribute('data-count')).toBe('2');
    expect(await offer.locator('p').first().textContent()).toMatch(/^2 later changes depend on this/);
    const items = offer.locator('ul [data-testid=dependent-change]');
    expect(await items.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-change-id'))))).toEqual([third, second]);
    // Named by the memory's title, not by an id prefix.
    await expect.poll(() => items.first().textContent()).toContain('“Glaze order”');
    for (const t of await items.allTextContents()) expect(t).not.toMatch(HEX_PREFIX);
    expect(await p.locator('[data-testid=undo-with-dependents]').textContent()).toBe('Undo this and the 2 changes that depend on it');

    // No serious accessibility finding with the offer open.
    expect((await axeFindings(p, 'serious')).map((f) => `${f.id} @ ${f.targets.join(' | ')}`)).toEqual([]);

    // Keyboard: Enter opens the confirmation with focus on its button, Escape closes it.
    await p.focus('[data-testid=undo-with-dependents]');
    await p.keyboard.press('Enter');
    const confirm = p.locator('[role=alertdialog][aria-label="Confirm the undo"]');
    await confirm.waitFor();
    expect(await confirm.locator('[data-testid=dependent-change]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-change-id'))))).toEqual([
      third,
      second,
      first,
    ]);
    expect(await confirm.textContent()).toContain('This undoes 3 changes as one step');
    expect(await p.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('undo-with-dependents-go');
    await p.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect((await call(wb.session, 'journal.history', { limit: 10 })).find((c) => c.id === first)!.state).toBe('applied');

    await p.focus('[data-testid=undo-with-dependents]');
    await p.keyboard.press('Enter');
    await confirm.waitFor();
    await p.keyboard.press('Enter');
    for (const id of [first, second, third]) await p.waitForSelector(`${row(id)}[data-state=undone]`);
    expect(await p.locator(`${row(unrelated)}`).getAttribute('data-state')).toBe('applied');
    await p.waitForSelector('[data-testid=undo-refused]', { state: 'detached' });
    const back = (await call(wb.session, 'memory.get', { id: m1!.id })).memory;
    expect([back.title, back.archived]).toEqual([m1!.title, false]);
  });

  it('the "Archived · Undo" toast offers to undo the later change too when one blocks it', async () => {
    const p = wb.page;
    const id = (await call(wb.session, 'memory.list', { limit: 1, types: ['skill'] })).rows[0]!.id;
    await wb.go(`/memory/${id}`);
    await p.click('[data-testid=archive-toggle]');
    const toast = p.locator('[data-testid=undo-toast]');
    await toast.waitFor();
    const archived = Number(await toast.getAttribute('data-change-id'));
    const later = (await call(wb.session, 'memory.update', { id, patch: { title: 'Sharpen the chisels on Fridays' } })).change_id!;
    expect(later).toBeGreaterThan(archived);
    await p.click('[data-testid=undo-toast-undo]');
    const offer = toast.locator('[data-testid=dependents-offer]');
    await offer.waitFor();
    expect(await offer.locator('p').first().textContent()).toMatch(/^1 later change depends on this/);
    expect(await toast.locator('[data-testid=undo-with-dependents]').textContent()).toBe('Undo this and the 1 change that depends on it');
    await toast.locator('[data-testid=undo-with-dependents]').click();
    await toast.locator('[data-testid=undo-with-dependents-confirm]').waitFor();
    expect((await axeFindings(p, 'serious')).map((f) => `${f.id} @ ${f.targets.join(' | ')}`)).toEqual([]);
    await toast.locator('[data-testid=undo-with-dependents-go]').click();
    await toast.waitFor({ state: 'detached' });
    const states = Object.fromEntries((await call(wb.session, 'journal.history', { limit: 5 })).map((c) => [c.id, c.state]));
    expect(states).toMatchObject({ [archived]: 'undone', [later]: 'undone' });
    expect((await call(wb.session, 'memory.get', { id })).memory.archived).toBe(false);
  });
});
