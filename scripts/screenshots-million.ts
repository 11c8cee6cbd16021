/// <reference lib="dom" />
/**
 * The workbench on a million memories (issue 42), as a person opens it: `mnemo serve` (the compiled
 * CLI, a process of its own) on a copy of the store, Chromium on its browser mode. It times and
 * shoots the memory list's first page (page load → rows drawn), the Graph view's default view
 * (route → layout done), a recall with its score breakdown (route → results drawn, any index
 * build included) and a reflection plan running (its progress part-way, then Cancel → ended), and
 * samples the server's resident memory throughout. The figures are printed as one JSON line.
 * `node --import tsx scripts/screenshots-million.ts <store.sqlite> <out-dir>`: the store is copied
 * first, with its index sidecar when it has one (a store opened before has one; say which in a
 * figure's note, since without it the first recall builds every index).
 */
import { copyFileSync, cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startMnemoChild } from '../bench/lib/mnemo-child.js';
import { rssBytes } from '../bench/lib/process-stats.js';
import { serveCaller } from '../bench/lib/serve-call.js';
import { sidecarPath } from '../core/store/derived/sidecar-name.js';
import { launchChromium } from '../support/browser.js';
import { tempDir } from '../support/fixture.js';

const [from, outDir] = process.argv.slice(2);
if (!from || !outDir) throw new Error('usage: node --import tsx scripts/screenshots-million.ts <store.sqlite> <out-dir>');
if (!existsSync(from)) throw new Error(`no store at ${from}`);
mkdirSync(outDir, { recursive: true });
const NOW = Number(process.env['MNEMO_SHOTS_NOW'] ?? 1_780_000_000);
const LONG = 3_600_000;
const QUERY = 'why did webhooks spike p99 latency in production';
const started = performance.now();
const log = (s: string) => console.error(`${((performance.now() - started) / 1000).toFixed(1)} s  ${s}`);

const db = join(tempDir('mnemo-shots-million-'), 'store.sqlite');
log(`copying ${from} …`);
copyFileSync(from, db);
const withSidecar = existsSync(sidecarPath(from));
if (withSidecar) for (const suffix of ['', '.parts']) if (existsSync(sidecarPath(from) + suffix)) cpSync(sidecarPath(from) + suffix, sidecarPath(db) + suffix, { recursive: true });
log(`copied (index sidecar: ${withSidecar ? 'yes' : 'no'})`);

const server = await startMnemoChild(process.cwd(), ['serve', db, '--json', '--now', String(NOW)], { stream: 'stdout', pattern: /^(\{.*"token".*\})$/m });
const { port, token } = JSON.parse(server.match[1]!) as { port: number; token: string };
const mb = (b: number | null) => (b === null ? null : Math.round(b / 1e5) / 10);
const listening = rssBytes(server.pid);
let peak = listening ?? 0;
const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(server.pid) ?? 0)), 200);
const rss: Record<string, number | null> = { listening: mb(listening) };

const api = serveCaller(port, token);

const browser = await launchChromium({ width: 1440, height: 900 });
const p = await browser.context.newPage();
const figures: Record<string, unknown> = { store: from, index_sidecar: withSidecar };
const save = async (name: string) => {
  await p.screenshot({ path: join(outDir, `${name}.png`) });
  log(`${join(outDir, name)}.png`);
};
/** ms from the route's change to the Graph view's layout done with nodes drawn (the layout's mark fires for an empty canvas too). */
const timedGraph = async (hash: string) => {
  await p.evaluate((h) => {
    (window as unknown as { __t0: number }).__t0 = performance.now();
    window.location.hash = h;
  }, hash);
  await p.waitForFunction(
    () => {
      const c = document.querySelector('[data-testid=graph-canvas]');
      return c?.getAttribute('data-layout-done') === 'true' && Number(c.getAttribute('data-node-count') ?? 0) > 0;
    },
    undefined,
    { timeout: LONG, polling: 'raf' },
  );
  return p.evaluate(() => performance.now() - (window as unknown as { __t0: number }).__t0);
};

