/// <reference lib="dom" />
/**
 * The Scorer lab in Chromium on the fixture: two profiles side by side over the logged recalls, the
 * ranks of each side equal explain's under that profile (what `mnemo explain --json` prints), a
 * rank move is shown, and a profile saved from the lab shows its diff and is undone from History.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../core/api/service.js';
import { expected, fixtureCopy } from '../../support/fixture.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';

const NOW = expected().now as number;
const QUERY = 'deploy notifier to staging';
let wb: Workbench;

beforeAll(async () => {
  wb = await openWorkbench(fixtureCopy(), { now: NOW, width: 1400, height: 1000 });
  await call(wb.session, 'recall.run', { query: QUERY, k: 5 });
  await call(wb.session, 'recall.run', { query: 'billing release checklist', k: 5 });
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const ids = (side: 'a' | 'b') => wb.page.locator(`[data-testid=lab-ranking-${side}] [data-testid=lab-row]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-memory-id')));

describe('Scorer lab', () => {
  it('shows both rankings side by side, each equal to explain under its profile, with rank moves', async () => {
    const p = wb.page;
    await wb.go(`/lab?a=nooa-0.0.9&b=mnemo&k=5&sel=${encodeURIComponent(QUERY)}`);
    const logged = await call(wb.session, 'lab.queries', {});
    expect(logged.map((q) => q.query)).toContain(QUERY);
    await p.locator('[data-testid=lab-run]:not([disabled])').waitFor();
    await p.locator('[data-testid=lab-run]').click();
    await p.locator('[data-testid=lab-side-by-side]').waitFor();
    // One row per query and scope (several readers asking the same thing rank the same).
    await expect.poll(() => p.locator('[data-testid=lab-query-row]').count()).toBe(new Set(logged.map((q) => `${q.query}|${q.owner}`)).size);
    for (const [side, profile] of [['a', 'nooa-0.0.9'], ['b', 'mnemo']] as const) {
      const explained = await call(wb.session, 'recall.explain', { query: QUERY, k: 5, profile });
      expect(await ids(side)).toEqual(explained.rows.map((r) => r.id));
    }
    const moves = await p.locator('[data-testid=lab-move]').allTextContents();
    expect(moves.some((m) => /^(↑\d+|↓\d+|new)$/.test(m))).toBe(true);
    expect(await p.locator('[data-testid=lab-metrics]').textContent()).toMatch(/recall@5/);
    expect(await p.locator('[data-testid=lab-label-rule]').textContent()).toMatch(/Proxy labels/);
    expect(await p.locator('[data-testid=lab-fit]').isDisabled()).toBe(true);
  });

  it('saves a profile from the lab with its diff, and History undoes the save', async () => {
    const p = wb.page;
    await p.locator('[data-testid=lab-save-knob]').selectOption('knobs.weights.importance');
    await p.locator('[data-testid=lab-save-value]').fill('1.5');
    await p.locator('[data-testid=lab-save-name]').fill('heavier');
    await p.locator('[data-testid=lab-save-submit]').click();
    const diff = p.locator('[data-testid=lab-saved-diff]');
    await diff.waitFor();
    expect((await diff.locator('tbody tr').allTextContents()).map((t) => t.replace(/\s+/g, ' '))).toEqual(['knobs.weights.importance0.51.5']);
    expect((await call(wb.session, 'profiles.list', {})).map((x) => x.name)).toContain('heavier');
    const change = (await call(wb.session, 'journal.history', { limit: 1 }))[0]!;
    expect(change.label).toBe('save profile heavier');
    await wb.go('/history');
    await p.locator(`[data-testid=history-row][data-change-id="${change.id}"] [data-testid=undo-button]`).click();
    await expect.poll(async () => (await call(wb.session, 'profiles.list', {})).map((x) => x.name)).not.toContain('heavier');
  });
});
