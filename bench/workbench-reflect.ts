/// <reference lib="dom" />
/**
 * The Reflection screen's speed in Chromium (browser mode) on a 100k-memory demo store:
 *   - a dry-run plan through the UI: the click on "Plan" → the plan's summary in the page, with the
 *     progress the page showed meanwhile (the distinct steps it displayed, and how often it updated);
 *   - the diff view's first render: plan in the page → the first page of every op group drawn, with
 *     the memories' heads (and the merges' text diffs) filled in;
 *   - accept / reject round trip: a click on "Reject" → the item and the counts redrawn.
 * Baselines in the same run: the same plan computed in-process without the UI (what the CLI's
 * `mnemo reflect --dry-run` costs), and the whole flow on the 160-memory fixture store.
 * Not a test: `npm run bench -- workbench-reflect [--size N] [--runs N] [--json]`.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../core/api/service.js';
import { ApiSession } from '../core/api/context.js';
import { FIXTURE_STORE, tempDir } from '../support/fixture.js';
import { demoStoreCopy } from './lib/demo-store.js';
import { median } from './lib/stats.js';
import { openWorkbench } from '../support/workbench.js';

const args = process.argv.slice(2);
const opt = (name: string, d: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const RUNS = opt('runs', 1);
const SIZE = opt('size', 100_000);
const JSON_OUT = args.includes('--json');
const NOW = 1_780_000_000;
const log = (s: string) => {
  if (!JSON_OUT) console.log(s);
};

/** The plan computed in-process, no UI: what `mnemo reflect --dry-run` costs on the same store. */
async function engineOnly(db: string): Promise<{ ms: number; items: number }> {
  const session = ApiSession.withFrozenClock(NOW);
  session.open(db, { readonly: true });
  try {
    const t = performance.now();
    const plan = await call(session, 'reflect.plan', {});
    return { ms: performance.now() - t, items: plan.groups.reduce((s, g) => s + g.ops.length, 0) };
  } finally {
    session.close();
  }
}

