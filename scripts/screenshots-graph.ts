/// <reference lib="dom" />
/**
 * The Graph view's screenshots: on the fixture store (called by scripts/screenshots.ts), and on a
 * large demo store when MNEMO_SHOTS_LARGE_STORE names one (built with
 * `mnemo demo <db> --size 100000 --seed 7 --now 1780000000`; MNEMO_SHOTS_LARGE_NOW if another
 * clock was used; MNEMO_SHOTS_LARGE_HUB to pick the hub to shoot). The large store is copied first: the shots never touch the original.
 */
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../core/api/service.js';
import { tempDir } from '../support/fixture.js';
import { openWorkbench, type Workbench } from '../support/workbench.js';

const CANVAS = '[data-testid=graph-canvas]';

/** Waits until the graph holds exactly `nodes` laid-out nodes (not the empty first render), then shoots. */
export async function graphShot(wb: Workbench, out: string, name: string, hash: string, nodes: number, extra: () => Promise<void> = async () => undefined): Promise<void> {
  await wb.page.setViewportSize({ width: 1440, height: 900 });
  await wb.go(hash);
  await wb.page.waitForFunction(
    ({ sel, n }) => {
      const el = document.querySelector(sel);
      return el?.getAttribute('data-layout-done') === 'true' && el.getAttribute('data-node-count') === String(n);
    },
    { sel: CANVAS, n: nodes },
    { timeout: 300_000 },
  );
  await extra();
  await wb.page.waitForTimeout(1500); // painting follows layout
  await wb.page.screenshot({ path: join(out, `${name}.png`) });
  const inView = await wb.page.getAttribute(CANVAS, 'data-in-view');
  const zoom = await wb.page.getAttribute(CANVAS, 'data-zoom');
  console.log(`docs/screenshots/${name}.png (${inView}/${nodes} nodes in view, zoom ${zoom})`);
}

/** Nodes the view will draw for `input` when recall neighbourhoods are merged in: read back from the page. */
async function settledCount(wb: Workbench): Promise<number> {
  let last = -1;
  for (let stable = 0; stable < 3; ) {
    await wb.page.waitForTimeout(1000);
    const n = Number(await wb.page.getAttribute(CANVAS, 'data-node-count'));
    const done = (await wb.page.getAttribute(CANVAS, 'data-layout-done')) === 'true';
    stable = done && n > 0 && n === last ? stable + 1 : 0;
    last = n;
  }
  return last;
}

/** A recall query's spread paths on the graph (waits for the recall and every neighbourhood). */
export async function recallShot(wb: Workbench, out: string, name: string, query: string): Promise<void> {
  await wb.page.setViewportSize({ width: 1440, height: 900 });
  await wb.go(`/graph?q=${encodeURIComponent(query)}`);
  await wb.page.waitForFunction((sel) => Number(document.querySelector(sel)?.getAttribute('data-highlighted') ?? 0) > 1, CANVAS, { timeout: 600_000 });
  const n = await settledCount(wb);
  await wb.page.waitForTimeout(1000);
  await wb.page.screenshot({ path: join(out, `${name}.png`) });
  console.log(`docs/screenshots/${name}.png (${n} nodes)`);
}

export async function largeGraphShots(out: string): Promise<void> {
  const source = process.env['MNEMO_SHOTS_LARGE_STORE'];
  if (!source) {
    console.log('MNEMO_SHOTS_LARGE_STORE not set: the large-store graph shots were not taken');
    return;
  }
  if (!existsSync(source)) throw new Error(`MNEMO_SHOTS_LARGE_STORE names no file: ${source}`);
  const db = join(tempDir('mnemo-shots-large-'), 'store.sqlite');
  copyFileSync(source, db);
  const now = Number(process.env['MNEMO_SHOTS_LARGE_NOW'] ?? 1_780_000_000);
  const wb = await openWorkbench(db, { now, width: 1440, height: 900 });
  try {
    const overview = await call(wb.session, 'graph.view', { limit: 2000 });
    await graphShot(wb, out, 'graph-large', '/graph', overview.nodes.length);
    const five = await call(wb.session, 'graph.view', { limit: 5000 });
    await graphShot(wb, out, 'graph-large-5000', '/graph?limit=5000', five.nodes.length);
    // The memory with the most edges: the hub the issue found unreadable.
    // Degrees over the largest graph the API draws (20,000 most important memories).
    const widest = await call(wb.session, 'graph.view', { limit: 20_000 });
    const degree = new Map<string, number>();
    for (const e of widest.edges) for (const id of [e.src, e.dst]) degree.set(id, (degree.get(id) ?? 0) + 1);
    // MNEMO_SHOTS_LARGE_HUB names the hub when it is not among the 20,000 most important memories.
    const hub = process.env['MNEMO_SHOTS_LARGE_HUB'] || [...degree.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (hub) {
      const around = await call(wb.session, 'graph.view', { focus: hub, hops: 1 });
      await graphShot(wb, out, 'graph-large-hub', `/graph?focus=${hub}&hops=1`, around.nodes.length);
    }
    await recallShot(wb, out, 'graph-large-recall', 'why did webhooks spike p99 latency in production');
  } finally {
    await wb.close();
  }
}
