/// <reference lib="dom" />
/**
 * The graph view on a large generated store (`mnemo demo`, 20,000 memories by default;
 * MNEMO_E2E_GRAPH_SIZE raises it up to 100,000), in Chromium: after layout the whole graph is on
 * screen (nodes counted inside the viewport, and pixels actually drawn on the canvas), zoom is not
 * held at its minimum, the Fit button brings a zoomed-in graph back, a hub's focus is centred and
 * labelled, and a recall query's spread paths are highlighted.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../core/api/service.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../../support/fixture.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';

const NOW = 1_780_000_000;
const SIZE = Math.min(100_000, Math.max(1000, Number(process.env['MNEMO_E2E_GRAPH_SIZE'] ?? 20_000) || 20_000));
const CANVAS = '[data-testid=graph-canvas]';
let wb: Workbench;

beforeAll(async () => {
  const db = join(tempDir('mnemo-graph-large-'), 'store.sqlite');
  const made = await runCli(['demo', db, '--size', String(SIZE), '--seed', '7', '--now', String(NOW)]);
  expect(made.code, made.stderr).toBe(0);
  wb = await openWorkbench(db, { now: NOW, width: 1400, height: 900 });
}, 600_000);
afterAll(async () => {
  await wb?.close();
});

interface CanvasState {
  layoutDone: boolean;
  nodes: number;
  inView: number;
  zoom: number;
  minZoom: number;
  labelled: number;
  highlighted: number;
}

async function state(): Promise<CanvasState> {
  return wb.page.evaluate((sel) => {
    const d = (document.querySelector(sel) as HTMLElement | null)?.dataset ?? {};
    return {
      layoutDone: d['layoutDone'] === 'true',
      nodes: Number(d['nodeCount'] ?? 0),
      inView: Number(d['inView'] ?? 0),
      zoom: Number(d['zoom'] ?? 0),
      minZoom: Number(d['minZoom'] ?? 0),
      labelled: Number(d['labelled'] ?? 0),
      highlighted: Number(d['highlighted'] ?? 0),
    };
  }, CANVAS);
}

/** Opens a graph route and waits until the canvas has laid out exactly `nodes` nodes. */
async function openGraph(hash: string, nodes: number): Promise<CanvasState> {
  await wb.go(hash);
  await wb.page.waitForFunction(
    ({ sel, n }) => {
      const el = document.querySelector(sel);
      return el?.getAttribute('data-layout-done') === 'true' && el.getAttribute('data-node-count') === String(n);
    },
    { sel: CANVAS, n: nodes },
    { timeout: 240_000 },
  );
  return state();
}

/**
 * Share of the canvas area that cytoscape painted (any layer, any colour), read from the canvases
 * themselves: a graph drawn too small to see leaves them almost empty whatever the app reports.
 */
async function paintedShare(): Promise<number> {
  // Painting follows layout by a frame or two (and a texture pass on large graphs).
  await wb.page.waitForTimeout(1500);
  return wb.page.evaluate((sel) => {
    let painted = 0;
    let area = 0;
    for (const c of Array.from(document.querySelectorAll(`${sel} canvas`)) as HTMLCanvasElement[]) {
      const ctx = c.getContext('2d');
      if (!ctx || c.width === 0 || c.height === 0) continue;
      const px = ctx.getImageData(0, 0, c.width, c.height).data;
      for (let i = 3; i < px.length; i += 4) if (px[i]! > 0) painted++;
      area = Math.max(area, c.width * c.height);
    }
    return area ? painted / area : 0;
  }, CANVAS);
}

