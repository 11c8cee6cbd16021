/**
 * `npm run bench -- reflect [--sizes 10000,100000] [--db path] [--runs N] [--sample N] [--full-reference] [--json]`
 *
 * Times the dry-run plan (the whole deterministic pass: load, neighbour graph, merge, link, rescore,
 * prune) on demo stores (cached in the temp dir) or an existing store, prints the pairs the neighbour
 * graph examined, and measures the reference's approach in the same run: one brute-force knn over
 * every live vector per memory. That baseline is timed on a sample of memories and scaled to the
 * number of knn calls the reference makes (one per anchor in merge, one per live memory in
 * form_edges); `--full-reference` runs it whole (slow at 100k). Targets: ≤ 2 s at 10k, ≤ 30 s at 100k,
 * ≤ 3 min at 1M.
 */
import { connectionOf } from '../core/store/sqlite/connection.js';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fixedClock } from '../core/clock.js';
import { generateDemo } from '../core/demo/generate.js';
import { Engine } from '../core/engine/engine.js';
import { VectorIndex } from '../core/embed/vector-index.js';
import { planReflection } from '../core/reflect/plan.js';
import { referencePass } from '../core/reflect/reference-pass.js';
import { demoStorePath } from './lib/demo-store.js';
import { memoryEmbedding } from '../core/store/queries/memory-lookups.js';

const NOW = 1_780_000_000;
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    db: { type: 'string' },
    runs: { type: 'string' },
    sample: { type: 'string', default: '200' },
    seed: { type: 'string', default: '7' },
    now: { type: 'string' },
    'full-reference': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const log = (s: string) => {
  if (!values.json) process.stdout.write(`${s}\n`);
};

function demoStore(size: number, seed: number): string {
  // Seed 7 is the demo store every benchmark shares (.cache/bench); the plan is a dry run, opened read-only.
  if (seed === 7) return demoStorePath(size, NOW, log);
  const dir = join(tmpdir(), 'mnemo-bench');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `demo-${size}-${seed}.sqlite`);
  if (!existsSync(path)) {
    log(`generating demo store of ${size} memories (cached at ${path}) …`);
    const e = Engine.open(path, { clock: fixedClock(NOW), create: true, onWarning: () => {} });
    generateDemo(e.store, { size, seed, now: NOW });
    e.close();
  }
  return path;
}

/** The reference's approach: a full-scan knn(emb, 6) per memory, on a sample, scaled to the call count. */
function referenceEstimate(engine: Engine, sample: number): { per_query_ms: number; knn_calls: number; estimated_ms: number; sampled: number } {
  const store = engine.store;
  const live = connectionOf(store).prepare('SELECT id, rowid, owner, embedding FROM memories WHERE archived = 0 ORDER BY rowid').all() as { id: string; rowid: number; owner: string; embedding: Buffer | null }[];
  const index = new VectorIndex(store.dim);
  const vecs: Float32Array[] = [];
  for (const r of live) {
    const v = memoryEmbedding(store, r.id);
    if (!v) continue;
    index.upsert(r.id, v, r.owner, r.rowid);
    vecs.push(v);
  }
  const step = Math.max(1, Math.floor(vecs.length / sample));
  const picks = vecs.filter((_, i) => i % step === 0).slice(0, sample);
  const t0 = performance.now();
  for (const v of picks) index.knn(v, 6);
  const per = (performance.now() - t0) / picks.length;
  const calls = 2 * vecs.length;
  return { per_query_ms: per, knn_calls: calls, estimated_ms: per * calls, sampled: picks.length };
}

interface Row {
  label: string;
  memories: number;
  live: number;
  plan_ms_median: number;
  plan_runs_ms: number[];
  /** CPU time of the planning process: less sensitive than wall time to other load on the machine. */
  plan_cpu_ms_median: number;
  neighbour_ms: number;
  ops_ms: Record<string, number>;
  pairs_all: number;
  pairs_bounded: number;
  pairs_exact: number;
  pairs_kept: number;
  postings: number;
  report: Record<string, unknown>;
  reference: { per_query_ms: number; knn_calls: number; estimated_ms: number; sampled: number; full_ms?: number };
  ratio: number;
  target_ms: number | null;
}

