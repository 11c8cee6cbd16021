/// <reference lib="dom" />
/**
 * `npm run screenshots -- --only index-build`: the Recall console while the first recall on a big
 * store (15,000 demo memories, its index sidecar deleted) waits for an index build: the line that
 * names the index and how far it is, and its bar, shot part-way through a build (the percentage
 * and the index differ between runs).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fixedClock } from '../core/clock.js';
import { generateDemo } from '../core/demo/generate.js';
import { sidecarPath } from '../core/store/derived/index-sidecar.js';
import { MemoryStore } from '../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/fixture.js';
import { openWorkbench } from '../support/workbench.js';

const SIZE = 15_000;

export async function indexBuildShot(out: string, now: number): Promise<void> {
  const db = join(tempDir('mnemo-shots-build-'), 'demo.sqlite');
  const store = MemoryStore.open(db, { create: true, clock: fixedClock(now) });
  generateDemo(store, { size: SIZE, seed: 3, now });
  store.close();
  rmSync(sidecarPath(db), { force: true });
  const wb = await openWorkbench(db, { now, width: 1440, height: 900 });
  try {
    await wb.go(`/recall?q=${encodeURIComponent('deploy database migration')}`);
    // The build runs in this process and moves on while a screenshot is taken (or ends before it),
    // so the page is stood still the moment it shows a build part-way: the rendered app is swapped
    // for a static copy of itself (React goes on updating the original, out of the document).
    await wb.page.waitForFunction(
      () => {
        const bar = document.querySelector<HTMLProgressElement>('[data-testid=index-build] progress');
        if (!bar || bar.value < 10 || bar.value > 80) return false;
        const app = document.getElementById('root')!;
        const still = app.cloneNode(true) as HTMLElement;
        // A copy takes form fields' attributes, not the values React set on them.
        const copies = still.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select');
        app.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select').forEach((f, i) => (copies[i]!.value = f.value));
        app.replaceWith(still);
        return true;
      },
      undefined,
      { timeout: 120_000, polling: 20 },
    );
    await wb.page.screenshot({ path: join(out, 'recall-index-build.png') });
    console.log('docs/screenshots/recall-index-build.png');
  } finally {
    await wb.close();
  }
}
