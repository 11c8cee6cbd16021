/**
 * `npm run bench -- against --ref DIR [--what reflect,keyword,recall] [--pairs N] [--queries N] [--size N] [--json]`
 *
 * This checkout's speed against another checkout's (DIR: for example `git worktree add DIR <commit>`
 * with its node_modules linked to these), in one process: every measurement runs once with each
 * side's code, alternating which side goes first. On a shared machine, two benchmark processes run
 * one after the other differed by up to a third with the same code; here both sides meet the same
 * load. Reports each side's median and the median of the per-pair ratios (this / ref) for:
 * - reflect: the dry-run plan on the reflect benchmark's 10k demo store;
 * - keyword: a keyword (BM25, Porter) index load on the recall benchmark's store;
 * - recall: explain k = 10 at hops 1 and 2 on that store, the same queries on both sides.
 * Stores are opened read-only and must exist: run `npm run bench -- reflect --sizes 10000` and
 * `npm run bench -- recall` in the ref checkout first (a store built by newer code may carry a
 * schema the older code refuses). The ref must have the same module paths and signatures as the
 * ones imported below.
 * With --json the last line is {"bench": "against", "ref", "reflect", "keyword", "recall_hops1",
 * "recall_hops2"}, each {ref, this: {wall_ms, cpu_ms}, ratio: {wall, cpu}, pairs}.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from './lib/stats.js';

type ClockModule = typeof import('../core/clock.js');
type EngineModule = typeof import('../core/engine/engine.js');
type PlanModule = typeof import('../core/reflect/plan.js');
type KeywordModule = typeof import('../core/recall/mnemo/keyword-index.js');
type StoreModule = typeof import('../core/store/sqlite/sqlite-store.js');
type ExplainModule = typeof import('../core/recall/explain.js');
type PipelineModule = typeof import('../core/recall/pipeline.js');
type DemoModule = typeof import('../core/demo/generate.js');

const { values } = parseArgs({
  options: {
    ref: { type: 'string' },
    what: { type: 'string', default: 'reflect,keyword,recall' },
    pairs: { type: 'string', default: '8' },
    queries: { type: 'string', default: '200' },
    size: { type: 'string', default: '100000' },
    json: { type: 'boolean', default: false },
  },
});
const log = (s: string) => (values.json ? console.error(s) : console.log(s));
if (!values.ref) {
  console.error('usage: npm run bench -- against --ref DIR [--what reflect,keyword,recall] [--pairs N] [--queries N] [--size N] [--json]');
  process.exit(2);
}

const NOW = 1_780_000_000;
const REFLECT_STORE = join(tmpdir(), 'mnemo-bench', 'demo-10000-7.sqlite');
const RECALL_STORE = join(tmpdir(), `mnemo-bench-recall-${values.size}-7.sqlite`);
const what = new Set(values.what!.split(','));
const pairs = Number(values.pairs);

interface Side {
  name: 'ref' | 'this';
  load<T>(modulePath: string): Promise<T>;
}
const side = (name: Side['name'], root: string): Side => ({
  name,
  load: async <T>(modulePath: string) => (await import(pathToFileURL(join(root, movedFrom(root, modulePath))).href)) as T,
});

/** Where a module that has since moved sat in an older checkout (the store's rooms came later). */
const EARLIER_PATHS: Record<string, string> = { 'core/store/sqlite/sqlite-store.ts': 'core/store/store.ts' };
function movedFrom(root: string, modulePath: string): string {
  const earlier = EARLIER_PATHS[modulePath];
  return earlier && !existsSync(join(root, modulePath)) ? earlier : modulePath;
}
const sides: [Side, Side] = [side('ref', resolve(values.ref)), side('this', join(fileURLToPath(import.meta.url), '..', '..'))];

interface Timing {
  wall: number;
  cpu: number;
}
async function timed(fn: () => unknown): Promise<Timing> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

/** Runs `measure` for both sides `n` times, the ref first in even rounds (counting from `from`) and this checkout first in odd ones. */
async function alternate(n: number, measure: [() => unknown, () => unknown], from = 0): Promise<{ ref: Timing[]; this: Timing[] }> {
  const out = { ref: [] as Timing[], this: [] as Timing[] };
  for (let i = from; i < from + n; i++) {
    const order = i % 2 ? [1, 0] : [0, 1];
    for (const s of order) out[sides[s]!.name].push(await timed(measure[s]!));
  }
  return out;
}

const round = (x: number, digits = 0) => +x.toFixed(digits);
function compare(runs: { ref: Timing[]; this: Timing[] }, digits = 0) {
  const ratio = (k: keyof Timing) => round(median(runs.this.map((t, i) => t[k] / runs.ref[i]![k])), 3);
  const med = (ts: Timing[], k: keyof Timing) => round(median(ts.map((t) => t[k])), digits);
  return {
    ref: { wall_ms: med(runs.ref, 'wall'), cpu_ms: med(runs.ref, 'cpu') },
    this: { wall_ms: med(runs.this, 'wall'), cpu_ms: med(runs.this, 'cpu') },
    ratio: { wall: ratio('wall'), cpu: ratio('cpu') },
    pairs: runs.ref.length,
  };
}
const line = (label: string, c: ReturnType<typeof compare>) =>
  log(`  ${label.padEnd(28)} ref ${String(c.ref.wall_ms).padStart(8)} ms   this ${String(c.this.wall_ms).padStart(8)} ms   this/ref ${c.ratio.wall.toFixed(3)} wall, ${c.ratio.cpu.toFixed(3)} CPU`);

