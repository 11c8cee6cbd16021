/// <reference lib="dom" />
/**
 * Screenshots of reviewing and committing a big reflection plan (issue 14 part 3), on a generated
 * 1,000-memory demo store so the link step has enough items to sort and filter and a commit runs
 * long enough to show its progress: the link step sorted by cosine with the identical-texts
 * filter (each card saying why it was not merged), the commit's confirmation with its planned
 * effects, and the commit running (n of N, ETA, cancel).
 * `node --import tsx scripts/screenshots-review.ts` writes docs/screenshots/reflection-*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { NOW, plannedStore } from '../support/long-writes.js';
import { openWorkbench } from '../support/workbench.js';

const OUT = join(process.cwd(), 'docs', 'screenshots');
mkdirSync(OUT, { recursive: true });

const db = (await plannedStore(1000)).path;
const wb = await openWorkbench(db, { now: NOW, width: 1440, height: 1000 });
const p = wb.page;
const save = async (name: string) => {
  await p.screenshot({ path: join(OUT, `${name}.png`) });
  console.log(`docs/screenshots/${name}.png`);
};
try {
  await wb.go('/reflection?step=link');
  await p.click('[data-testid=reflection-plan]');
  await p.waitForSelector('[data-testid=reflection-item][data-op=link]', { timeout: 120_000 });
  await p.selectOption('[data-testid=reflection-sort]', 'cos_desc');
  await p.check('[data-testid=reflection-filter-identical]');
  await p.waitForSelector('[data-testid=reflection-not-merged]');
  const second = p.locator('[data-testid=reflection-item]').nth(1);
  await second.focus();
  await p.keyboard.press('r');
  await p.waitForSelector('[data-testid=reflection-item][data-state=rejected]');
  await p.waitForTimeout(600);
  await save('reflection-review-link');

  await p.click('[data-testid=reflection-commit]');
  await p.waitForSelector('[data-testid=reflection-commit-confirm]');
  await save('reflection-commit-confirm');

  await p.click('[data-testid=reflection-commit-confirm-go]');
  // Shot once the apply phase has a pace (its line then says the time left).
  await p.waitForFunction(() => document.querySelector('[data-testid=reflection-commit-progress]')?.getAttribute('data-phase') === 'apply' && / left/.test(document.querySelector('[data-testid=reflection-commit-progress]')!.textContent!), undefined, { timeout: 60_000, polling: 50 });
  await save('reflection-commit-progress');
  await p.waitForSelector('[data-testid=reflection-result]', { timeout: 300_000 });
} finally {
  await wb.close();
}
