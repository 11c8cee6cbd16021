/// <reference lib="dom" />
/**
 * Issue 16: the first recall on a big store whose index sidecar is gone waits for its indexes to be
 * built. The Recall console says which index, over how many memories, and how far it is, instead of
 * a bare "Ranking…"; "Stop waiting" frees the view while the build goes on, and the next query
 * answers.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../../core/demo/generate.js';
import { sidecarPath } from '../../core/store/derived/index-sidecar.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';

const SIZE = 15_000;
let wb: Workbench;

beforeAll(async () => {
  const db = join(tempDir('mnemo-build-e2e-'), 'demo.sqlite');
  const store = MemoryStore.open(db, { create: true });
  generateDemo(store, { size: SIZE, seed: 3, now: Math.floor(Date.now() / 1000) });
  store.close();
  rmSync(sidecarPath(db), { force: true });
  wb = await openWorkbench(db, { width: 1280, height: 800 });
}, 300_000);
afterAll(async () => {
  await wb?.close();
});

describe('index build progress in the Recall console (Chromium)', () => {
  it('shows the index being built and its progress, lets the view stop waiting, then answers', async () => {
    const p = wb.page;
    await wb.go('/recall?q=deploy%20database%20migration');
    // Read the progress line and press "Stop waiting" in the same page task that finds it: the
    // build may end any moment after.
    const seen = await p.waitForFunction(
      () => {
        const el = document.querySelector('[data-testid=index-build]');
        if (!el) return null;
        const shown = { text: el.textContent ?? '', bars: el.querySelectorAll('progress').length };
        (el.querySelector('[data-testid=index-build-stop]') as HTMLButtonElement).click();
        return shown;
      },
      undefined,
      { timeout: 60_000, polling: 20 },
    );
    const shown = (await seen.jsonValue())!;
    expect(shown.text).toMatch(/Building the [a-z ()]+ over \d{2},\d{3} memories… \d+ %/);
    expect(shown.bars).toBe(1);

    await p.waitForSelector('[data-testid=ranking-stopped]');
    expect(await p.locator('[data-testid=index-build]').count()).toBe(0);

    await p.click('[data-testid=recall-submit]');
    await p.waitForSelector('[data-testid=recall-result]', { timeout: 120_000 });
    expect(await p.locator('[data-testid=recall-result]').count()).toBeGreaterThan(0);
    expect(wb.pageErrors).toEqual([]);
  }, 240_000);
});