describe(`graph view on a ${SIZE.toLocaleString()}-memory demo store (Chromium)`, () => {
  it('fits the default 2,000-node graph to the screen: every node in the viewport, zoom above its minimum, nodes visibly drawn', { timeout: 300_000 }, async () => {
    const expected = (await call(wb.session, 'graph.view', { limit: 2000 })).nodes.length;
    expect(expected).toBe(2000);
    const s = await openGraph('/graph', expected);
    // First what the canvas shows, which does not depend on what the app reports about itself.
    expect(await paintedShare()).toBeGreaterThan(0.03);
    expect(s.inView).toBeGreaterThanOrEqual(0.95 * expected);
    expect(s.zoom).toBeGreaterThan(s.minZoom * 1.5);
  });

  it('fits the 5,000-node option too', { timeout: 300_000 }, async () => {
    const expected = (await call(wb.session, 'graph.view', { limit: 5000 })).nodes.length;
    const s = await openGraph('/graph?limit=5000', expected);
    expect(s.inView).toBeGreaterThanOrEqual(0.95 * expected);
    expect(s.zoom).toBeGreaterThan(s.minZoom * 1.5);
    expect(await paintedShare()).toBeGreaterThan(0.03);
  });

  it('the Fit button brings the whole graph back after zooming in', { timeout: 300_000 }, async () => {
    const expected = (await call(wb.session, 'graph.view', { limit: 2000 })).nodes.length;
    await openGraph('/graph', expected);
    const box = (await wb.page.locator(CANVAS).boundingBox())!;
    await wb.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // Each wheel step zooms a few per cent; zoom in until most nodes are off screen.
    const inView = async () => Number(await wb.page.getAttribute(CANVAS, 'data-in-view'));
    for (let i = 0; i < 200 && (await inView()) >= expected / 4; i++) {
      await wb.page.mouse.wheel(0, -600);
      await wb.page.waitForTimeout(50);
    }
    expect(await inView()).toBeLessThan(expected / 4);
    await wb.page.click('[data-testid=graph-fit]');
    await wb.page.waitForFunction(({ sel, n }) => Number(document.querySelector(sel)?.getAttribute('data-in-view')) >= 0.95 * n, { sel: CANVAS, n: expected });
  });

  it("draws a hub's neighbourhood with the hub on screen and only it and its main neighbours labelled", { timeout: 300_000 }, async () => {
    // The memory with the most edges.
    // Degrees over the largest graph the API draws (20,000 most important memories).
    const widest = await call(wb.session, 'graph.view', { limit: 20_000 });
    const degree = new Map<string, number>();
    for (const e of widest.edges) for (const id of [e.src, e.dst]) degree.set(id, (degree.get(id) ?? 0) + 1);
    const hub = [...degree.entries()].sort((a, b) => b[1] - a[1])[0]![0];
    const around = await call(wb.session, 'graph.view', { focus: hub, hops: 1 });
    const s = await openGraph(`/graph?focus=${hub}&hops=1`, around.nodes.length);
    expect(s.inView).toBe(around.nodes.length);
    expect(s.labelled).toBeGreaterThan(1);
    expect(s.labelled).toBeLessThanOrEqual(Math.min(24, around.nodes.length));
    expect(await wb.page.textContent('[data-testid=graph-selection]')).toContain(around.nodes.find((n) => n.id === hub)!.head.slice(0, 20));
  });

  it('highlights the spread paths of a recall query given as ?q=', { timeout: 300_000 }, async () => {
    const query = 'why did webhooks spike p99 latency in production';
    const explain = await call(wb.session, 'recall.explain', { query, k: 10, hops: 2 });
    const paths = Object.values(explain.paths).reduce((n, ps) => n + ps.length, 0);
    expect(paths).toBeGreaterThan(0);
    await wb.go(`/graph?q=${encodeURIComponent(query)}`);
    // The neighbourhoods of the recall's memories arrive one by one; wait for all of them to be drawn:
    // every ranked memory and at least one edge that fed a result.
    await wb.page.waitForFunction(({ sel, n }) => Number(document.querySelector(sel)?.getAttribute('data-highlighted') ?? 0) > n, { sel: CANVAS, n: explain.rows.length }, { timeout: 240_000 });
    const hl = (await state()).highlighted;
    expect(hl).toBeGreaterThan(explain.rows.length);
    expect(await wb.page.textContent('[data-testid=graph-status]')).toMatch(/spread paths in orange/);
  });
});
