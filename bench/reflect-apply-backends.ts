/**
 * `npm run bench -- reflect-apply-backends [--size 3000] [--rounds 3] [--json]`
 *
 * The reflection apply alone, on both backends, on the same demo store (issue #17: "reflection
 * apply on PostgreSQL ≤ 1.5× SQLite's"): what `bench backends` measures among much else, small
 * enough to repeat. Each round copies the cached demo store of --size memories afresh (SQLite
 * file, then PostgreSQL by copyStore), plans once per backend and times the apply (no pause
 * between its transactions, as `bench backends`), the backends alternating which goes first.
 * Also counted on PostgreSQL: the requests the apply sent through the synchronous bridge
 * (core/store/pg/sync-pg.ts), each one cross-thread round trip, per operation.
 * The server is MNEMO_TEST_PG_URL when set, otherwise a throwaway cluster (fsync off).
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { fixedClock } from '../core/clock.js';
import { Engine } from '../core/engine/engine.js';
import { applyPlan } from '../core/reflect/apply.js';
import { planOps, planReflection } from '../core/reflect/plan.js';
import { bridgeRoundTrips } from '../core/store/pg/sync-pg.js';
import { startPg } from '../support/pg-cluster.js';
import { BACKENDS, backendCopies, type Backend } from './lib/backend-copies.js';
import { median } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
  },
});
const log = (s: string) => (values.json ? console.error(s) : console.log(s));
const NOW = 1_780_000_000;
const size = Number(values.size);
const rounds = Number(values.rounds);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

interface ApplyRun {
  apply_s: number;
  ops: number;
  applied: number;
  round_trips: number;
}

async function applyOnce(location: string): Promise<ApplyRun> {
  const engine = Engine.open(location, { clock: fixedClock(NOW), onWarning: () => {} });
  try {
    const plan = await planReflection(engine);
    const trips0 = bridgeRoundTrips();
    const t0 = performance.now();
    const done = await applyPlan(engine, plan, { pacing: { pauseMs: 0 } });
    const apply_s = (performance.now() - t0) / 1000;
    return { apply_s, ops: planOps(plan).length, applied: done.applied.length, round_trips: bridgeRoundTrips() - trips0 };
  } finally {
    engine.close();
  }
}

const server = startPg();
const runs: Record<Backend, ApplyRun[]> = { sqlite: [], postgres: [] };
const ratios: number[] = [];
const loads = [load()];
try {
  log(`reflect-apply-backends: ${size.toLocaleString('en')} memories, ${rounds} rounds, load average ${loads[0]}`);
  for (let r = 0; r < rounds; r++) {
    const copies = backendCopies(server.url, size, NOW, log);
    try {
      const order = r % 2 === 0 ? BACKENDS : [...BACKENDS].reverse();
      const got = {} as Record<Backend, ApplyRun>;
      for (const b of order) got[b] = await applyOnce(copies[b]);
      for (const b of BACKENDS) runs[b].push(got[b]);
      ratios.push(got.postgres.apply_s / got.sqlite.apply_s);
      const pg = got.postgres;
      log(
        `  round ${r + 1}: sqlite ${got.sqlite.apply_s.toFixed(2)} s, postgres ${pg.apply_s.toFixed(2)} s (${ratios.at(-1)!.toFixed(2)}×); ` +
          `${pg.ops.toLocaleString('en')} operations, ${pg.applied.toLocaleString('en')} applied, ${pg.round_trips.toLocaleString('en')} round trips (${(pg.round_trips / pg.ops).toFixed(2)} per operation); load ${load()}`,
      );
    } finally {
      copies.dispose();
    }
  }
} finally {
  server.stop();
}
loads.push(load());
const pg = runs.postgres;
const summary = {
  size,
  rounds,
  ops: pg[0]?.ops ?? 0,
  sqlite_apply_s: Number(median(runs.sqlite.map((x) => x.apply_s)).toFixed(2)),
  postgres_apply_s: Number(median(pg.map((x) => x.apply_s)).toFixed(2)),
  ratio: Number(median(ratios).toFixed(2)),
  round_trips_per_op: Number(median(pg.map((x) => x.round_trips / x.ops)).toFixed(2)),
  load_average: loads,
};
log(`median: sqlite ${summary.sqlite_apply_s} s, postgres ${summary.postgres_apply_s} s, ratio ${summary.ratio}×, ${summary.round_trips_per_op} round trips per operation`);
if (values.json) console.log(JSON.stringify(summary));
