/// <reference lib="dom" />
/**
 * `npm run screenshots`: regenerates docs/screenshots/*.png, one per view (plus dark-theme shots),
 * from browser mode on a copy of the fixture store with the clock frozen at the fixture's `now`, so
 * the pictures are the same on every run.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../core/api/service.js';
import { expected, FIXTURE_STORE, tempDir } from '../support/fixture.js';
import { openWorkbench, type Workbench } from '../support/workbench.js';
import { graphShot, largeGraphShots, recallShot } from './screenshots-graph.js';
import { credentialShots } from './screenshots-credentials.js';
import { beliefShots, FLEET_ROOT, fleetShot, ingestBeliefs, part2 } from './screenshots-part2.js';
import { indexBuildShot } from './screenshots-index-build.js';

const OUT = join(process.cwd(), 'docs', 'screenshots');
/** `npm run screenshots -- --only part2` skips the first part's shots (they do not change here). */
const ONLY_PART2 = process.argv.includes('--only') && process.argv.includes('part2');
/** `npm run screenshots -- --only graph`: the Graph view's shots only (and the large store's, see screenshots-graph.ts). */
const ONLY_GRAPH = process.argv.includes('--only') && process.argv.includes('graph');
/** `npm run screenshots -- --only recall`: only the Recall, why-not and replay (audit) shots. */
const ONLY_RECALL = process.argv.includes('--only') && process.argv.includes('recall');
/** `npm run screenshots -- --only detail`: only the memory detail's shots (light and dark). */
const ONLY_DETAIL = process.argv.includes('--only') && process.argv.includes('detail');
/** `npm run screenshots -- --only credentials`: only the shots of agent credentials (Fleet, the audit with its credential filter, History). */
const ONLY_CREDENTIALS = process.argv.includes('--only') && process.argv.includes('credentials');
/** `npm run screenshots -- --only beliefs`: only the Beliefs view's shots. */
const ONLY_BELIEFS = process.argv.includes('--only') && process.argv.includes('beliefs');
/** `npm run screenshots -- --only lab`: only the Scorer lab's shot. */
const ONLY_LAB = process.argv.includes('--only') && process.argv.includes('lab');
/** `npm run screenshots -- --only index-build`: only the Recall console waiting for an index build (a 15k demo store of its own). */
const ONLY_INDEX_BUILD = process.argv.includes('--only') && process.argv.includes('index-build');
mkdirSync(OUT, { recursive: true });
const S = expected().summary;
const NOW = expected().now as number;

async function shot(wb: Workbench, name: string, hash: string, ready: string, opts: { tall?: number; after?: (wb: Workbench) => Promise<void> } = {}) {
  // The app scrolls inside its own panes, so a long view is shot with a taller window.
  await wb.page.setViewportSize({ width: 1440, height: opts.tall ?? 900 });
  await wb.go(hash);
  await wb.page.waitForSelector(ready, { timeout: 30_000 });
  if (opts.after) await opts.after(wb);
  await wb.page.waitForTimeout(600); // let charts and layouts settle
  await wb.page.screenshot({ path: join(OUT, `${name}.png`) });
  console.log(`docs/screenshots/${name}.png`);
}

async function recallShots(wb: Workbench) {
  // Empty first: once a query has run, Recall brings the last one back.
  await shot(wb, 'recall-empty', '/recall', '[data-testid=empty-state]');
  const q = encodeURIComponent('deploy billing service');
  const explain = await call(wb.session, 'recall.explain', { query: 'deploy billing service', k: 10, hops: 2 });
  const fed = explain.rows.find((r) => (explain.paths[r.id]?.length ?? 0) > 1) ?? explain.rows[0]!;
  await shot(wb, 'recall', `/recall?q=${q}&hops=2&sel=${fed.id}&why=${S.chain.c}`, '[data-testid=spread-panel] [data-testid=graph-canvas][data-layout-done=true]', { tall: 1300 });
  await shot(wb, 'recall-why-not-picker', `/recall?q=${encodeURIComponent('deploy notifier to staging')}`, '[data-testid=recall-result]', {
    after: async (w) => {
      await w.page.fill('[data-testid=why-not-input]', 'rollback canary');
      await w.page.press('[data-testid=why-not-input]', 'Enter');
      await w.page.waitForSelector('[data-testid=why-not-pick]');
    },
  });
  const events = await call(wb.session, 'access.list', { reader_owner: 'workbench', limit: 1 });
  const ev = events.events[0]?.event_id;
  await shot(wb, 'audit', `/audit?channel=recalled${ev ? `&event=${ev}` : ''}`, ev ? '[data-testid=replay-table]' : '[data-testid=access-row]', { tall: 1300 });
}

