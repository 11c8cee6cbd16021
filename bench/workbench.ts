/// <reference lib="dom" />
/**
 * Workbench speed in Chromium (browser mode) on a 100k-memory demo store:
 *   - first rendered memory list (page load → first table row)       target ≤ 1.5 s
 *   - a 2k-node graph neighbourhood (route → layout done)             target ≤ 2 s
 *   - memory detail open (click a row → detail rendered)              target ≤ 300 ms
 * plus the 5k-node graph and the detail's retention curve, for information. The same measures on
 * the 160-memory fixture store are the baseline; the ratio shows what the store size costs.
 * Not a test: run `npm run bench -- workbench [--runs N] [--size N] [--json]`.
 */
import Database from 'better-sqlite3';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../core/api/service.js';
import { FIXTURE_STORE, tempDir } from '../support/fixture.js';
import { demoStoreCopy } from './lib/demo-store.js';
import { median } from './lib/stats.js';
import { openWorkbench, type Workbench } from '../support/workbench.js';

const args = process.argv.slice(2);
const opt = (name: string, d: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const RUNS = opt('runs', 5);
const SIZE = opt('size', 100_000);
const JSON_OUT = args.includes('--json');
const NOW = 1_780_000_000;
const log = (s: string) => {
  if (!JSON_OUT) console.log(s);
};

/** The best-connected memory (most incoming edges) and the hops at which its neighbourhood reaches `n` nodes. */
async function bigNeighbourhood(wb: Workbench, n: number): Promise<{ focus: string; hops: number } | null> {
  // The engine is in the server's workers: read the file on a connection of our own.
  const db = new Database(wb.session.storePath!, { readonly: true });
  const hub = db.prepare('SELECT dst AS id, count(*) AS n FROM memory_edges GROUP BY dst ORDER BY n DESC LIMIT 1').get() as { id: string } | undefined;
  db.close();
  if (!hub) return null;
  for (const hops of [1, 2, 3, 4, 5, 6, 7, 8, 10, 12]) {
    const g = await call(wb.session, 'graph.view', { focus: hub.id, hops, limit: n });
    if (g.nodes.length >= n) return { focus: hub.id, hops };
  }
  return null;
}

/** Runs `act` in the page and returns the ms from just before it to the app's performance mark `mark`. */
async function inPage(p: Workbench['page'], mark: string, act: string, wait: () => Promise<unknown>): Promise<number> {
  await p.evaluate(
    ([m, a]) => {
      performance.clearMarks(m);
      (window as unknown as { __t0: number }).__t0 = performance.now();
      new Function(a!)();
    },
    [mark, act] as const,
  );
  await wait();
  await p.waitForFunction((m) => performance.getEntriesByName(m).length > 0, mark);
  return p.evaluate((m) => performance.getEntriesByName(m).at(-1)!.startTime - (window as unknown as { __t0: number }).__t0, mark);
}

async function measure(db: string, label: string) {
  const wb = await openWorkbench(db, { now: NOW });
  const p = wb.page;
  const list: number[] = [];
  const detail: number[] = [];
  const curve: number[] = [];
  const graph2k: number[] = [];
  const graph5k: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      // First rendered list: from navigation start (a fresh page load, JS included) to the first rows.
      await p.goto(`${wb.server.url}#/memories?token=${wb.server.token}`);
      await p.waitForSelector('[data-testid=memory-row]');
      list.push(await p.evaluate(() => performance.getEntriesByName('mnemo:list-rendered')[0]!.startTime));
      // Detail open: from the click on a row to the detail rendered (fields, scores, edges, ring).
      const ms = await inPage(p, 'mnemo:detail-rendered', `document.querySelectorAll('[data-testid=memory-row] a.c-head')[${i % 5}].click()`, () =>
        p.waitForSelector('[data-testid=memory-detail] [data-testid=memory-content]'),
      );
      detail.push(ms);
      await p.waitForSelector('[data-testid=retention-curve] canvas');
      curve.push(await p.evaluate(() => performance.now() - (window as unknown as { __t0: number }).__t0));
    }
    const total = (await call(wb.session, 'store.info', {})).counts.live;
    const g2 = total >= 2000 ? await bigNeighbourhood(wb, 2000) : null;
    // The demo store's components are small (no neighbourhood reaches 5k), so 5k visible nodes is the overview.
    const g5 = total >= 5000;
    for (let i = 0; i < RUNS; i++) {
      if (g2) {
        await wb.go('/memories');
        await p.waitForSelector('[data-testid=memory-row]');
        graph2k.push(
          await inPage(p, 'mnemo:graph-laid-out', `window.location.hash = '/graph?focus=${g2.focus}&hops=${g2.hops}&limit=2000'`, () =>
            p.waitForFunction(() => document.querySelector('[data-testid=graph-canvas]')?.getAttribute('data-node-count') === '2000', undefined, { timeout: 60_000 }),
          ),
        );
      }
      if (g5 && i < Math.min(RUNS, 3)) {
        await wb.go('/memories');
        await p.waitForSelector('[data-testid=memory-row]');
        graph5k.push(
          await inPage(p, 'mnemo:graph-laid-out', `window.location.hash = '/graph?limit=5000'`, () =>
            p.waitForFunction(() => document.querySelector('[data-testid=graph-canvas]')?.getAttribute('data-node-count') === '5000', undefined, { timeout: 120_000 }),
          ),
        );
      }
    }
    const r = {
      store: label,
      memories: total,
      list_ms: median(list),
      detail_ms: median(detail),
      detail_with_curve_ms: median(curve),
      graph_2k_ms: graph2k.length ? median(graph2k) : null,
      graph_5k_ms: graph5k.length ? median(graph5k) : null,
    };
    log(
      `${label.padEnd(10)} ${String(total).padStart(7)} live · list ${r.list_ms.toFixed(0)} ms · detail ${r.detail_ms.toFixed(0)} ms (with curve ${r.detail_with_curve_ms.toFixed(0)} ms)` +
        (r.graph_2k_ms !== null ? ` · graph 2k ${r.graph_2k_ms.toFixed(0)} ms` : '') +
        (r.graph_5k_ms !== null ? ` · graph 5k ${r.graph_5k_ms.toFixed(0)} ms` : ''),
    );
    return r;
  } finally {
    await wb.close();
  }
}

const fixture = join(tempDir('mnemo-bench-'), 'fixture.sqlite');
copyFileSync(FIXTURE_STORE, fixture);
const baseline = await measure(fixture, 'fixture');
const big = await measure(demoStoreCopy(SIZE, NOW, log), `demo-${SIZE / 1000}k`);
const targets = { list_ms: 1500, graph_2k_ms: 2000, detail_ms: 300 };
const verdict = {
  list: big.list_ms <= targets.list_ms,
  graph_2k: big.graph_2k_ms !== null && big.graph_2k_ms <= targets.graph_2k_ms,
  detail: big.detail_ms <= targets.detail_ms,
};
const ratio = { list: big.list_ms / baseline.list_ms, detail: big.detail_ms / baseline.detail_ms };
log(`medians of ${RUNS} runs; ratio ${SIZE / 1000}k / fixture: list ×${ratio.list.toFixed(2)}, detail ×${ratio.detail.toFixed(2)}`);
log(`targets: list ≤ 1500 ms ${verdict.list ? 'met' : 'MISSED'} · 2k graph ≤ 2000 ms ${verdict.graph_2k ? 'met' : 'MISSED'} · detail ≤ 300 ms ${verdict.detail ? 'met' : 'MISSED'}`);
if (JSON_OUT) console.log(JSON.stringify({ runs: RUNS, baseline, big, ratio, targets, verdict }));
