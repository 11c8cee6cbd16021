/// <reference lib="dom" />
/**
 * Screenshots of time travel in the workbench (issue #16, part 4) at 1280×800: the Memories list
 * as of an earlier instant (the banner, read-only), what changed between two instants with each
 * change's writer and a text change opened, and a logged recall replayed as of then. On a copy of
 * the fixture store, on the wall clock (the change feed stamps each change with its writer's
 * clock): a few changes through the workbench, one by a program that is not Mnemo, a second apart.
 * `node --import tsx scripts/screenshots-time-travel.ts` writes docs/screenshots/time-travel-*.png.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../core/api/service.js';
import { fixtureCopy } from '../support/fixture.js';
import { openWorkbench } from '../support/workbench.js';

const OUT = join(process.cwd(), 'docs', 'screenshots');
mkdirSync(OUT, { recursive: true });

/** The next whole second, once it has passed: an instant between two groups of changes. */
async function pastWholeSecond(): Promise<number> {
  const t = Math.ceil(Date.now() / 1000);
  await new Promise((r) => setTimeout(r, Math.max(0, t * 1000 + 150 - Date.now())));
  return t;
}

const db = fixtureCopy();
const wb = await openWorkbench(db, { width: 1280, height: 800 });
const p = wb.page;
const save = async (name: string) => {
  await p.screenshot({ path: join(OUT, `${name}.png`) });
  console.log(`docs/screenshots/${name}.png`);
};
try {
  const s = wb.session;
  const [a, b, c, d] = (await call(s, 'memory.list', { limit: 4, types: ['info'] })).rows;
  // The store's history starts when Mnemo first writes it: write once before the recall to be replayed.
  await call(s, 'memory.tag', { ids: [d!.id], add: ['reviewed'] });
  const logged = await call(s, 'recall.run', { query: 'deploy', k: 5 });
  const T = await pastWholeSecond();
  await call(s, 'memory.add', { content: 'Rotate the staging certificates every 60 days; the last rotation broke the canary', tags: ['ops'] });
  await call(s, 'memory.update', { id: a!.id, patch: { content: 'The staging cluster moved to the new region in March; the old one is read-only until June' } });
  await call(s, 'memory.archive', { ids: [logged.rows[0]!.id] });
  await call(s, 'edge.add', { src: b!.id, dst: c!.id, type: 'supports', weight: 1 });
  // A nooa agent writing the same file: only the change feed sees it.
  const raw = new Database(db, { timeout: 5000 });
  raw.prepare('INSERT INTO memory_edges (src, dst, type, weight, created_at) VALUES (?, ?, ?, 1.0, ?)').run(d!.id, a!.id, 'related', Date.now() / 1000);
  raw.close();
  const to = await pastWholeSecond();

  await wb.go(`/memories?at=${T}`);
  await p.waitForSelector('[data-testid=time-banner]');
  await p.waitForSelector('[data-testid=time-hidden-changes]');
  await p.waitForSelector('[data-testid=memory-row]');
  await p.waitForTimeout(400);
  await save('time-travel-memories');

  await wb.go(`/history/diff?from=${T}&to=${to}`);
  await p.waitForSelector('[data-testid=diff-memories]');
  await p.click('[data-testid=diff-memory][data-kind=changed] [data-testid=diff-show-text]');
  await p.waitForSelector('[data-testid=diff-text-content]');
  await p.waitForTimeout(400);
  await save('time-travel-diff');

  await wb.go('/audit?q=deploy');
  const row = p.locator(`[data-testid=access-row][data-memory-id="${logged.rows[0]!.id}"]`).first();
  await row.waitFor();
  await row.locator('td').first().click();
  await p.click('[data-testid=replay-then]');
  await p.waitForSelector('[data-testid=replay-then-verdict]');
  await p.waitForTimeout(400);
  await save('time-travel-replay');
} finally {
  await wb.close();
}
