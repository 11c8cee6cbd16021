/**
 * `npm run bench -- fleet-writers [--agents 8] [--per-agent 5000] [--recall-every 1] [--backend postgres|sqlite|both] [--live listen|poll|both] [--seed N] [--max-minutes N] [--json]`
 *
 * The PostgreSQL issue's concurrency run (support/fleet-run.ts): `--agents` agent processes, each
 * its own `mnemo mcp` over stdio with its own owner, write `--per-agent` memories each into one new
 * store, recalling every `--recall-every`-th write by its words (it must be in the answer at
 * once), while browser mode (`mnemo serve`, another process) follows the live-refresh generation,
 * lists the newest memories and recalls. Reported per backend: errors, lost writes (rows per owner
 * counted at the end), own writes not seen at once, writes per second, and how long after a
 * `remember` returned the open list showed it (p50 / p95 / max; the issue's bound is 1 s).
 *
 * `--live both` runs PostgreSQL twice, browser mode hearing commits through notifications and then
 * through its poll alone (the baseline, as before notifications and as SQLite always does), so the
 * list latencies compare within one run. SQLite has no notifications: it runs once, polling.
 *
 * `--seed N` starts each run's store as a copy of the N-memory demo store instead of empty: a short
 * run then writes where a long one ends, into a store of tens of thousands of memories.
 *
 * `--max-minutes N` (or Ctrl-C) stops each run's agents after their current write and reports on
 * what was written: lost writes are then acknowledged writes without a row, per owner.
 *
 * PostgreSQL: MNEMO_TEST_PG_URL, or a throwaway cluster (support/pg-cluster.ts). With --json the
 * last line is one object: { backends: { postgres?: FleetReport, sqlite?: FleetReport }, runs: FleetReport & { backend }[] }
 * (`backends` holds each backend's first run).
 */
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { copyStore } from '../core/store/copy/copy-stores.js';
import { openStoreAt } from '../core/store/open-location.js';
import { currentDemoCopy } from './lib/backend-copies.js';
import { tempDir } from '../support/fixture.js';
import { runFleet, type FleetReport } from '../support/fleet-run.js';
import { freshSchemaUrl, startPg } from '../support/pg-cluster.js';

const { values } = parseArgs({
  options: {
    agents: { type: 'string', default: '8' },
    'per-agent': { type: 'string', default: '5000' },
    'recall-every': { type: 'string', default: '1' },
    backend: { type: 'string', default: 'postgres' },
    live: { type: 'string', default: 'listen' },
    'max-minutes': { type: 'string' },
    seed: { type: 'string', default: '0' },
    json: { type: 'boolean', default: false },
  },
});
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const agents = Number(values.agents);
const perAgent = Number(values['per-agent']);
const recallEvery = Number(values['recall-every']);
const seed = Number(values.seed);
const backends = values.backend === 'both' ? ['postgres', 'sqlite'] : [values.backend!];
if (!Number.isInteger(seed) || seed < 0) {
  console.error('--seed must be a whole number of memories (0: start empty)');
  process.exit(2);
}
for (const [name, v] of [['agents', agents], ['per-agent', perAgent], ['recall-every', recallEvery]] as const) {
  if (!Number.isInteger(v) || v < 1) {
    console.error(`--${name} must be a whole number ≥ 1`);
    process.exit(2);
  }
}
if (backends.some((b) => b !== 'postgres' && b !== 'sqlite')) {
  console.error('--backend must be postgres, sqlite or both');
  process.exit(2);
}
const maxMinutes = values['max-minutes'] === undefined ? null : Number(values['max-minutes']);
if (maxMinutes !== null && !(maxMinutes > 0 && maxMinutes <= 24 * 60)) {
  console.error('--max-minutes must be a number of minutes above 0 (at most a day)');
  process.exit(2);
}
if (!['listen', 'poll', 'both'].includes(values.live!)) {
  console.error('--live must be listen, poll or both');
  process.exit(2);
}
const liveModes = (backend: string): ('listen' | 'poll')[] => (backend === 'sqlite' ? ['poll'] : values.live === 'both' ? ['listen', 'poll'] : [values.live as 'listen' | 'poll']);
/** The demo store's clock (a --seed copy's feed starts there); the agents write on the wall clock after it. */
const NOW = 1_780_000_000;
const say = (s: string) => {
  if (!values.json) process.stdout.write(`${s}\n`);
};

