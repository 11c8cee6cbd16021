/**
 * Erasing and redaction in Chromium (browser mode): a memory's Erase… opens a confirmation that
 * lists what will be destroyed and says it cannot be undone, and stays disabled until the word
 * "erase" is typed; the receipt stays on screen after the memory's page is gone, and closing it
 * leaves that page. The Privacy view shows the store's redaction count and patterns, takes a
 * pattern of one's own, and the dry run opened from it does not set live refresh going in circles
 * (it is a read: the plan is fetched once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../core/api/service.js';
import { MnemoError } from '../../core/errors.js';
import { expected, fixtureCopy } from '../../support/fixture.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';

const NOW = expected().now as number;
let wb: Workbench;

beforeAll(async () => {
  wb = await openWorkbench(fixtureCopy(), { now: NOW, width: 1400, height: 1000 });
}, 60_000);
afterAll(async () => {
  await wb?.close();
});

/**
 * Waits until the live generation has stood still for a second. A write through the host moves it at
 * once, and again when the light worker's poll sees the writing worker's commit (another connection's,
 * to it) a moment later; a view open then refetches once more, which is not the refetch loop counted here.
 */
async function liveSettled(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const g = wb.session.live.generation;
    if ((await wb.session.live.waitPast(g, 1000)) === g) return;
  }
}

describe('erase and redaction e2e', () => {
  it('confirms with what will be destroyed, erases, and keeps the receipt on screen', async () => {
    const p = wb.page;
    const m = await call(wb.session, 'memory.add', { content: 'Dana asked us to delete her address: 14 Harbour Lane', owner: 'Planner@a1' });
    await call(wb.session, 'recall.run', { query: 'Dana address', k: 3 });
    await wb.go(`/memory/${m.id}`);
    await p.click('[data-testid=erase]');
    await p.waitForSelector('[data-testid=plan-counts]');
    expect(await p.textContent('[data-testid=erase-warning]')).toMatch(/This cannot be undone\. 1 memory will be removed from every place the store keeps it/);
    expect(await p.textContent('[data-testid=plan-counts]')).toMatch(/Access events, with their queries\s*2/);
    expect(await p.locator('[data-testid=erase-confirm]').isDisabled()).toBe(true);
    await p.fill('[data-testid=erase-type]', 'erase');
    await p.click('[data-testid=erase-confirm]');
    await p.waitForSelector('[data-testid=erase-receipt]', { timeout: 60_000 });
    expect(await p.textContent('[data-testid=erase-receipt]')).toMatch(/Erased 1 memory at .* by operator \(journal change #\d+, which cannot be undone\)/);
    const gone = await call(wb.session, 'memory.get', { id: m.id }).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(MnemoError);
    await p.click('[data-testid=erase-close]');
    await expect.poll(() => p.evaluate(() => window.location.hash)).toMatch(/^#\/memories/);
    expect(wb.pageErrors).toEqual([]);
  });

  it('Privacy: redaction counts and patterns, a pattern of your own; the erase-by-match plan is fetched once', async () => {
    const p = wb.page;
    await call(wb.session, 'memory.add', { content: 'the release token is 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' });
    await wb.go('/privacy');
    await p.waitForSelector('[data-testid=redaction-patterns]');
    expect(await p.textContent('[data-testid=redaction-total]')).toMatch(/^1 replacement made/);
    await p.fill('[data-testid=pattern-kind]', 'ticket');
    await p.fill('[data-testid=pattern-source]', 'TICKET-[0-9]{4}');
    await p.click('[data-testid=pattern-add]');
    await p.waitForSelector('[data-testid=redaction-patterns] code:text-is("ticket")');
    expect((await call(wb.session, 'memory.add', { content: 'see TICKET-1234' })).content).toBe('see [redacted:ticket]');
    await liveSettled();
    let plans = 0;
    p.on('request', (r) => {
      if (r.url().endsWith('/api/memory.erasePlan')) plans++;
    });
    await p.fill('[data-testid=erase-match]', 'Harbour Lane');
    await p.click('[data-testid=erase-match-review]');
    await p.waitForSelector('[data-testid=plan-counts], [data-testid=erase-warning]');
    await p.waitForTimeout(3000);
    expect(plans).toBe(1);
    expect(wb.pageErrors).toEqual([]);
  });
});