try {
  const info = await api('store.info', {});
  figures['store_info'] = info.ok ? (info.value as { counts: unknown }).counts : info.error;

  // The list's first page, from navigation start (a fresh page load, its scripts included) to rows drawn.
  await p.goto(`http://127.0.0.1:${port}/#/memories?token=${token}`);
  await p.waitForSelector('[data-testid=memory-row]', { timeout: LONG });
  figures['list_first_page_ms'] = await p.evaluate(() => performance.getEntriesByName('mnemo:list-rendered')[0]!.startTime);
  // The facets' counts come after the rows (a count of every live memory by type, owner, status).
  await p.waitForFunction(() => document.querySelector('[data-testid=memory-row]') !== null && !document.body.textContent!.includes('Counting owners'), undefined, { timeout: LONG, polling: 50 });
  figures['list_with_facet_counts_ms'] = Math.round(await p.evaluate(() => performance.now()));
  await p.waitForTimeout(300);
  await save('million-memories');
  rss['after_list'] = mb(rssBytes(server.pid));

  // The Graph view's default view: route → laid out (the first time, any index it reads is built).
  figures['graph_default_first_ms'] = await timedGraph('/graph');
  await p.waitForTimeout(1500); // painting follows layout
  await save('million-graph');
  figures['graph_default_nodes'] = await p.getAttribute('[data-testid=graph-canvas]', 'data-node-count');
  await p.evaluate(() => (window.location.hash = '/memories'));
  await p.waitForSelector('[data-testid=memory-row]', { timeout: LONG });
  figures['graph_default_again_ms'] = await timedGraph('/graph');
  rss['after_graph'] = mb(rssBytes(server.pid));

  // A recall with its breakdown: route → results drawn (the first recall loads or builds its indexes).
  const r0 = performance.now();
  await p.evaluate((q) => (window.location.hash = `/recall?q=${encodeURIComponent(q)}&hops=1`), QUERY);
  await p.waitForSelector('[data-testid=recall-result]', { timeout: LONG });
  figures['recall_first_ms'] = Math.round(performance.now() - r0);
  const first = await p.getAttribute('[data-testid=recall-result]', 'data-memory-id');
  if (first) {
    await p.evaluate(([q, id]) => (window.location.hash = `/recall?q=${encodeURIComponent(q!)}&hops=1&sel=${id}`), [QUERY, first] as const);
    await p.waitForTimeout(1500);
  }
  await save('million-recall');
  const again = await api('recall.explain', { query: 'deploy billing service to staging', k: 10, hops: 1 });
  figures['explain_again'] = again.ok ? 'ok' : again.error;
  rss['after_recall'] = mb(rssBytes(server.pid));

  // A reflection plan: its progress part-way, then Cancel, timed from the click to the plan's end.
  await p.evaluate(() => (window.location.hash = '/reflection'));
  const planClicked = performance.now();
  await p.click('[data-testid=reflection-plan]', { noWaitAfter: true, timeout: LONG });
  await p.waitForFunction(() => Number(document.querySelector('[data-testid=reflection-progress]')?.getAttribute('aria-valuenow') ?? 0) >= 2, undefined, { timeout: LONG, polling: 500 });
  figures['plan_to_2pct_ms'] = Math.round(performance.now() - planClicked);
  await save('million-reflection-plan');
  rss['during_plan'] = mb(rssBytes(server.pid));
  const cancelClicked = performance.now();
  await p.click('[data-testid=reflection-cancel]', { noWaitAfter: true, timeout: LONG });
  await p.waitForFunction(() => !document.querySelector('[data-testid=reflection-plan]')?.hasAttribute('disabled'), undefined, { timeout: LONG, polling: 100 });
  figures['plan_cancel_ms'] = Math.round(performance.now() - cancelClicked);
  await p.waitForTimeout(1000);
  await save('million-reflection-cancelled');
} finally {
  clearInterval(sampler);
  rss['peak'] = mb(peak);
  figures['rss_mb'] = rss;
  await browser.close();
  await server.stop();
  console.log(JSON.stringify(figures));
}