const report: Record<string, FleetReport> = {};
const runs: (FleetReport & { backend: string })[] = [];
const server = backends.includes('postgres') ? startPg() : null;
try {
  for (const [backend, live] of backends.flatMap((b) => liveModes(b).map((l) => [b, l] as const))) {
    let store: string;
    if (backend === 'postgres') {
      store = freshSchemaUrl(server!.url, `fleet_${Date.now().toString(36)}`);
    } else {
      store = join(tempDir('mnemo-fleet-'), 'fleet.sqlite');
    }
    if (seed > 0) {
      const demo = currentDemoCopy(seed, NOW, (line) => process.stderr.write(`${line}\n`));
      copyStore(demo, store);
      rmSync(dirname(demo), { recursive: true, force: true });
    } else openStoreAt(store, { create: true }).close();
    say(`${backend}: ${agents} agents × ${perAgent} memories through mnemo mcp, browser mode listing (${live === 'listen' ? 'woken by commit notifications' : 'polling'})…`);
    const stop = new AbortController();
    const onInterrupt = () => {
      process.stderr.write('  stopping: each agent finishes its current write, then the run reports\n');
      stop.abort();
    };
    process.once('SIGINT', onInterrupt);
    const timer = maxMinutes === null ? null : setTimeout(() => stop.abort(), maxMinutes * 60_000);
    const r = await runFleet({
      signal: stop.signal,
      store,
      root,
      agents,
      perAgent,
      recallEvery,
      live,
      onProgress: (p) => process.stderr.write(`  … ${p.elapsed_s} s: ${p.writes} writes, ${p.errors} errors, ${p.own_write_misses} own writes not found\n`),
    });
    if (timer) clearTimeout(timer);
    process.off('SIGINT', onInterrupt);
    report[backend] ??= r;
    runs.push({ backend, ...r });
    if (r.stopped_early) say(`  stopped early: ${Object.entries(r.acknowledged_per_owner).map(([o, n]) => `${o} ${n}`).join(', ')}`);
    say(`  ${r.writes} writes in ${r.wall_s} s (${r.writes_per_s}/s), ${r.errors} errors${r.first_errors.length ? ` (${r.first_errors.join('; ')})` : ''}, ${r.lost_writes} lost`);
    say(`  ${r.recalls} recalls after a write, ${r.own_write_misses} without it; the viewer recalled ${r.viewer_recalls} times (${r.viewer_errors} errors)`);
    say(`  list showed a write after p50 ${r.list_latency_ms.p50} ms, p95 ${r.list_latency_ms.p95} ms, max ${r.list_latency_ms.max} ms (bound 1000); never shown: ${r.list_never_shown}`);
    say(`  the viewer waited for the generation to move: p50 ${r.viewer_request_ms.wait.p50} / p95 ${r.viewer_request_ms.wait.p95} / max ${r.viewer_request_ms.wait.max} ms`);
    say(`  the viewer's requests took: list p50 ${r.viewer_request_ms.list.p50} / p95 ${r.viewer_request_ms.list.p95} ms, recall p50 ${r.viewer_request_ms.recall.p50} / p95 ${r.viewer_request_ms.recall.p95} ms`);
    for (const w of r.list_p95_by_window) say(`    from ${w.from_s} s: ${w.writes} writes, list p95 ${w.p95_ms} ms, load ${w.load}`);
  }
} finally {
  server?.stop();
}
if (values.json) console.log(JSON.stringify({ agents, per_agent: perAgent, recall_every: recallEvery, backends: report, runs }));
