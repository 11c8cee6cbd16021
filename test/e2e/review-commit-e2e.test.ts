/// <reference lib="dom" />
/**
 * Issue 14 part 3 in the browser: on a generated store big enough that a commit takes many short
 * transactions, the Reflection view reviews a step from the keyboard (j / k move, a / r accept or
 * reject), sorts and filters it on the engine, explains a link between identical texts, asks to
 * confirm a commit with its planned effects, shows n of N with an ETA while it runs, and a cancel
 * leaves the store as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOW, plannedStore } from '../../support/long-writes.js';
import { dumpStore } from '../../support/reflect.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';

let wb: Workbench;
let db: string;

beforeAll(async () => {
  db = (await plannedStore(1000)).path;
  // Short batches with a pause after each: the commit lasts seconds on any machine, so the cancel
  // lands while it runs. With the default pacing, on a loaded machine, the whole commit could end
  // between the bar's first progress and the click (then Cancel comes too late, as the bar says).
  wb = await openWorkbench(db, { now: NOW, height: 1000, runPacing: { maxBatchItems: 25, pauseMs: 50 } });
}, 180_000);
afterAll(async () => {
  await wb?.close();
});

const itemIds = (w: Workbench) => w.page.$$eval('[data-testid=reflection-item]', (els) => els.map((e) => e.getAttribute('data-op-id')!));

describe('reviewing and committing a big plan in the workbench', { timeout: 300_000 }, () => {
  it('moves with j / k, accepts and rejects with a / r, sorts and filters on the engine, and explains identical texts', async () => {
    const p = wb.page;
    await wb.go('/reflection?step=link');
    await p.click('[data-testid=reflection-plan]');
    await p.waitForSelector('[data-testid=reflection-item][data-op=link]', { timeout: 120_000 });
    const first = (await itemIds(wb))[0]!;
    const second = (await itemIds(wb))[1]!;
    await p.focus(`[data-testid=reflection-item][data-op-id=${first}]`);
    await p.keyboard.press('j');
    expect(await p.evaluate(() => document.activeElement?.getAttribute('data-op-id'))).toBe(second);
    await p.keyboard.press('r');
    await p.waitForSelector(`[data-testid=reflection-item][data-op-id=${second}][data-state=rejected]`);
    await p.keyboard.press('k');
    expect(await p.evaluate(() => document.activeElement?.getAttribute('data-op-id'))).toBe(first);
    await p.keyboard.press('j');
    await p.keyboard.press('a');
    await p.waitForSelector(`[data-testid=reflection-item][data-op-id=${second}][data-state=accepted]`);

    await p.selectOption('[data-testid=reflection-sort]', 'cos_desc');
    await p.waitForFunction((id) => document.querySelector('[data-testid=reflection-item]')?.getAttribute('data-op-id') !== id, first);
    const cos = await p.$$eval('[data-testid=reflection-item] .merge-meta strong', (els) => els.map((e) => Number(e.textContent)));
    expect(cos.length).toBeGreaterThan(3);
    expect(cos).toEqual([...cos].sort((a, b) => b - a));

    const total = Number(await p.getAttribute('[data-testid=reflection-matched]', 'data-matched'));
    await p.check('[data-testid=reflection-filter-identical]');
    await p.waitForFunction((t) => Number(document.querySelector('[data-testid=reflection-matched]')?.getAttribute('data-matched')) < t, total);
    const notes = p.locator('[data-testid=reflection-not-merged]');
    await notes.first().waitFor();
    expect(await p.locator('[data-testid=reflection-item]').count()).toBe(await notes.count());
    expect(await notes.first().textContent()).toMatch(/texts.*linked rather than merged: cos 0\.\d{4} is below the merge threshold 0\.95/);
    await p.uncheck('[data-testid=reflection-filter-identical]');

    await p.fill('[data-testid=reflection-sample]', '7');
    await p.waitForFunction(() => document.querySelector('[data-testid=reflection-matched]')?.getAttribute('data-matched') === '7');
    expect(await p.locator('[data-testid=reflection-item]').count()).toBe(7);
    await p.fill('[data-testid=reflection-sample]', '');
    expect(wb.pageErrors).toEqual([]);
  });

  it('confirms with the planned effects, shows n of N with an ETA and a cancel, and a cancel leaves the store as it was', async () => {
    const p = wb.page;
    const before = dumpStore(db);
    await p.click('[data-testid=reflection-commit]');
    const summary = (await p.textContent('[data-testid=reflection-commit-summary]'))!;
    expect(summary).toMatch(/^\+[\d,]+ edges, [\d,]+ archived, [\d,]+ rescored/);
    // Back leaves it uncommitted.
    await p.click('[data-testid=reflection-commit-back]');
    expect(await p.locator('[data-testid=reflection-commit-confirm]').count()).toBe(0);

    await p.click('[data-testid=reflection-commit]');
    await p.click('[data-testid=reflection-commit-confirm-go]');
    await p.waitForFunction(
      () => document.querySelector('[data-testid=reflection-commit-progress]')?.getAttribute('data-phase') === 'apply' && Number(document.querySelector('[data-testid=reflection-commit-progress]')?.getAttribute('data-done')) > 0,
      undefined,
      { timeout: 60_000, polling: 50 },
    );
    const text = (await p.textContent('[data-testid=reflection-commit-progress]'))!;
    expect(text).toMatch(/Committing: applying the accepted items: [\d,]+ of [\d,]+ items \(\d+ %\)( · about \d+ (s|min) left)?/);
    await p.click('[data-testid=reflection-commit-cancel]');
    await p.waitForSelector('[data-testid=reflection-commit-cancelled]', { timeout: 120_000 });
    expect(await p.locator('[data-testid=reflection-result]').count()).toBe(0);
    expect(dumpStore(db)).toEqual(before);

    // Committing again runs to the end. Its answer is held back from the page once the engine has
    // finished, so Cancel is pressed too late, the race a slow network or a busy machine makes:
    // the bar must say the commit went through, not silently show it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let engineDone!: () => void;
    const finished = new Promise<void>((resolve) => (engineDone = resolve));
    await p.route('**/api/review.commit', async (route) => {
      const response = await route.fetch({ timeout: 240_000 });
      engineDone();
      await held;
      await route.fulfill({ response });
    });
    await p.click('[data-testid=reflection-commit]');
    await p.click('[data-testid=reflection-commit-confirm-go]');
    await finished;
    const cancelAnswer = p.waitForResponse((r) => r.url().endsWith('/api/journal.cancel'));
    await p.click('[data-testid=reflection-commit-cancel]');
    expect(await (await cancelAnswer).json()).toMatchObject({ ok: true, value: { cancelled: false } });
    release();
    await p.waitForSelector('[data-testid=reflection-result]', { timeout: 240_000 });
    expect(Number(await p.getAttribute('[data-testid=reflection-result]', 'data-change-id'))).toBeGreaterThan(0);
    expect(await p.textContent('[data-testid=reflection-cancel-too-late]')).toMatch(/too late: the commit had already finished\. Undo it in History/);
    expect(await p.locator('[data-testid=reflection-commit-cancelled]').count()).toBe(0);
    await p.unroute('**/api/review.commit');
    expect(wb.pageErrors).toEqual([]);
  });
});
