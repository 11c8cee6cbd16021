/**
 * `npm run bench -- live [--size 100000] [--runs 3] [--window-s 15] [--json]`
 *
 * Recall beside busy agents (issue #16): on a copy of the demo store, each figure with the
 * persisted indexes (the index sidecar) and, as baseline in the same run, with snapshots off
 * (MNEMO_INDEX_SNAPSHOTS=off: every index built in memory on open, as before):
 * - open_first_recall_ms: a fresh process opens the store and answers one recall (median of --runs;
 *   with snapshots, after one untimed run has left them);
 * - beside_writer_p95_ms: recall p95 in this process while another commits a one-row change every 200 ms
 *   (after the first recall beside it, which pays a one-time catch-up: first_beside_writer_ms);
 * - catchup_1000_ms: the first recall after another process committed 1,000 changes;
 * - time_travel_ms: the Memories list + overview graph (2,000 nodes) as of random instants of a
 *   scripted history (bench/time-travel.ts, run as a child; median), beside the same reads now as its
 *   baseline (there was no way to read the past before); --no-time-travel skips it (null).
 * With --json the last line is {"size", "open_first_recall_ms", "beside_writer_p95_ms",
 * "catchup_1000_ms", "time_travel_ms", "baseline": {…}}.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fixedClock } from '../core/clock.js';
import { Engine } from '../core/engine/engine.js';
import { recallAndLog } from '../core/recall/record.js';
import { MemoryStore } from '../core/store/sqlite/sqlite-store.js';
import { demoStoreCopy } from './lib/demo-store.js';
import { maxOf, median, percentile } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
    'window-s': { type: 'string', default: '15' },
    'no-time-travel': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const log = (s: string) => {
  if (!values.json) process.stdout.write(`${s}\n`);
};
const NOW = 1_780_000_000;
const size = Number(values.size);
const runs = Number(values.runs);
const windowMs = Number(values['window-s']) * 1000;
const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'lib', 'live-child.ts');
const reader = { owner: '', session_ref: 'bench-live' };

type Mode = 'snapshots' | 'baseline';
const envOf = (mode: Mode) => ({ ...process.env, MNEMO_INDEX_SNAPSHOTS: mode === 'snapshots' ? 'on' : 'off' });

/** Runs a live-child role to its end; resolves with its stdout. */
function runChild(mode: Mode, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { env: envOf(mode), stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`live-child ${args[0]} exited with ${code}`))));
  });
}

/** Starts the writer role; resolves once it commits, with a stop function. */
function startWriter(mode: Mode, path: string, intervalMs: number): Promise<() => Promise<void>> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, 'writer', path, String(NOW), String(intervalMs)], { env: envOf(mode), stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.once('data', () =>
      resolve(
        () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      ),
    );
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function recallMs(engine: Engine, n: number): number {
  const t0 = performance.now();
  recallAndLog(engine, { query: `deploy service ${n % 13} billing` }, 'recalled', reader);
  return performance.now() - t0;
}

async function measure(mode: Mode, path: string) {
  log(`\n${mode}:`);
  if (mode === 'snapshots') {
    log('  untimed first open (builds the indexes once and leaves their snapshots)…');
    await runChild(mode, ['open-recall', path, String(NOW)]);
  }
  const opens: number[] = [];
  for (let r = 0; r < runs; r++) {
    const out = await runChild(mode, ['open-recall', path, String(NOW)]);
    opens.push((JSON.parse(out.trim().split('\n').pop()!) as { open_first_recall_ms: number }).open_first_recall_ms);
    log(`  open + first recall: ${Math.round(opens[r]!)} ms`);
  }

  const engine = Engine.open(path, { clock: fixedClock(NOW), onWarning: () => {}, indexSnapshots: { enabled: mode === 'snapshots' } });
  recallMs(engine, 0);
  const stop = await startWriter(mode, path, 200);
  // The first recall after another process's first commit pays a one-time catch-up (today: the
  // indexes reset and the store starts keeping row digests); reported apart from the steady state.
  await sleep(400);
  const firstBeside = recallMs(engine, 0);
  log(`  first recall after the writer's first commits: ${Math.round(firstBeside)} ms`);
  const beside: number[] = [];
  const until = performance.now() + windowMs;
  for (let n = 1; performance.now() < until; n++) {
    beside.push(recallMs(engine, n));
    await sleep(50);
  }
  await stop();
  log(`  beside a writer (every 200 ms): ${beside.length} recalls, p95 ${Math.round(percentile(beside, 0.95))} ms, max ${Math.round(maxOf(beside))} ms`);

  recallMs(engine, 0); // caught up with the writer's last commits
  await runChild(mode, ['changes', path, String(NOW), '1000']);
  const catchup = recallMs(engine, 1);
  log(`  first recall after 1,000 changes by another process: ${Math.round(catchup)} ms`);
  engine.close();
  return { open_first_recall_ms: Math.round(median(opens)), first_beside_writer_ms: Math.round(firstBeside), beside_writer_p95_ms: Math.round(percentile(beside, 0.95)), catchup_1000_ms: Math.round(catchup) };
}

const path = demoStoreCopy(size, NOW, log);
{
  // Opening the copy writable brings its schema up to date (the change feed), once, untimed.
  const store = MemoryStore.open(path, { clock: fixedClock(NOW) });
  if (!store.feedPosition()) throw new Error('the demo store copy has no change feed');
  store.close();
}
log(`live: ${size.toLocaleString()} memories, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const baseline = await measure('baseline', path);
const snapshots = await measure('snapshots', path);
log(`\nload average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
/** bench/time-travel.ts in a child process (its own copy of the demo store): median as of a random instant, and now. */
function timeTravel(): Promise<{ as_of_median_ms: number; live_ms: number } | null> {
  if (values['no-time-travel']) return Promise.resolve(null);
  const script = join(dirname(fileURLToPath(import.meta.url)), 'time-travel.ts');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, '--size', String(size), '--changes', '3000', '--instants', '8', '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!) as { as_of_median_ms: number; live_ms: number }) : reject(new Error(`time-travel bench exited with ${code}`))));
  });
}
const travel = await timeTravel();
if (travel) log(`time travel: list + graph as of a random instant, median ${travel.as_of_median_ms} ms (the same reads now: ${travel.live_ms} ms)`);
const result = { size, ...snapshots, time_travel_ms: travel?.as_of_median_ms ?? null, baseline: { ...baseline, time_travel_ms: travel?.live_ms ?? null } };
if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
else log(JSON.stringify(result));