async function benchOne(path: string, label: string, runs: number, now: number, target: number | null): Promise<Row> {
  const engine = Engine.open(path, { clock: fixedClock(now), readonly: true, onWarning: () => {} });
  const times: number[] = [];
  const cpu: number[] = [];
  // Holds at most the latest plan.
  const latest: Awaited<ReturnType<typeof planReflection>>[] = [];
  for (let i = 0; i < runs; i++) {
    // Drop the previous plan first: a 100k plan is hundreds of MB, and keeping it alive while the
    // next run allocates slowed later runs by a sixth (a real dry run starts without one).
    latest.pop();
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    latest.push(await planReflection(engine));
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    log(`  ${label} run ${i + 1}/${runs}: ${(times[i]! / 1000).toFixed(2)} s`);
  }
  const p = latest[0]!;
  const ref: Row['reference'] = referenceEstimate(engine, Number(values.sample));
  if (values['full-reference']) {
    const t0 = performance.now();
    referencePass(engine.store, now);
    ref.full_ms = performance.now() - t0;
  }
  engine.close();
  const med = median(times);
  const n = p.neighbours!;
  return {
    label,
    memories: p.store.memories,
    live: p.store.live,
    plan_ms_median: med,
    plan_runs_ms: times,
    plan_cpu_ms_median: median(cpu),
    neighbour_ms: n.ms,
    ops_ms: Object.fromEntries(p.groups.map((g) => [g.name, g.ms])),
    pairs_all: n.pairs_all,
    pairs_bounded: n.pairs_bounded,
    pairs_exact: n.pairs_exact,
    pairs_kept: n.pairs_kept,
    postings: n.postings,
    report: { merged: p.report.merged, edges_added: p.report.edges_added, rescored: p.report.rescored, pruned: p.report.pruned },
    reference: ref,
    ratio: (ref.full_ms ?? ref.estimated_ms) / med,
    target_ms: target,
  };
}

const rows: Row[] = [];
const now = values.now ? Number(values.now) : NOW;
if (values.db) {
  log(`reflect plan benchmark on ${values.db}`);
  rows.push(await benchOne(values.db, values.db, Number(values.runs ?? 3), now, null));
} else {
  for (const size of values.sizes!.split(',').map(Number)) {
    const path = demoStore(size, Number(values.seed));
    log(`reflect plan benchmark: demo store of ${size} memories`);
    rows.push(await benchOne(path, `demo-${size}`, Number(values.runs ?? (size > 50_000 ? 1 : 3)), NOW, size <= 10_000 ? 2000 : size <= 100_000 ? 30_000 : size <= 1_000_000 ? 180_000 : null));
  }
}
for (const r of rows) {
  log('');
  log(`${r.label}: ${r.live} live of ${r.memories} memories`);
  log(`  dry-run plan, median of ${r.plan_runs_ms.length}: ${(r.plan_ms_median / 1000).toFixed(2)} s wall, ${(r.plan_cpu_ms_median / 1000).toFixed(2)} s CPU${r.target_ms ? `  (target ≤ ${r.target_ms / 1000} s: ${r.plan_ms_median <= r.target_ms ? 'met' : 'NOT met'})` : ''}`);
  log(`    neighbour graph ${(r.neighbour_ms / 1000).toFixed(2)} s; ops: ${Object.entries(r.ops_ms).map(([k, v]) => `${k} ${(v / 1000).toFixed(2)} s`).join(', ')}`);
  log(`    pairs examined: ${r.pairs_exact.toLocaleString()} exact dot products, ${r.pairs_bounded.toLocaleString()} bounded (${r.postings.toLocaleString()} postings) of ${r.pairs_all.toLocaleString()} possible; ${r.pairs_kept.toLocaleString()} pairs with cos ≥ 0.80`);
  log(`    report: ${JSON.stringify(r.report)}`);
  log(
    `  reference approach (brute-force knn per memory): ${r.reference.per_query_ms.toFixed(2)} ms per query over ${r.reference.sampled} sampled, × ${r.reference.knn_calls.toLocaleString()} calls ≈ ${(r.reference.estimated_ms / 1000).toFixed(1)} s${r.reference.full_ms !== undefined ? `; full run ${(r.reference.full_ms / 1000).toFixed(1)} s` : ''}`,
  );
  log(`  baseline ratio (reference / plan): ${r.ratio.toFixed(1)}×`);
}
if (values.json) process.stdout.write(`${JSON.stringify({ bench: 'reflect', rows })}\n`);
