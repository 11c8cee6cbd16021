/// <reference lib="dom" />
/**
 * Issue 14 part 6, "the first hour", in the browser: the memory detail's access counters agree
 * with each other and with the engine; every view says it is loading (instead of showing zeros or
 * empty tables) while its answer is on the way, and says what failed when it fails; replay's
 * "Returned together" names memories by title, not by 32-hex id.
 */
import type { Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../core/api/service.js';
import { memoryWithMixedAccesses, type AccessMix } from '../helpers/access-mix.js';
import { expected, fixtureCopy } from '../../support/fixture.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';

const NOW = expected().now as number;
const HEX_ID = /\b[0-9a-f]{32}\b/;
let wb: Workbench;
let mix: AccessMix;

/** Engine calls the test holds back (the long-poll, the session and the store badge always pass). */
const gate = { holding: false, failing: new Set<string>(), held: [] as (() => void)[] };

async function onApi(route: Route): Promise<void> {
  const method = decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop() ?? '');
  if (method.startsWith('_') || method === 'store.info') return route.continue();
  if (gate.failing.has(method)) {
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ ok: false, error: { code: 'busy', message: 'the engine is held up by the test' } }) });
  }
  if (gate.holding) await new Promise<void>((release) => gate.held.push(release));
  // A request held across a reload is gone by the time it is let through.
  await route.continue().catch(() => undefined);
}

function release(): void {
  gate.holding = false;
  for (const r of gate.held.splice(0)) r();
}

/** Opens a route on a fresh page load (so nothing is cached) with every engine answer held back. */
async function openHeld(hash: string): Promise<void> {
  gate.holding = true;
  await wb.go(hash);
  await wb.page.reload();
  // The view's own loading state, not the moment its code is fetched ("Loading view…").
  await wb.page.waitForSelector('main [data-testid=loading]:not(:has-text("Loading view"))');
}

beforeAll(async () => {
  wb = await openWorkbench(fixtureCopy(), { now: NOW });
  await wb.page.waitForSelector('[data-testid=memory-row]');
  mix = await memoryWithMixedAccesses(wb.session);
  await wb.page.route('**/api/*', onApi);
}, 120_000);
afterAll(async () => {
  release();
  await wb?.close();
});

describe('the memory detail counts accesses one way', () => {
  it('the curve, the ring, the full history and the fields show the same figures for a memory read every way', async () => {
    const p = wb.page;
    const { memory: m } = await call(wb.session, 'memory.get', { id: mix.id });
    await wb.go(`/memory/${mix.id}`);
    await p.waitForSelector('[data-testid=curve-accesses]');
    const curve = p.locator('[data-testid=curve-accesses]');
    expect(Number(await curve.getAttribute('data-logged'))).toBe(mix.logged);
    expect(Number(await curve.getAttribute('data-touching'))).toBe(mix.touching);
    expect(await curve.textContent()).toBe(`${mix.logged} accesses logged, ${mix.touching} of them touching`);
    expect(await p.textContent('[data-testid=ring-count]')).toBe(`(${m.access_log.length} of 64 slots, newest first: the creation and ${mix.logged} accesses)`);
    expect(await p.textContent('tr[data-field="touching accesses"] td')).toMatch(new RegExp(`^${mix.touching} \\(`));
    expect(await p.textContent('tr[data-field="injections"] td')).toMatch(new RegExp(`^${mix.injected} \\(not touching`));
    expect(m.access_count).toBe(mix.touching);
    await p.click('[data-testid=show-history]');
    await p.waitForSelector('[data-testid=access-history]');
    expect(Number(await p.getAttribute('[data-testid=access-history]', 'data-total'))).toBe(mix.logged);
    // No figure on the page says "N accesses" with another N, and nothing calls the creation an access.
    const text = await p.textContent('[data-testid=memory-detail]');
    const counts = [...text!.matchAll(/(\d+) accesses/g)].map((x) => Number(x[1]));
    expect(new Set(counts)).toEqual(new Set([mix.logged]));
  });
});

