/// <reference lib="dom" />
/**
 * The Fleet view's "Agents in this store" in Chromium (browser mode): one row per owner of the open
 * store with the numbers fleet.owners gives, shown with no fleet folder open; an owner's link opens
 * the Memories list filtered to that owner; an odd owner string is shown as text; and a write by
 * another connection (a new agent) appears without a reload.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { createMemory } from '../../core/model/memory.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';
import { agentOn, T0 } from '../helpers/agents.js';

/** Written straight into the store, as a foreign program could: markup, a comma (the owner filter's separator) and an emoji, which must stay text. */
const ODD = 'Ågent "<b>bold</b>", 🤖';
let wb: Workbench;
let path: string;

beforeAll(async () => {
  path = join(tempDir('mnemo-owners-e2e-'), 'fleet.sqlite');
  const agents = ['w0@fleet', 'w1@fleet', 'w2@fleet'].map((owner) => agentOn(path, owner));
  try {
    for (const [i, agent] of agents.entries()) {
      for (let j = 0; j <= i; j++) await agent.remember({ content: `agent ${i} note ${j} about the staging deploy`, dedup: false });
    }
    await agents[1]!.recall('staging deploy note', { owner: '*', k: 3 });
  } finally {
    for (const a of agents) a.close();
  }
  const store = MemoryStore.open(path, { clock: fixedClock(T0) });
  store.add(createMemory({ content: 'written by a program that knows nothing of owner rules', owner: ODD }, T0), null);
  store.close();
  wb = await openWorkbench(path, { now: T0, width: 1400, height: 900 });
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const rowOf = (owner: string) => `[data-testid=owner-row][data-owner=${JSON.stringify(owner)}]`;

describe('Fleet: the agents in the open store', () => {
  it('shows one row per owner with the engine\'s numbers, with no fleet folder open', async () => {
    const p = wb.page;
    await wb.go('/fleet');
    await p.waitForSelector('[data-testid=owner-row]');
    const expected = await call(wb.session, 'fleet.owners', {});
    expect(expected.owners.map((o) => o.owner)).toEqual(['w0@fleet', 'w1@fleet', 'w2@fleet', ODD]);
    const shown = await p.locator('[data-testid=owner-row]').evaluateAll((rows) =>
      rows.map((r) => [r.getAttribute('data-owner'), ...['live', 'archived', 'edges_out', 'accesses', 'foreign_reads'].map((c) => r.querySelector(`[data-col=${c}]`)?.textContent)]),
    );
    expect(shown).toEqual(expected.owners.map((o) => [o.owner, ...[o.live, o.archived, o.edges_out, o.accesses, o.foreign_reads].map((n) => n.toLocaleString('en-US'))]));
    expect(expected.owners.find((o) => o.owner === 'w1@fleet')!.foreign_reads).toBeGreaterThan(0);
    // The folder table's own empty state is still there below: the section needs no folder.
    expect(await p.locator('[data-testid=fleet-table]').count()).toBe(0);
    expect(await p.textContent('.fleet-view')).toContain('No folder open');
    // The odd owner is text: its markup is not parsed into elements.
    const odd = p.locator(`${rowOf(ODD)} [data-testid=owner-link]`);
    expect(await odd.textContent()).toBe(ODD);
    expect(await odd.locator('b').count()).toBe(0);
    expect(wb.pageErrors).toEqual([]);
  });

  it('an owner\'s link opens Memories filtered to that owner, the odd one too', async () => {
    const p = wb.page;
    for (const owner of ['w2@fleet', ODD]) {
      await wb.go('/fleet');
      await p.locator(`${rowOf(owner)} [data-testid=owner-link]`).click();
      await p.waitForFunction(() => window.location.hash.startsWith('#/memories?owner='));
      const list = await call(wb.session, 'memory.list', { owners: [owner], limit: 100 });
      expect(list.total).toBe(owner === ODD ? 1 : 3);
      await p.waitForSelector(`[data-testid=memory-table][data-total="${list.total}"]`);
      const ids = await p.locator('[data-testid=memory-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-memory-id')));
      expect(new Set(ids)).toEqual(new Set(list.rows.map((r) => r.id)));
    }
    expect(wb.pageErrors).toEqual([]);
  });

  it('shows a new agent written by another connection without a reload', async () => {
    const p = wb.page;
    await wb.go('/fleet');
    await p.waitForSelector(rowOf('w0@fleet'));
    const late = agentOn(path, 'w3@late');
    try {
      await late.remember({ content: 'a late agent joins the fleet', dedup: false });
    } finally {
      late.close();
    }
    await p.waitForSelector(`${rowOf('w3@late')} [data-col=live]:text-is("1")`, { timeout: 15_000 });
    expect(wb.pageErrors).toEqual([]);
  });
});
