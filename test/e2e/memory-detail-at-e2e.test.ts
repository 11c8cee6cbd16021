/// <reference lib="dom" />
/**
 * The memory detail under the time control, in Chromium (issue 16): a memory accessed after the
 * instant T shows, under ?at=T, the access count, the retention curve's accesses and the full
 * access history of T; without ?at= the live ones. The history is written first, on a clock the
 * test steps (a session of its own), and the workbench then opens the store at a later frozen now.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import type { Clock } from '../../core/clock.js';
import { fixtureCopy } from '../../support/fixture.js';
import { openWorkbench, type Workbench } from '../../support/workbench.js';

const T0 = 1_790_000_000;
const DAY = 86_400;
const T = T0 + 2 * DAY;

let wb: Workbench;
let id = '';

beforeAll(async () => {
  const db = fixtureCopy();
  let t = T0;
  const clock: Clock = { now: () => t };
  const writer = new ApiSession({ clock });
  writer.open(db);
  id = (await call(writer, 'memory.add', { content: 'the release checklist moved to the wiki' })).id;
  t = T0 + DAY;
  await call(writer, 'access.reinforce', { id });
  t = T0 + 3 * DAY; // after T: two more touching accesses
  await call(writer, 'access.reinforce', { id });
  await call(writer, 'access.deref', { id });
  writer.close();
  wb = await openWorkbench(db, { now: T0 + 4 * DAY, width: 1280, height: 900 });
}, 120_000);
afterAll(async () => {
  await wb?.close();
});

const touching = () => wb.page.getAttribute('[data-testid=curve-accesses]', 'data-touching');

describe('the memory detail as of an instant (Chromium)', () => {
  it('shows the access count, curve and access history of T, and the live ones without ?at=', async () => {
    const p = wb.page;
    await wb.go(`/memory/${id}?at=${T}`);
    await p.waitForSelector('[data-testid=curve-accesses]');
    expect(await touching()).toBe('1');
    expect(await p.getAttribute('[data-testid=retention-curve]', 'data-at')).toBe(String(T));
    expect(await p.textContent('[data-testid=retention-curve] h3')).toContain('as of');
    expect(await p.textContent('[data-field="touching accesses"] td')).toMatch(/^1\b/);
    await p.click('[data-testid=show-history]');
    await p.waitForSelector('[data-testid=access-history]');
    expect(await p.getAttribute('[data-testid=access-history]', 'data-total')).toBe('1');
    expect(await p.locator('[data-testid=access-history] [data-testid=access-row]').count()).toBe(1);
    // Nothing here shows a later state than T (the feed still holds the accesses of then).
    expect(await p.locator('[data-testid=access-fields-live]').count()).toBe(0);

    await p.click('[data-testid=back-to-live]');
    await expect.poll(touching).toBe('3');
    expect(await p.getAttribute('[data-testid=retention-curve]', 'data-at')).toBe(String(T0 + 4 * DAY));
    await p.click('[data-testid=show-history]');
    await expect.poll(() => p.getAttribute('[data-testid=access-history]', 'data-total')).toBe('3');
    expect(wb.pageErrors).toEqual([]);
  });
});
