/// <reference lib="dom" />
/**
 * Screenshots of long jobs that tell the truth (issue 37), on a big store in browser mode, with the
 * pacing every user gets: the first Explain's timing with the index builds it waited for; a
 * commit of the whole reflection plan while it checks the store and while it applies (n of N
 * accepted items, ETA), the moment Cancel is pressed ("Cancelling…"), its take-back and its end;
 * then the undo of a big change (the plan's merges) in History, running and cancelled.
 * `node --import tsx scripts/screenshots-long-jobs.ts <store.sqlite> <out-dir>` (the store is copied
 * first; the 100k demo store is what the figures are about).
 */
import { call } from '../core/api/service.js';
import { SHOTS_LONG_MS as LONG, startScreenshots } from '../support/screenshot-run.js';

const { wb, save } = await startScreenshots('screenshots-long-jobs.ts');
const p = wb.page;
const phase = (sel: string, want: string, text?: RegExp) =>
  p.waitForFunction(
    ([s, w, t]) => document.querySelector(s as string)?.getAttribute('data-phase') === w && (!t || new RegExp(t as string).test(document.querySelector(s as string)!.textContent ?? '')),
    [sel, want, text?.source ?? null],
    { timeout: LONG, polling: 200 },
  );
/** The take-back with a pace to show, or (a short one) its end. */
const takeBackOrEnd = (sel: string, ended: string) =>
  p.waitForFunction(
    ([s, e]) => (document.querySelector(s as string)?.getAttribute('data-phase') === 'take-back' && / left/.test(document.querySelector(s as string)!.textContent ?? '')) || document.querySelector(e as string) !== null,
    [sel, ended],
    { timeout: LONG, polling: 200 },
  );
/** Presses Cancel and shoots the very next frame. */
const cancelAndShoot = async (button: string, name: string) => {
  await p.click(`[data-testid=${button}]`, { noWaitAfter: true, timeout: LONG });
  await p.waitForFunction((b) => document.querySelector(`[data-testid=${b}]`)?.textContent === 'Cancelling…', button, { timeout: 5000, polling: 'raf' });
  await save(name);
};

try {
  await wb.go('/recall?q=deploy%20cache%20staging&mode=explain');
  await p.waitForSelector('[data-testid=recall-waited]', { timeout: LONG });
  await save('recall-waited');

  await wb.go('/reflection');
  await p.click('[data-testid=reflection-plan]', { noWaitAfter: true, timeout: LONG });
  await p.waitForSelector('[data-testid=reflection-commit]:not([disabled])', { timeout: LONG });
  await p.click('[data-testid=reflection-commit]', { noWaitAfter: true, timeout: LONG });
  await p.click('[data-testid=reflection-commit-confirm-go]', { noWaitAfter: true, timeout: LONG });
  const bar = '[data-testid=reflection-commit-progress]';
  await phase(bar, 'check', / \d+ %/);
  await save('commit-check');
  await phase(bar, 'apply', / left/);
  await p.waitForTimeout(20_000);
  await save('commit-progress');
  await p.waitForTimeout(20_000);
  await cancelAndShoot('reflection-commit-cancel', 'commit-cancelling');
  await takeBackOrEnd(bar, '[data-testid=reflection-commit-cancelled]');
  await save('commit-take-back');
  await p.waitForSelector('[data-testid=reflection-commit-cancelled]', { timeout: LONG });
  await save('commit-cancelled');

  // A big change to undo: the plan's merges, committed through the server's own session.
  const planId = (await p.getAttribute('[data-testid=reflection-plan-summary]', 'data-plan-id'))!;
  const others = ['link', 'rescore', 'prune'].map((group) => ({ do: 'reject' as const, group }));
  const merged = await call(wb.session, 'review.commit', { plan_id: planId, actions: others });
  console.log(`committed the merges as change #${merged.change_id} (${merged.applied.length} items)`);
  await wb.go(`/history?change=${merged.change_id}`);
  const row = `[data-testid=history-row][data-change-id="${merged.change_id}"]`;
  await p.click(`${row} [data-testid=undo-button]`, { noWaitAfter: true, timeout: LONG });
  await phase('[data-testid=history-job]', 'undo', / left/);
  await p.waitForTimeout(10_000);
  await save('undo-progress');
  await cancelAndShoot('history-job-cancel', 'undo-cancelling');
  await takeBackOrEnd('[data-testid=history-job]', '[data-testid=history-job-cancelled]');
  await save('undo-take-back');
  await p.waitForSelector('[data-testid=history-job-cancelled]', { timeout: LONG });
  await save('undo-cancelled');
} finally {
  await wb.close();
}
