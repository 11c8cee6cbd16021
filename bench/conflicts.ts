/**
 * The conflict queue: how well it finds planted conflicts, and how fast it answers on the 100k demo.
 *
 *   npm run bench -- conflicts [--seed 40] [--size 100000] [--runs 7] [--no-demo] [--json]
 *
 * 1. Planted pairs (support/conflict-plants.ts, both kinds: a contradicts edge, and different values
 *    with no edge) in a store of a few hundred memories: recall and precision over every item the
 *    queue lists, and in its top items (as many as were planted).
 * 2. A copy of the cached demo store (the cached file is never written): the first call builds the
 *    conflict index (its progress is printed as it goes, as the CLI does), then the first page
 *    (20 items) is asked for `runs` times; median, beside a page of the memory list measured in the
 *    same run as the baseline, and what "recall today" costs per item.
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { ApiSession } from '../core/api/context.js';
import { call } from '../core/api/service.js';
import { fixedClock } from '../core/clock.js';
import type { IndexBuildEvent } from '../core/store/derived/index-snapshots.js';
import { plantedWorld, plantStore, queuedPairs, scoreQueue } from '../support/conflict-plants.js';
import { tempDir } from '../support/fixture.js';
import { demoStoreCopy } from './lib/demo-store.js';

const { values: args } = parseArgs({
  options: { seed: { type: 'string', default: '40' }, size: { type: 'string', default: '100000' }, runs: { type: 'string', default: '7' }, 'no-demo': { type: 'boolean' }, json: { type: 'boolean' } },
});
const NOW = 1_780_000_000;
const log = (s: string) => {
  if (!args.json) console.log(s);
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;

// ------------------------------------------------------------------ 1. planted pairs

const seed = Number(args.seed);
const world = plantedWorld(seed);
const planted = new ApiSession({ clock: fixedClock(NOW) });
planted.open(join(tempDir('mnemo-bench-conflicts-'), 'planted.sqlite'), { create: true });
const ids = await plantStore(planted, world);
const score = scoreQueue(world, await queuedPairs(planted, ids));
planted.close();
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
log(`planted store (seed ${seed}): ${world.memories.length} memories; ${score.planted} conflicting pairs (${score.by_how.value.planted} value, ${score.by_how.edge.planted} contradicts edge), ${world.setValued.length} both-holding set-valued pairs`);
log(`  all ${score.listed} items:      recall ${pct(score.recall)} (${score.found}/${score.planted}), precision ${pct(score.precision)}`);
log(`  top ${score.top} items (⌈planted / 0.8⌉): recall ${pct(score.recall_in_top)} (${score.found_in_top}/${score.planted}), precision ${pct(score.precision_in_top)}`);
log(`  first ${score.planted} items (as many as planted): ${score.found_in_first_planted} planted`);
log(`  by kind: value ${score.by_how.value.found}/${score.by_how.value.planted}, edge ${score.by_how.edge.found}/${score.by_how.edge.planted}; wrongly listed: ${score.false_set_valued} set-valued, ${score.false_other} other`);

// ------------------------------------------------------------------ 2. the demo store

interface DemoFigures {
  size: number;
  memories: number;
  build_ms: number;
  progress_reports: number;
  page_ms: number[];
  page_median_ms: number;
  baseline_list_ms: number[];
  baseline_list_median_ms: number;
  ratio: number;
  recall_today_median_ms: number;
  recall_build_ms: number;
  total: number;
  by_kind: Record<string, number>;
}

let demo: DemoFigures | null = null;
if (!args['no-demo']) {
  const size = Number(args.size);
  const path = demoStoreCopy(size, NOW, log);
  const events: IndexBuildEvent[] = [];
  const session = new ApiSession({
    clock: fixedClock(NOW),
    engineOptions: {
      onWarning: () => {},
      indexSnapshots: {
        onBuild: (e) => {
          if (e.index !== 'review.conflicts') return;
          events.push(e);
          if (e.phase === 'start') log(`building the conflict index over ${e.memories.toLocaleString('en-US')} memories…`);
          else if (e.phase === 'progress' && e.total) {
            const step = Math.floor((100 * (e.done ?? 0)) / e.total / 25) * 25;
            const prev = events.filter((x) => x.phase === 'progress' && x.total && Math.floor((100 * (x.done ?? 0)) / x.total / 25) * 25 === step).length;
            if (prev === 1 && step > 0) log(`  … ${step} %`);
          } else if (e.phase === 'done') log(`  built in ${((e.ms ?? 0) / 1000).toFixed(1)} s`);
        },
      },
    },
  });
  session.open(path, { readonly: true });
  const t0 = performance.now();
  const first = await call(session, 'review.conflicts', { limit: 20 });
  const build_ms = performance.now() - t0;
  const page_ms: number[] = [];
  const baseline: number[] = [];
  for (let r = 0; r < Number(args.runs); r++) {
    let t = performance.now();
    await call(session, 'review.conflicts', { limit: 20 });
    page_ms.push(performance.now() - t);
    t = performance.now();
    await call(session, 'memory.list', { limit: 20 });
    baseline.push(performance.now() - t);
  }
  // Recall's own indexes are built by its first call (a minute on a fresh copy): not part of "recall today".
  const warm = performance.now();
  await call(session, 'recall.explain', { query: 'warm up the recall indexes', k: 10 });
  const recall_build_ms = performance.now() - warm;
  const recalls: number[] = [];
  for (const item of first.items.slice(0, 7)) {
    if (!item.ids || !item.query) continue;
    const t = performance.now();
    await call(session, 'review.conflictRecall', { query: item.query, ids: item.ids });
    recalls.push(performance.now() - t);
  }
  session.close();
  rmSync(dirname(path), { recursive: true, force: true });
  demo = {
    size,
    memories: events.find((e) => e.phase === 'start')?.memories ?? 0,
    build_ms: Math.round(build_ms),
    progress_reports: events.filter((e) => e.phase === 'progress').length,
    page_ms: page_ms.map((x) => Math.round(x * 10) / 10),
    page_median_ms: Math.round(median(page_ms) * 10) / 10,
    baseline_list_ms: baseline.map((x) => Math.round(x * 10) / 10),
    baseline_list_median_ms: Math.round(median(baseline) * 10) / 10,
    ratio: Math.round((median(page_ms) / median(baseline)) * 100) / 100,
    recall_today_median_ms: recalls.length ? Math.round(median(recalls)) : 0,
    recall_build_ms: Math.round(recall_build_ms),
    total: first.total,
    by_kind: first.by_kind,
  };
  log(`demo store (${size.toLocaleString('en-US')}): the first call (with the build) took ${ms(build_ms)}; ${demo.progress_reports} progress reports`);
  log(`  queue: ${first.total} items (${Object.entries(first.by_kind).map(([k, n]) => `${n} ${k}`).join(', ')})`);
  log(`  first page of 20, after the build: median ${ms(median(page_ms))} over ${page_ms.length} runs (target ≤ 1 s); a page of the memory list in the same run: ${ms(median(baseline))} (ratio ${demo.ratio}x)`);
  log(`  what recall returns today, per item: median ${ms(demo.recall_today_median_ms)} (asked per item, not with the page; recall's indexes built first in ${ms(recall_build_ms)})`);
}

if (args.json) console.log(JSON.stringify({ planted: { seed, memories: world.memories.length, ...score }, demo }));