describe('loading and error states', () => {
  /** Each view, with what it showed before its answer came (a zero, an empty state, an empty table) and what it shows after. */
  const VIEWS: { name: string; hash: () => string; zero: string; ready: string }[] = [
    { name: 'memories', hash: () => '/memories', zero: '.facets .n:not(.pending), [data-testid=empty-state]', ready: '[data-testid=memory-row]' },
    { name: 'memory', hash: () => `/memory/${mix.id}`, zero: '[data-testid=memory-detail]', ready: '[data-testid=curve-accesses]' },
    { name: 'overview', hash: () => '/overview', zero: '[data-testid=overview-kpis], [data-testid=maintenance] p', ready: '[data-testid=overview-kpis]' },
    { name: 'fleet', hash: () => '/fleet', zero: '[data-testid=empty-state]', ready: '[data-testid=empty-state]' },
    { name: 'beliefs', hash: () => '/beliefs', zero: '[data-testid=empty-state] h3:has-text("No beliefs yet"), .entity-list .muted.small', ready: '.entity-list .muted.small' },
    { name: 'audit', hash: () => '/audit', zero: '[data-testid=audit-total], table.audit, [data-testid=empty-state]', ready: '[data-testid=access-row]' },
    { name: 'history', hash: () => '/history', zero: '[data-testid=empty-state]', ready: '[data-testid=history-row]' },
    { name: 'duplicates', hash: () => '/duplicates', zero: '[data-testid=dup-summary], [data-testid=empty-state]', ready: '[data-testid=dup-summary]' },
    { name: 'graph', hash: () => '/graph', zero: '[data-testid=empty-state]', ready: '[data-testid=graph-canvas][data-layout-done=true]' },
    { name: 'prospective', hash: () => '/prospective', zero: '[data-testid=intents-pending], [data-testid=intents-fired], [data-testid=todos-open]', ready: '[data-testid=intents-pending]' },
  ];

  for (const v of VIEWS) {
    it(`${v.name}: "Loading…" (busy, announced) while the engine has not answered, never a 0 or an empty table`, async () => {
      const p = wb.page;
      await openHeld(v.hash());
      const loading = p.locator('main [data-testid=loading]').first();
      expect(await loading.getAttribute('role')).toBe('status');
      expect(await loading.getAttribute('aria-busy')).toBe('true');
      expect(await loading.textContent()).toMatch(/…/);
      expect(await p.locator(v.zero).count()).toBe(0);
      expect(await p.locator('main').textContent()).not.toMatch(/(^|\D)0 (memories|accesses|nodes|open|entities|groups)\b/);
      release();
      await p.waitForSelector(v.ready, { timeout: 30_000 });
      await p.waitForFunction(() => !document.querySelector('[data-testid=loading]'), undefined, { timeout: 30_000 });
    });
  }

  it('a view whose query fails says what failed instead of loading for ever', async () => {
    const p = wb.page;
    gate.failing = new Set(['stats.kpis', 'access.list']);
    try {
      await wb.go('/overview');
      await p.reload();
      await p.waitForSelector('.overview-main [data-testid=error]', { timeout: 30_000 });
      expect(await p.textContent('.overview-main [data-testid=error]')).toContain('The engine is held up by the test.');
      expect(await p.locator('.overview-main [data-testid=loading]:has-text("Computing KPIs")').count()).toBe(0);
      await wb.go('/audit');
      await p.waitForSelector('.audit-main [data-testid=error]', { timeout: 30_000 });
      expect(await p.locator('.audit-main [data-testid=loading]').count()).toBe(0);
      expect(await p.locator('table.audit').count()).toBe(0);
    } finally {
      gate.failing = new Set();
    }
  });
});

describe('titles, not hex ids', () => {
  it('replay lists the memories returned together by title, linking to each, the id only in the tooltip', async () => {
    const p = wb.page;
    await call(wb.session, 'recall.run', { query: 'deploy billing service', k: 5 });
    const ev = (await call(wb.session, 'access.list', { channels: ['recalled'], query: 'deploy billing service', limit: 1 })).events[0]!;
    const replay = await call(wb.session, 'access.replay', { event_id: ev.event_id! });
    expect(replay.logged_results.length).toBe(5);
    await wb.go(`/audit?event=${ev.event_id}`);
    await p.waitForSelector('[data-testid=replay-sibling]');
    const shown = await p.locator('[data-testid=replay-sibling] a').evaluateAll((as) =>
      as.map((a) => ({ text: a.textContent!.trim(), title: a.getAttribute('title'), href: a.getAttribute('href') })),
    );
    expect(shown).toEqual(replay.logged_results.map((x) => ({ text: x.head, title: x.memory_id, href: `#/memory/${x.memory_id}` })));
    for (const s of shown) expect(s.text).not.toMatch(/^[0-9a-f]{8,}$/);
    expect(await p.textContent('[data-testid=replay]')).not.toMatch(HEX_ID);
  });
});
