/// <reference lib="dom" />
/**
 * The workbench end to end: browser mode (`mnemo serve`) on a copy of the fixture store, driven in
 * Debian's Chromium. Covers every view, the numbers they show against the engine and the CLI, live
 * refresh from a second process, and HTML in memory data shown as text everywhere.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../core/api/service.js';
import { runCli } from '../helpers/cli.js';
import { expected, fixtureCopy } from '../../support/fixture.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';

const NOW = expected().now as number;
const S = expected().summary;
let wb: Workbench;
let db: string;

beforeAll(async () => {
  db = fixtureCopy();
  wb = await openWorkbench(db, { now: NOW });
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const attr = (sel: string, name: string) => wb.page.getAttribute(sel, name);
const num = async (sel: string, name: string) => Number(await attr(sel, name));

describe('workbench e2e (Chromium, browser mode)', () => {
  it('lists memories in a virtualized table with the store total, search, facets and sorting in the URL', async () => {
    const p = wb.page;
    await wb.go('/memories');
    await p.waitForSelector('[data-testid=memory-row]');
    expect(await num('[data-testid=memory-table]', 'data-total')).toBe(S.memories - S.archived);
    // Virtualized: far fewer DOM rows than memories.
    expect(await p.locator('[data-testid=memory-row]').count()).toBeLessThan(S.memories - S.archived);
    for (const row of await p.locator('[data-testid=memory-row]').all()) expect(await row.getAttribute('data-memory-id')).toMatch(/^[0-9a-f]{32}$/);

    await p.fill('[data-testid=memory-search]', 'billing');
    await p.waitForFunction(() => window.location.hash.includes('q=billing'));
    const apiTotal = (await call(wb.session, 'memory.list', { text: 'billing' })).total;
    await p.waitForFunction((n) => document.querySelector('[data-testid=memory-table]')?.getAttribute('data-total') === String(n), apiTotal);

    await wb.go('/memories?type=todo&status=open');
    const todos = (await call(wb.session, 'memory.list', { types: ['todo'], statuses: ['open'] })).total;
    await p.waitForFunction((n) => document.querySelector('[data-testid=memory-table]')?.getAttribute('data-total') === String(n), todos);

    await wb.go('/memories?sort=importance');
    await p.waitForFunction(() => window.location.hash.includes('sort=importance'));
    const top = (await call(wb.session, 'memory.list', { sort: 'importance', dir: 'desc', limit: 1 })).rows[0]!;
    await p.waitForFunction((id) => document.querySelector('[data-testid=memory-row]')?.getAttribute('data-memory-id') === id, top.id);
  });

  it('draws the expected number of graph nodes, with and without archived memories and around a focus', async () => {
    const p = wb.page;
    await wb.go('/graph');
    // The canvas is laid out (empty) while the graph is still read: wait for the drawing of the data.
    await p.waitForFunction(
      (n) => {
        const el = document.querySelector('[data-testid=graph-canvas]');
        return el?.getAttribute('data-layout-done') === 'true' && el.getAttribute('data-node-count') === String(n);
      },
      S.memories - S.archived,
    );
    await wb.go('/graph?archived=1');
    await p.waitForFunction((n) => document.querySelector('[data-testid=graph-canvas]')?.getAttribute('data-node-count') === String(n), S.memories);
    expect(await num('[data-testid=graph-canvas]', 'data-edge-count')).toBe(S.edges);
    const around = await call(wb.session, 'graph.view', { focus: S.chain.a, hops: 1 });
    await wb.go(`/graph?focus=${S.chain.a}&hops=1`);
    await p.waitForFunction(
      (n) => {
        const el = document.querySelector('[data-testid=graph-canvas]');
        return el?.getAttribute('data-layout-done') === 'true' && el.getAttribute('data-node-count') === String(n);
      },
      around.nodes.length,
    );
  });

  it('opens a memory whose ring rotated: a curve marker for every access and ring rows with the stored components', async () => {
    const p = wb.page;
    const id = S.rotated_rings[0] as string;
    const stored = await call(wb.session, 'memory.get', { id });
    const curve = await call(wb.session, 'retention.curve', { id });
    expect(stored.memory.access_log.length).toBe(64);
    await wb.go(`/memory/${id}`);
    await p.waitForSelector('[data-testid=retention-marker]');
    const markers = p.locator('[data-testid=retention-marker]');
    expect(await markers.count()).toBe(curve.markers.length);
    expect(curve.markers.length).toBeGreaterThanOrEqual(64);
    const markerTs = new Set((await markers.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-ts'))))));
    for (const a of stored.memory.access_log) expect(markerTs.has(a.ts)).toBe(true);
    expect(await num('[data-testid=retention-curve]', 'data-marker-count')).toBe(curve.markers.length);

    const rows = p.locator('[data-testid=access-row][data-origin=ring]');
    expect(await rows.count()).toBe(64);
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => {
        const bar = tr.querySelector('[data-testid=component-bar]');
        return {
          ts: Number(tr.getAttribute('data-ts')),
          c: bar ? (JSON.parse(bar.getAttribute('data-terms')!) as Record<string, number>) : null,
        };
      }),
    );
    const ring = [...stored.memory.access_log].reverse();
    let withComponents = 0;
    ring.forEach((a, i) => {
      expect(shown[i]!.ts).toBe(a.ts);
      if (a.components) {
        withComponents++;
        // A ring entry has nooa's components only: the bar shows them weighted as nooa scores them.
        expect(shown[i]!.c).toEqual({ rel: a.components.rel, rec: 0.5 * a.components.rec, imp: 0.5 * a.components.imp, spread: a.components.spread });
      } else expect(shown[i]!.c).toBeNull();
    });
    expect(withComponents).toBeGreaterThan(0);
    // Every field and the four scores in words.
    await expect.poll(() => p.textContent('[data-testid=score-importance]')).toContain(stored.labels.importance);
    expect(await p.textContent('[data-testid=score-retention]')).toMatch(/FRESH|FADING|FAINT|BELOW/);
  });

  it('recall shows ranked results whose terms equal mnemo explain --json, bars summing to the score with the numbers on the row, and highlights spread paths', async () => {
    const p = wb.page;
    const q = 'deploy billing service';
    const cli = await runCli(['explain', db, q, '--hops', '2', '--json', '--now', String(NOW)]);
    expect(cli.code).toBe(0);
    const rows = cli.json() as { id: string; score: number; rel: number; rec: number; imp: number; spread: number; terms: Record<string, number> }[];
    expect(rows.length).toBe(10);
    await wb.go(`/recall?q=${encodeURIComponent(q)}&hops=2`);
    await p.waitForSelector('[data-testid=recall-result]');
    const shown = await p.locator('[data-testid=recall-result]').evaluateAll((trs) =>
      trs.map((tr) => {
        const bar = tr.querySelector('[data-testid=component-bar]')!;
        return {
          id: tr.getAttribute('data-memory-id'),
          score: Number(tr.getAttribute('data-score')),
          terms: JSON.parse(bar.getAttribute('data-terms')!) as Record<string, number>,
          sum: Number(bar.getAttribute('data-sum')),
          segments: bar.querySelectorAll('.cseg').length,
          numbers: bar.querySelector('.cbar-nums')?.textContent ?? '',
          rank: tr.querySelector('td')?.textContent,
        };
      }),
    );
    expect(shown.map((s) => ({ id: s.id, score: s.score, terms: s.terms }))).toEqual(rows.map((r) => ({ id: r.id, score: r.score, terms: r.terms })));
    shown.forEach((s, i) => {
      expect(Math.abs(s.sum - s.score)).toBeLessThanOrEqual(0.001);
      expect(s.segments).toBe(Object.keys(s.terms).length);
      // The numbers are on the row, not only in a hover; the rank reads 1-based.
      expect(s.numbers).toMatch(/rel \d\.\d\d/);
      expect(s.rank).toBe(`#${i + 1}`);
    });
    const fed = rows.find((r) => r.spread > 0)!;
    await p.click(`[data-testid=recall-result][data-memory-id="${fed.id}"] td:first-child`);
    await p.waitForSelector(`[data-testid=spread-panel][data-memory-id="${fed.id}"]`);
    expect(await num('[data-testid=spread-panel]', 'data-paths')).toBeGreaterThan(0);
    await p.waitForFunction(() => Number(document.querySelector('[data-testid=spread-panel] [data-testid=graph-canvas]')?.getAttribute('data-highlighted') ?? 0) > 1);
    expect(await p.evaluate(() => window.location.hash)).toContain(`sel=${fed.id}`);
  });

  it('explains why a memory is not in the top k', async () => {
    const p = wb.page;
    const target = S.chain.c as string;
    await wb.go(`/recall?q=${encodeURIComponent('deploy billing service')}&why=${target}`);
    await p.waitForSelector('[data-testid=why-not] .why-result');
    const status = await attr('[data-testid=why-not] .why-result', 'data-status');
    const api = await call(wb.session, 'recall.whyNot', { query: 'deploy billing service', k: 10, hops: 1, target });
    expect(status).toBe(api.status);
    const text = await p.textContent('[data-testid=why-not-result]');
    if (api.rank !== null) expect(text).toContain(`#${api.rank + 1} of ${api.ranked}`);
    expect(text).not.toMatch(/rank(ed)? \d/);
  });

  it('why-not takes words: a picker of matching memories, and picking one explains it', async () => {
    const p = wb.page;
    await wb.go(`/recall?q=${encodeURIComponent('deploy billing service')}`);
    await p.waitForSelector('[data-testid=recall-result]');
    await p.fill('[data-testid=why-not-input]', 'rollback canary');
    await p.press('[data-testid=why-not-input]', 'Enter');
    await p.waitForSelector('[data-testid=why-not-pick]');
    const picked = await attr('[data-testid=why-not-pick]', 'data-memory-id');
    await p.click('[data-testid=why-not-pick]');
    await p.waitForSelector('[data-testid=why-not-result]');
    expect(await p.evaluate(() => window.location.hash)).toContain(`why=${picked}`);
    const bars = await p.locator('[data-testid=why-not-result] [data-testid=component-bar]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-sum'))));
    const api = await call(wb.session, 'recall.whyNot', { query: 'deploy billing service', k: 10, hops: 1, target: picked! });
    expect(Math.abs(bars[0]! - api.terms.score)).toBeLessThanOrEqual(0.001);
    // Leaving Recall and coming back keeps the last query; a memory page offers "why not in my last query?".
    await wb.go(`/memory/${picked}`);
    await p.waitForSelector('[data-testid=why-not-link]');
    await p.click('[data-testid=why-not-link]');
    await p.waitForSelector('[data-testid=why-not-result]');
    expect(await p.evaluate(() => window.location.hash)).toContain(`q=deploy`);
    await wb.go('/recall');
    await p.waitForSelector('[data-testid=recall-result]');
    expect(await p.inputValue('[data-testid=recall-query]')).toBe('deploy billing service');
  });

  it('recall mode logs accesses by the workbench reader; explain mode logs nothing', async () => {
    const p = wb.page;
    const before = (await call(wb.session, 'access.list', { reader_owner: 'workbench' })).total;
    await wb.go(`/recall?q=${encodeURIComponent('rollback canary')}`);
    await p.waitForSelector('[data-testid=recall-result]');
    expect((await call(wb.session, 'access.list', { reader_owner: 'workbench' })).total).toBe(before);
    await p.click('[data-testid=mode-recall]');
    await p.click('[data-testid=recall-submit]');
    await p.waitForFunction(() => document.body.textContent?.includes('logged 10 accesses'));
    expect((await call(wb.session, 'access.list', { reader_owner: 'workbench' })).total).toBe(before + 10);
  });

  it('audits accesses with filters, and replays one showing how each component moved', async () => {
    const p = wb.page;
    await wb.go('/audit?channel=recalled');
    await p.waitForSelector('[data-testid=access-row][data-origin=audit]');
    const total = await num('[data-testid=audit-total]', 'data-total');
    expect(total).toBe((await call(wb.session, 'access.list', { channels: ['recalled'] })).total);
    await wb.go('/audit?reader=workbench');
    await p.waitForFunction(() => document.querySelector('[data-testid=audit-total]')?.getAttribute('data-total') === '10');
    const row = p.locator('[data-testid=access-row][data-origin=audit]').first();
    const eventId = await row.getAttribute('data-event-id');
    await row.locator('td').first().click();
    await p.waitForSelector(`[data-testid=replay][data-event-id="${eventId}"] [data-testid=replay-table]`);
    expect(await p.evaluate(() => window.location.hash)).toContain(`event=${eventId}`);
    const api = await call(wb.session, 'access.replay', { event_id: Number(eventId) });
    const relNow = await p.textContent('[data-testid=replay-table] tr[data-field=rel] td:nth-child(3)');
    expect(Number(relNow)).toBeCloseTo(api.after!.rel!, 4);
  });

  it('switches views and focuses search from the keyboard, and toggles the theme', async () => {
    const p = wb.page;
    await wb.go('/memories');
    await p.waitForSelector('[data-testid=memory-row]');
    await p.locator('body').click({ position: { x: 5, y: 300 } });
    await p.keyboard.press('2');
    await p.waitForFunction(() => window.location.hash.startsWith('#/graph'));
    await p.keyboard.press('/');
    expect(await p.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('graph-search');
    await p.keyboard.press('Escape');
    await p.locator('body').click({ position: { x: 5, y: 300 } });
    const before = await p.evaluate(() => document.documentElement.dataset['theme']);
    await p.keyboard.press('t');
    const after = await p.evaluate(() => document.documentElement.dataset['theme']);
    expect(after).not.toBe(before);
    await p.keyboard.press('t');
  });

  it('refuses to talk to the engine without the token', async () => {
    // A browser that never held the token (no session cookie either: see server-session.test.ts).
    await wb.browser.context.clearCookies();
    const other = await wb.browser.context.newPage();
    await other.goto(wb.server.url); // no #token=
    await other.waitForSelector('[data-testid=error]');
    expect(await other.getAttribute('[data-testid=error]', 'data-code')).toBe('permission');
    expect(await other.textContent('[data-testid=error]')).toMatch(/^Not allowed\. Missing or wrong/);
    await other.close();
  });

  it('shows HTML and script in memory data as text everywhere', async () => {
    const p = wb.page;
    const payload = '<img src=x onerror="window.__xss=(window.__xss||0)+1">';
    const m = await call(wb.session, 'memory.add', { title: `XSS ${payload}`, content: `content ${payload} <script>window.__xss=1</script>`, tags: [payload], owner: 'Planner@a1' });
    const checks = async () => {
      expect(await p.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      expect(await p.locator('img').count()).toBe(0);
      expect(await p.locator('#root script').count()).toBe(0);
    };
    await wb.go(`/memories?q=${encodeURIComponent('XSS')}`);
    await p.waitForSelector(`[data-testid=memory-row][data-memory-id="${m.id}"]`);
    expect(await p.textContent(`[data-testid=memory-row][data-memory-id="${m.id}"]`)).toContain('<img src=x');
    await checks();
    await wb.go(`/memory/${m.id}`);
    await p.waitForSelector('[data-testid=memory-content]');
    expect(await p.textContent('[data-testid=memory-title]')).toContain(payload);
    expect(await p.textContent('[data-testid=memory-content]')).toContain('<script>window.__xss=1</script>');
    expect(await p.textContent('[data-testid=memory-tag]')).toBe(payload);
    await checks();
    // The query, in the recall console and in the audit after a logged recall.
    await wb.go(`/recall?q=${encodeURIComponent(payload)}&mode=recall`);
    await p.waitForSelector('[data-testid=recall-submit]');
    await p.click('[data-testid=recall-submit]');
    await p.waitForSelector('[data-testid=recall-result]');
    expect(await p.inputValue('[data-testid=recall-query]')).toBe(payload);
    await checks();
    await wb.go(`/audit?q=${encodeURIComponent('onerror')}`);
    await p.waitForSelector('[data-testid=access-row][data-origin=audit]');
    expect(await p.locator('[data-testid=access-row][data-origin=audit] td.query').first().textContent()).toBe(payload);
    await checks();
    // Graph labels and the retention tooltip strip use the same text.
    await wb.go(`/graph?focus=${m.id}&hops=1`);
    await p.waitForSelector('[data-testid=graph-canvas][data-layout-done=true]');
    await checks();
  });

  it('shows a write by another process in the open list within 2 s', async () => {
    const p = wb.page;
    await wb.go('/memories');
    await p.waitForSelector('[data-testid=memory-row]');
    // The store's count now, and the list showing it: on a loaded machine the list could still be
    // refreshing after the previous test's write, and that write, arriving, passed for this one.
    const before = (await call(wb.session, 'memory.list', { limit: 1 })).total;
    await p.waitForFunction((n) => document.querySelector('[data-testid=memory-table]')?.getAttribute('data-total') === String(n), before, { timeout: 10_000 });
    const child = spawn(process.execPath, ['--import', 'tsx', join('test', 'scripts', 'writer.ts'), db, '1'], { cwd: process.cwd() });
    const exited = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
    expect(exited).toBe(0);
    const t0 = Date.now();
    await p.waitForFunction((n) => document.querySelector('[data-testid=memory-table]')?.getAttribute('data-total') === String(n), before + 1, { timeout: 2000 });
    expect(Date.now() - t0).toBeLessThanOrEqual(2000);
    expect(await p.locator('[data-testid=memory-row]').first().textContent()).toContain('writer memory number 0');
    expect(wb.pageErrors).toEqual([]);
  });
});
