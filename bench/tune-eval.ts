/**
 * `npm run bench -- tune-eval --data <locomo10.json> [--steps 12] [--seed 1] [--json]`
 *
 * What one `mnemo tune locomo` evaluation costs (the 760 tuning questions ranked under one
 * profile), ranked by the real pipeline as-is and through the tuner's RankCache
 * (core/tune/rank-cache.ts), in the same process: the profiles follow a seeded walk that moves
 * one knob at a time, as the coordinate search does (so some steps change only weights and some
 * change a leg), and each step is measured both ways, alternating which goes first. Reports the
 * median CPU and wall seconds per evaluation each way and their ratio, and fails if any step's
 * metrics differ between the two. Skips with a reason when the data file is absent.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadLocomo } from './locomo/dataset.js';
import { locomoLabels } from './locomo/tune-labels.js';
import { rng } from '../core/demo/generate.js';
import { profileFor, type RecallProfile } from '../core/recall/profile.js';
import { evaluateProfile } from '../core/tune/evaluate.js';
import { knobSpace, knobValue, withKnobs } from '../core/tune/knob-space.js';
import { RankCache } from '../core/tune/rank-cache.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, steps: { type: 'string', default: '12' }, seed: { type: 'string', default: '1' }, json: { type: 'boolean', default: false } } });
const json = values.json === true;
const log = (s: string) => (json ? console.error(s) : console.log(s));
if (!values.data || !existsSync(values.data)) {
  log(`tune-eval: skipped: no LoCoMo data file (pass --data <locomo10.json>; got ${JSON.stringify(values.data ?? null)})`);
  if (json) console.log(JSON.stringify({ skipped: 'no data' }));
  process.exit(0);
}

/** The walk: each profile is the one before with one knob moved a quarter of its range up or down. */
function walk(base: RecallProfile, steps: number, seed: number): RecallProfile[] {
  const rand = rng(seed);
  const specs = knobSpace(base);
  const x = specs.map((s) => knobValue(base, s.name));
  const out = [base];
  for (let i = 0; i < steps; i++) {
    const j = Math.floor(rand() * specs.length);
    const s = specs[j]!;
    x[j] = Math.min(s.max, Math.max(s.min, x[j]! + (rand() < 0.5 ? -1 : 1) * 0.25 * (s.max - s.min)));
    out.push(withKnobs(base, specs, x, `walk-${i}`));
  }
  return out;
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const median = (xs: number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const labels = locomoLabels(loadLocomo(values.data));
try {
  const profiles = walk(profileFor('mnemo'), Number(values.steps), Number(values.seed));
  const cache = new RankCache();
  // Warm-up: the indexes are built on first use, by either path.
  evaluateProfile(labels.train, profiles[0]!, 10);
  const plain = { cpu: [] as number[], wall: [] as number[] };
  const cached = { cpu: [] as number[], wall: [] as number[] };
  const measure = (into: typeof plain, profile: RecallProfile, c?: RankCache) => {
    const c0 = cpu();
    const w0 = performance.now();
    const e = evaluateProfile(labels.train, profile, 10, undefined, c);
    into.cpu.push(cpu() - c0);
    into.wall.push((performance.now() - w0) / 1000);
    return e;
  };
  for (const [i, profile] of profiles.entries()) {
    const first = i % 2 === 0;
    const a = first ? measure(plain, profile) : measure(cached, profile, cache);
    const b = first ? measure(cached, profile, cache) : measure(plain, profile);
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`step ${i}: cached and plain evaluations differ: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
    log(`step ${i}: plain ${plain.cpu.at(-1)!.toFixed(2)} s CPU, cached ${cached.cpu.at(-1)!.toFixed(2)} s CPU (recall@10 ${(a.recall * 100).toFixed(1)})`);
  }
  const result = {
    evaluations: profiles.length,
    queries: labels.train.reduce((n, s) => n + s.queries.length, 0),
    plain_cpu_s: median(plain.cpu),
    cached_cpu_s: median(cached.cpu),
    plain_wall_s: median(plain.wall),
    cached_wall_s: median(cached.wall),
    cpu_ratio: median(plain.cpu) / median(cached.cpu),
  };
  log(
    `per evaluation (median of ${result.evaluations}): plain ${result.plain_cpu_s.toFixed(2)} s CPU / ${result.plain_wall_s.toFixed(2)} s wall; ` +
      `cached ${result.cached_cpu_s.toFixed(2)} s CPU / ${result.cached_wall_s.toFixed(2)} s wall; ${result.cpu_ratio.toFixed(1)}× less CPU`,
  );
  if (json) console.log(JSON.stringify(result));
} finally {
  labels.close();
}
