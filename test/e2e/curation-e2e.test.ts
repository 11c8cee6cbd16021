/**
 * Curation in Chromium: Find duplicates (groups with owners, merge with the older copy as default
 * survivor and a cross-owner confirmation), "select the rows on screen" taking only what is
 * visible, "select all N matching", and a read-only store whose write controls are disabled.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../core/api/service.js';
import { expected, FIXTURE_STORE, fixtureCopy, tempDir } from '../../support/fixture.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';

const NOW = expected().now as number;
let wb: Workbench;

beforeAll(async () => {
  wb = await openWorkbench(fixtureCopy(), { now: NOW, width: 1400, height: 900 });
}, 60_000);
afterAll(async () => {
  await wb?.close();
});

describe('curation e2e', () => {
  it('finds duplicates with their owners and merges one group into the older copy after a cross-owner confirmation', async () => {
    const p = wb.page;
    const older = await call(wb.session, 'memory.add', { content: 'Rotate the staging deploy key every month.', owner: 'Planner@a1', created_at: NOW - 9000 });
    const newer = await call(wb.session, 'memory.add', { content: 'rotate the staging deploy key, every month', owner: 'Coder@c3', created_at: NOW - 100 });
    await wb.go('/duplicates');
    const group = p.locator('[data-testid=dup-group]', { hasText: 'Rotate the staging deploy key' });
    await group.waitFor();
    expect(await group.textContent()).toMatch(/different owners: Planner@a1, Coder@c3/);
    await group.locator('[data-testid=dup-merge]').click();
    await p.waitForSelector('[data-testid=merge-dialog]');
    await expect.poll(() => p.locator(`[data-testid=merge-survivor][data-memory-id="${older.id}"]`).isChecked()).toBe(true);
    await p.waitForSelector('[data-testid=merge-cross-owner]');
    expect(await p.locator('[data-testid=merge-confirm]').isDisabled()).toBe(true);
    await p.check('[data-testid=merge-allow-cross-owner]');
    await p.click('[data-testid=merge-confirm]');
    await p.waitForSelector('[data-testid=merge-dialog]', { state: 'detached' });
    expect((await call(wb.session, 'memory.get', { id: newer.id })).memory.archived).toBe(true);
    await expect.poll(() => group.count()).toBe(0);
  });

  it('"select the rows on screen" selects exactly the visible rows; "select all N matching" selects N after confirming', async () => {
    const p = wb.page;
    await wb.go('/memories');
    await p.waitForSelector('[data-testid=memory-row]');
    const visible = await p.evaluate(() => {
      const body = document.querySelector('.mtable .tbody')!.getBoundingClientRect();
      return Array.from(document.querySelectorAll('[data-testid=memory-row]')).filter((r) => {
        const b = r.getBoundingClientRect();
        return b.top >= body.top - 0.5 && b.bottom <= body.bottom + 0.5;
      }).length;
    });
    const rendered = await p.locator('[data-testid=memory-row]').count();
    expect(rendered).toBeGreaterThan(visible);
    await p.check('[data-testid=select-on-screen]');
    await expect.poll(() => p.locator('[data-testid=bulk-bar] strong').textContent()).toBe(`${visible} selected`);
    await p.locator('[data-testid=bulk-bar] button.link', { hasText: 'Clear selection' }).click();

    await wb.go('/memories?type=info');
    await p.waitForSelector('[data-testid=memory-row]');
    const total = (await call(wb.session, 'memory.list', { types: ['info'], limit: 1 })).total;
    await p.click('[data-testid=select-all-matching]');
    expect(await p.locator('[role=alertdialog][aria-label="confirm select all"]').textContent()).toContain(`Select all ${total}`);
    await p.click('[data-testid=select-all-confirm]');
    await expect.poll(() => p.locator('[data-testid=bulk-bar] strong').textContent()).toBe(`${total} selected`);
    await p.locator('[data-testid=bulk-bar] button.link', { hasText: 'Clear selection' }).click();
  });

  it('offers "Archived · Undo" after archiving, and the Undo takes that change back', async () => {
    const p = wb.page;
    const id = (await call(wb.session, 'memory.list', { limit: 1, types: ['skill'] })).rows[0]!.id;
    await wb.go(`/memory/${id}`);
    await p.click('[data-testid=archive-toggle]');
    const toast = p.locator('[data-testid=undo-toast]');
    await toast.waitFor();
    // The previous test's toast ("Merged 2 memories · Undo") may still be up for a moment on a loaded machine.
    await expect.poll(() => toast.textContent()).toMatch(/^Archived · Undo/);
    const changeId = Number(await toast.getAttribute('data-change-id'));
    expect((await call(wb.session, 'journal.history', { limit: 1 }))[0]).toMatchObject({ id: changeId, kind: 'memory.archive' });
    expect((await call(wb.session, 'memory.get', { id })).memory.archived).toBe(true);
    await p.click('[data-testid=undo-toast-undo]');
    await toast.waitFor({ state: 'detached' });
    expect((await call(wb.session, 'memory.get', { id })).memory.archived).toBe(false);
    expect((await call(wb.session, 'journal.history', { limit: 1 }))[0]).toMatchObject({ id: changeId, state: 'undone' });
  });

  it('under --readonly, write controls are disabled and say why', async () => {
    const db = join(tempDir(), 'ro.sqlite');
    copyFileSync(FIXTURE_STORE, db);
    const ro = await openWorkbench(db, { now: NOW, width: 1400, height: 900, readonly: true });
    try {
      const id = (await call(ro.session, 'memory.list', { limit: 1 })).rows[0]!.id;
      await ro.go(`/memory/${id}`);
      const archive = ro.page.locator('[data-testid=archive-toggle]');
      await archive.waitFor();
      await expect.poll(() => archive.isDisabled()).toBe(true);
      expect(await archive.getAttribute('title')).toMatch(/read-only/);
      expect(await ro.page.locator('[data-testid=forget]').isDisabled()).toBe(true);
      expect(await ro.page.locator('[data-testid=link-open]').isDisabled()).toBe(true);
      expect(await ro.page.locator('button[data-testid^=edit-]').first().isDisabled()).toBe(true);
      await ro.go('/memories');
      await ro.page.waitForSelector('[data-testid=read-only-note]');
      await ro.page.locator('[data-testid=memory-row] input[type=checkbox]').first().check();
      expect(await ro.page.locator('[data-testid=bulk-archive]').isDisabled()).toBe(true);
    } finally {
      await ro.close();
    }
  });
});