async function measure(db: string, label: string) {
  const wb = await openWorkbench(db, { now: NOW });
  const p = wb.page;
  const plan: number[] = [];
  const diff: number[] = [];
  const reject: number[] = [];
  let progress: { steps: string[]; updates: number; first_ms: number | null } = { steps: [], updates: 0, first_ms: null };
  let items = 0;
  try {
    for (let i = 0; i < RUNS; i++) {
      await wb.go('/reflection');
      await p.waitForSelector('[data-testid=reflection-plan]:not([disabled])');
      // Record what the progress bar shows while the plan runs (it polls the engine every 250 ms).
      await p.evaluate(() => {
        const w = window as unknown as { __progress: { t: number; text: string }[]; __obs: MutationObserver; __t0: number };
        w.__progress = [];
        w.__t0 = performance.now();
        for (const m of ['mnemo:plan-ready', 'mnemo:diff-rendered:merge', 'mnemo:diff-rendered:link', 'mnemo:diff-rendered:rescore', 'mnemo:diff-rendered:prune']) performance.clearMarks(m);
        w.__obs?.disconnect();
        w.__obs = new MutationObserver(() => {
          const el = document.querySelector('[data-testid=reflection-progress]');
          const text = el?.textContent ?? '';
          if (el && w.__progress.at(-1)?.text !== text) w.__progress.push({ t: performance.now() - w.__t0, text });
        });
        w.__obs.observe(document.body, { subtree: true, childList: true, characterData: true });
        (document.querySelector('[data-testid=reflection-plan]') as HTMLButtonElement).click();
      });
      await p.waitForFunction(() => performance.getEntriesByName('mnemo:plan-ready').length > 0, undefined, { timeout: 30 * 60_000, polling: 250 });
      await p.waitForFunction(
        () => ['merge', 'link', 'rescore', 'prune'].every((op) => performance.getEntriesByName(`mnemo:diff-rendered:${op}`).length > 0 || !document.querySelector(`[data-testid=reflection-group][data-op=${op}]`)),
        undefined,
        { timeout: 120_000, polling: 50 },
      );
      const t = await p.evaluate(() => {
        const w = window as unknown as { __progress: { t: number; text: string }[]; __obs: MutationObserver; __t0: number };
        w.__obs.disconnect();
        // (No named helpers in here: the page cannot see the bundler's function-naming shim.)
        const ready = performance.getEntriesByName('mnemo:plan-ready').at(-1)!.startTime;
        let drawn = 0;
        for (const op of ['merge', 'link', 'rescore', 'prune']) drawn = Math.max(drawn, performance.getEntriesByName(`mnemo:diff-rendered:${op}`).at(-1)?.startTime ?? 0);
        return { plan: ready - w.__t0, diff: drawn - ready, progress: w.__progress };
      });
      plan.push(t.plan);
      diff.push(t.diff);
      const steps = [...new Set(t.progress.map((x) => x.text.replace(/ — ([\d,]+ \/ [\d,]+|\d+ %)$/, '')).filter(Boolean))];
      progress = { steps, updates: t.progress.length, first_ms: t.progress[0]?.t ?? null };
      items = Number(await p.getAttribute('[data-testid=reflection-plan-summary]', 'data-items'));
      // Reject the first merge (or the first item) and wait for the counts to say so.
      const first = p.locator('[data-testid=reflection-item]').first();
      const id = await first.getAttribute('data-op-id');
      const t0 = Date.now();
      await first.locator('[data-testid=reflection-reject]').click();
      await p.waitForSelector(`[data-testid=reflection-item][data-op-id="${id}"][data-state=rejected]`);
      // The counts move (by one, or more when other items follow the rejected one).
      await p.waitForFunction((n) => document.querySelector('[data-testid=reflection-commit-bar]')?.getAttribute('data-accepted-count') !== String(n), items);
      reject.push(Date.now() - t0);
    }
    const r = { store: label, items, plan_ui_ms: median(plan), diff_first_render_ms: median(diff), reject_roundtrip_ms: median(reject), progress };
    log(
      `${label.padEnd(10)} ${items.toLocaleString().padStart(8)} proposals · plan through the UI ${r.plan_ui_ms.toFixed(0)} ms · diff first render ${r.diff_first_render_ms.toFixed(0)} ms · reject round trip ${r.reject_roundtrip_ms.toFixed(0)} ms`,
    );
    log(`           progress shown: ${progress.updates} updates, first after ${progress.first_ms?.toFixed(0) ?? '—'} ms; steps: ${progress.steps.join(' | ') || '(none)'}`);
    return r;
  } finally {
    await wb.close();
  }
}

const fixture = join(tempDir('mnemo-bench-'), 'fixture.sqlite');
copyFileSync(FIXTURE_STORE, fixture);
const fixtureEngine = await engineOnly(fixture);
const baseline = await measure(fixture, 'fixture');
const db = demoStoreCopy(SIZE, NOW, log);
const bigEngine = await engineOnly(db);
log(`engine only (no UI, as mnemo reflect --dry-run): fixture ${fixtureEngine.ms.toFixed(0)} ms · ${SIZE / 1000}k ${bigEngine.ms.toFixed(0)} ms (${bigEngine.items.toLocaleString()} proposals)`);
const big = await measure(db, `demo-${SIZE / 1000}k`);
const overhead = big.plan_ui_ms / bigEngine.ms;
log(`medians of ${RUNS} run(s); plan through the UI / engine alone on ${SIZE / 1000}k: ×${overhead.toFixed(2)}; diff first render ${SIZE / 1000}k / fixture: ×${(big.diff_first_render_ms / baseline.diff_first_render_ms).toFixed(2)}`);
if (JSON_OUT) console.log(JSON.stringify({ runs: RUNS, size: SIZE, engine_only: { fixture: fixtureEngine, big: bigEngine }, baseline, big, ratio: { ui_over_engine: overhead, diff_big_over_fixture: big.diff_first_render_ms / baseline.diff_first_render_ms } }));
