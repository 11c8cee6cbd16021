/// <reference lib="dom" />
/**
 * The Scorer lab in Chromium on the fixture: two profiles side by side over the logged recalls, the
 * ranks of each side equal explain's under that profile (what `mnemo explain --json` prints), a
 * rank move is shown, and a profile saved from the lab shows its diff and is undone from History.
 * A fit over the logged recalls shows its progress (n of N, the best objective as a line) and its
 * result, and the fitted profile saved from it is listed in History, whose undo removes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../core/api/service.js';
import { expected, fixtureCopy } from '../../support/fixture.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';

const NOW = expected().now as number;
const QUERY = 'deploy notifier to staging';
/** More logged recalls, so that a fit's evaluations take long enough to watch. */
const MORE = ['deploy', 'billing', 'staging', 'release', 'notifier', 'database', 'incident', 'customer', 'invoice', 'backup', 'alert', 'migration', 'review', 'schema', 'latency', 'rollback', 'queue', 'cache', 'token', 'metrics'];
let wb: Workbench;

beforeAll(async () => {
  wb = await openWorkbench(fixtureCopy(), { now: NOW, width: 1400, height: 1000 });
  await call(wb.session, 'recall.run', { query: QUERY, k: 5 });
  await call(wb.session, 'recall.run', { query: 'billing release checklist', k: 5 });
  for (const query of MORE) await call(wb.session, 'recall.run', { query: `${query} notes`, k: 5 });
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const ids = (side: 'a' | 'b') => wb.page.locator(`[data-testid=lab-ranking-${side}] [data-testid=lab-row]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-memory-id')));

describe('Scorer lab', () => {
  it('shows both rankings side by side, each equal to explain under its profile, with rank moves', async () => {
    const p = wb.page;
    await wb.go(`/lab?a=nooa-0.0.9&b=mnemo&k=5&labels=logged-top-k&sel=${encodeURIComponent(QUERY)}`);
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

  it('fits a profile to the logged recalls with progress, saves it with its diff, and History undoes the save', async () => {
    const p = wb.page;
    await wb.go('/lab?a=mnemo&b=nooa-0.0.9&k=5&labels=logged-top-k');
    await p.locator('[data-testid=lab-fit-from]').selectOption('a');
    await p.locator('[data-testid=lab-fit-evals]').fill('40');
    await p.locator('[data-testid=lab-fit]:not([disabled])').click();
    // Progress: n of N evaluations with n > 0, and the best objective so far drawn as a line.
    await expect.poll(() => p.locator('[data-testid=lab-fit-progress]').textContent(), { timeout: 60_000 }).toMatch(/[1-9]\d* of 40 evaluations, best \d/);
    await p.locator('[data-testid=lab-fit-result]').waitFor({ timeout: 120_000 });
    expect(await p.locator('[data-testid=lab-fit-result]').textContent()).toMatch(/training and \d+ held-out queries labelled by logged-top-k/);
    expect(await p.locator('[data-testid=lab-fit-metrics] tbody tr').count()).toBe(6);
    await p.locator('[data-testid=lab-fit-chart]').waitFor();
    const moved = await p.locator('[data-testid=lab-fit-knobs] tbody tr td.mono:first-child').allTextContents();
    expect(moved.length).toBeGreaterThan(0);
    await p.locator('[data-testid=lab-fit-name]').fill('lab-fitted');
    await p.locator('[data-testid=lab-fit-save]').click();
    const diff = p.locator('[data-testid=lab-fit-saved-diff]');
    await diff.waitFor();
    // The saved diff is against the profile the fit started from, and names the knobs the fit moved.
    expect(await p.locator('[data-testid=lab-fit-saved]').textContent()).toMatch(/Saved lab-fitted .* Against mnemo/);
    const rows = await diff.locator('tbody tr td.mono:first-child').allTextContents();
    expect([...rows].sort()).toEqual([...moved].sort());
    const view = await call(wb.session, 'profiles.get', { name: 'lab-fitted' });
    expect(view.diff_from_base.map((d) => d.key)).toEqual(rows);
    const change = (await call(wb.session, 'journal.history', { limit: 1 }))[0]!;
    expect(change.label).toBe('save profile lab-fitted');
    await wb.go('/history');
    const row = p.locator(`[data-testid=history-row][data-change-id="${change.id}"]`);
    expect(await row.textContent()).toMatch(/save profile lab-fitted/);
    await row.locator('[data-testid=undo-button]').click();
    await expect.poll(async () => (await call(wb.session, 'profiles.list', {})).map((x) => x.name)).not.toContain('lab-fitted');
  }, 240_000);
});