/** The Scorer lab: nooa-0.0.9 against mnemo over a few logged recalls, one query side by side, a sweep run, a fit run. */
async function labShot(wb: Workbench) {
  for (const query of ['deploy notifier to staging', 'flaky tests in ci', 'billing release checklist']) await call(wb.session, 'recall.run', { query, k: 5 });
  await shot(wb, 'lab', `/lab?a=nooa-0.0.9&b=mnemo&k=5&labels=logged-top-k&sel=${encodeURIComponent('deploy notifier to staging')}`, '[data-testid=lab-run]:not([disabled])', {
    tall: 1700,
    after: async (w) => {
      await w.page.click('[data-testid=lab-run]');
      await w.page.waitForSelector('[data-testid=lab-side-by-side]');
      await w.page.click('[data-testid=lab-sweep-run]');
      await w.page.waitForSelector('[data-testid=lab-sweep-chart]');
      await w.page.waitForSelector('[data-testid=lab-sweep-run]:not([disabled])');
      await w.page.fill('[data-testid=lab-fit-evals]', '40');
      await w.page.click('[data-testid=lab-fit]');
      await w.page.waitForSelector('[data-testid=lab-fit-result] [data-testid=lab-fit-chart]', { timeout: 120_000 });
      await w.page.evaluate(() => document.querySelector('main.content')?.scrollTo(0, 0));
    },
  });
}

async function run(theme: 'light' | 'dark') {
  const db = join(tempDir('mnemo-shots-'), 'store.sqlite');
  copyFileSync(FIXTURE_STORE, db);
  const wb = await openWorkbench(db, { now: NOW, width: 1440, height: 900, colorScheme: theme, roots: [FLEET_ROOT] });
  try {
    // A logged recall, so the audit has events with their components to replay.
    await call(wb.session, 'recall.run', { query: 'deploy billing service', k: 10, hops: 2, owner: 'Planner' });
    const rotated = S.rotated_rings[0] as string;
    const graphReady = '[data-testid=graph-canvas][data-layout-done=true]';
    if (ONLY_GRAPH) {
      const all = await call(wb.session, 'graph.view', {});
      const around = await call(wb.session, 'graph.view', { focus: S.chain.a, hops: 2 });
      if (theme === 'light') {
        await graphShot(wb, OUT, 'graph', '/graph', all.nodes.length);
        await graphShot(wb, OUT, 'graph-focus', `/graph?focus=${S.chain.a}&hops=2`, around.nodes.length);
        await recallShot(wb, OUT, 'graph-recall', 'deploy billing service');
      } else await graphShot(wb, OUT, 'graph-dark', `/graph?focus=${S.chain.a}&hops=2`, around.nodes.length);
      return;
    }
    if (ONLY_LAB) {
      if (theme === 'light') await labShot(wb);
      return;
    }
    if (ONLY_BELIEFS) {
      if (theme === 'light') {
        await ingestBeliefs(wb);
        await beliefShots(wb, shot);
      }
      return;
    }
    if (ONLY_CREDENTIALS) {
      if (theme === 'light') {
        await fleetShot(wb, shot);
        await credentialShots(wb, db, shot);
      }
      return;
    }
    if (ONLY_DETAIL) {
      const tall = theme === 'light' ? { tall: 2000 } : {};
      await shot(wb, theme === 'light' ? 'memory-detail' : 'memory-detail-dark', `/memory/${rotated}`, '[data-testid=retention-curve] canvas', tall);
      return;
    }
    if (ONLY_PART2) {
      // the first part's shots are left as they are
    } else if (ONLY_RECALL) {
      if (theme === 'light') await recallShots(wb);
      else await shot(wb, 'recall-dark', `/recall?q=${encodeURIComponent('flaky tests in ci')}&hops=1`, '[data-testid=recall-result]');
      return;
    } else if (theme === 'light') {
      await shot(wb, 'memories', '/memories', '[data-testid=memory-row]');
      await shot(wb, 'memories-filtered', '/memories?type=todo,episode&tag=ci&sort=importance', '[data-testid=memory-row]', {
        after: async (w) => {
          await w.page.locator('[data-testid=memory-row] input[type=checkbox]').nth(0).check();
          await w.page.locator('[data-testid=memory-row] input[type=checkbox]').nth(2).check();
        },
      });
      await shot(wb, 'memory-detail', `/memory/${rotated}`, '[data-testid=retention-curve] canvas', { tall: 2000 });
      await shot(wb, 'graph', '/graph', graphReady);
      await shot(wb, 'graph-focus', `/graph?focus=${S.chain.a}&hops=2`, graphReady);
      await recallShots(wb);
    } else {
      await shot(wb, 'memory-detail-dark', `/memory/${rotated}`, '[data-testid=retention-curve] canvas');
      await shot(wb, 'graph-dark', `/graph?focus=${S.chain.a}&hops=2`, graphReady);
      await shot(wb, 'recall-dark', `/recall?q=${encodeURIComponent('flaky tests in ci')}&hops=1`, '[data-testid=recall-result]');
    }
    // Part 2 last: it commits a reflection and edits memories, which would change the shots above.
    await part2(wb, theme, shot);
    // Agents last: their changes and accesses would show in the shots above.
    if (theme === 'light') await credentialShots(wb, db, shot);
    // The lab logs recalls of its own: last, so the audit shots above do not show them.
    if (theme === 'light') await labShot(wb);
  } finally {
    await wb.close();
  }
}

if (ONLY_INDEX_BUILD) {
  await indexBuildShot(OUT, NOW);
} else {
  await run('light');
  await run('dark');
  await largeGraphShots(OUT);
  await indexBuildShot(OUT, NOW);
}