function requireStore(path: string, bench: string): void {
  if (existsSync(path)) return;
  console.error(`no store at ${path}: run \`npm run bench -- ${bench}\` in the ref checkout first`);
  process.exit(2);
}

const result: Record<string, unknown> = { bench: 'against', ref: values.ref };
log(`against ${values.ref}, ${pairs} alternating pairs; load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}`);

if (what.has('reflect')) {
  requireStore(REFLECT_STORE, 'reflect --sizes 10000');
  const measure = await Promise.all(
    sides.map(async (s) => {
      const { fixedClock } = await s.load<ClockModule>('core/clock.ts');
      const { Engine } = await s.load<EngineModule>('core/engine/engine.ts');
      const { planReflection } = await s.load<PlanModule>('core/reflect/plan.ts');
      const engine = Engine.open(REFLECT_STORE, { clock: fixedClock(NOW), readonly: true, onWarning: () => {} });
      return { engine, run: () => planReflection(engine) };
    }),
  );
  await alternate(1, [measure[0]!.run, measure[1]!.run]); // warm-up
  const c = compare(await alternate(pairs, [measure[0]!.run, measure[1]!.run]));
  for (const m of measure) m.engine.close();
  line('reflect plan, 10k', c);
  result.reflect = c;
}

if (what.has('keyword')) {
  requireStore(RECALL_STORE, `recall --size ${values.size}`);
  const measure = await Promise.all(
    sides.map(async (s) => {
      const { KeywordIndex } = await s.load<KeywordModule>('core/recall/mnemo/keyword-index.ts');
      const { MemoryStore } = await s.load<StoreModule>('core/store/sqlite/sqlite-store.ts');
      const store = MemoryStore.open(RECALL_STORE, { readonly: true });
      const run = () => {
        const index = new KeywordIndex(true);
        index.load(store);
        index.dispose();
      };
      return { store, run };
    }),
  );
  const c = compare(await alternate(Math.max(1, Math.ceil(pairs / 2)), [measure[0]!.run, measure[1]!.run]));
  for (const m of measure) m.store.close();
  line(`keyword index load, ${values.size}`, c);
  result.keyword = c;
}

if (what.has('recall')) {
  requireStore(RECALL_STORE, `recall --size ${values.size}`);
  const measure = await Promise.all(
    sides.map(async (s) => {
      const { fixedClock } = await s.load<ClockModule>('core/clock.ts');
      const { Engine } = await s.load<EngineModule>('core/engine/engine.ts');
      const { explain } = await s.load<ExplainModule>('core/recall/explain.ts');
      const { recallCorpus } = await s.load<PipelineModule>('core/recall/pipeline.ts');
      const { rng } = await s.load<DemoModule>('core/demo/generate.ts');
      const engine = Engine.open(RECALL_STORE, { readonly: true, clock: fixedClock(NOW) });
      engine.vectors.get();
      return { engine, explain, corpus: recallCorpus(engine), rng };
    }),
  );
  // The recall benchmark's three kinds of query, drawn once from the store's contents.
  const { corpus, rng } = measure[0]!;
  const rand = rng(8);
  const queries: string[] = [];
  while (queries.length < Number(values.queries)) {
    const words = (corpus.contents[Math.floor(rand() * corpus.size)] ?? '').split(/\s+/).filter(Boolean);
    if (words.length < 3) continue;
    const kind = queries.length % 3;
    if (kind === 0) queries.push(words.slice(0, 3 + Math.floor(rand() * 6)).join(' '));
    else if (kind === 1) queries.push([words[Math.floor(rand() * words.length)], words[Math.floor(rand() * words.length)]].join(' '));
    else queries.push(words.slice(Math.floor(words.length / 2)).join(' '));
  }
  for (const m of measure) m.explain(m.engine, { query: queries[0]!, k: 10, hops: 1 }); // builds the keyword index
  for (const q of queries.slice(0, 20)) for (const m of measure) m.explain(m.engine, { query: q, k: 10, hops: 1 });
  for (const hops of [1, 2]) {
    const runs = { ref: [] as Timing[], this: [] as Timing[] };
    for (const [i, q] of queries.entries()) {
      const r = await alternate(1, [() => measure[0]!.explain(measure[0]!.engine, { query: q, k: 10, hops }), () => measure[1]!.explain(measure[1]!.engine, { query: q, k: 10, hops })], i);
      runs.ref.push(...r.ref);
      runs.this.push(...r.this);
    }
    const c = compare(runs, 2);
    line(`explain hops=${hops}, ${values.size} (p50)`, c);
    result[`recall_hops${hops}`] = c;
  }
  for (const m of measure) m.engine.close();
}

if (values.json) console.log(JSON.stringify(result));
