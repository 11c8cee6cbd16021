/**
 * `npm run bench -- recall-async [--size N] [--runs N] [--json]`
 *
 * What an asynchronous store port would cost recall (docs/architecture.md, "A network backend").
 * A PostgreSQL client answers with promises, so every store call on the recall path would become
 * an `await`. This measures that cost alone, without a network: explain (k = 10, hops 1) on the
 * demo store, (a) as it runs today and (b) in a bench-only variant that awaits once per store call
 * the same query made (counted by wrapping the store's methods, in both variants alike). The
 * difference of the medians is the price of the awaits; a real backend adds its round trips on
 * top, which is why the hot path keeps those calls few (the in-memory corpus and adjacency).
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { fixedClock } from '../core/clock.js';
import { rng } from '../core/demo/generate.js';
import { Engine } from '../core/engine/engine.js';
import { explain } from '../core/recall/explain.js';
import { recallCorpus } from '../core/recall/pipeline.js';
import { demoStoreCopy } from './lib/demo-store.js';
import { median } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '300' },
    json: { type: 'boolean', default: false },
  },
});
const log = (s: string) => (values.json ? console.error(s) : console.log(s));
const DEMO_NOW = 1_780_000_000;

const copy = demoStoreCopy(Number(values.size), DEMO_NOW, log);
const engine = Engine.open(copy, { readonly: true, clock: fixedClock(DEMO_NOW) });

/**
 * Counts the calls made through the port, by method name: the outermost ones only (the store's
 * calls to itself, such as catchUp's data_version check, would be inside one call of a backend).
 */
const calls = new Map<string, number>();
let callCount = 0;
let depth = 0;
const store = engine.store as unknown as Record<string, unknown>;
for (let proto = Object.getPrototypeOf(engine.store) as object; proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object) {
  for (const name of Object.getOwnPropertyNames(proto)) {
    const fn = store[name];
    if (name === 'constructor' || typeof fn !== 'function' || Object.prototype.hasOwnProperty.call(store, name)) continue;
    store[name] = function (this: unknown, ...args: unknown[]) {
      if (depth === 0) {
        callCount++;
        calls.set(name, (calls.get(name) ?? 0) + 1);
      }
      depth++;
      try {
        return (fn as (...a: unknown[]) => unknown).apply(this, args);
      } finally {
        depth--;
      }
    };
  }
}

const corpus = recallCorpus(engine);
const rand = rng(11);
const queries: string[] = [];
while (queries.length < Number(values.runs)) {
  const words = (corpus.size ? corpus.contentOf(Math.floor(rand() * corpus.size)) : '').split(/\s+/).filter(Boolean);
  if (words.length >= 3) queries.push(words.slice(0, 2 + (queries.length % 5)).join(' '));
}
for (const q of queries.slice(0, 30)) explain(engine, { query: q, k: 10, hops: 1 }); // builds and warms the indexes
calls.clear();

const syncMs: number[] = [];
const awaitedMs: number[] = [];
const perQuery: number[] = [];
/** Awaited minus sync for the same query: paired, so the query's own cost cancels out. */
const pairedMs: number[] = [];
const runSync = (q: string): number => {
  const before = callCount;
  const s = performance.now();
  explain(engine, { query: q, k: 10, hops: 1 });
  syncMs.push(performance.now() - s);
  return callCount - before;
};
/** The same explain, then one await per store call it made: the microtask hops an async port adds. */
const runAwaited = async (q: string): Promise<void> => {
  const before = callCount;
  const s = performance.now();
  const result = explain(engine, { query: q, k: 10, hops: 1 });
  for (let i = callCount - before; i > 0; i--) await Promise.resolve(result);
  awaitedMs.push(performance.now() - s);
};
// Interleaved, alternating which variant goes first, so neither profits more from warm caches.
for (const [i, q] of queries.entries()) {
  if (i % 2) {
    await runAwaited(q);
    perQuery.push(runSync(q));
  } else {
    perQuery.push(runSync(q));
    await runAwaited(q);
  }
  pairedMs.push(awaitedMs.at(-1)! - syncMs.at(-1)!);
}
const byMethod = [...calls].sort((a, b) => b[1] - a[1]);
engine.close();
rmSync(dirname(copy), { recursive: true, force: true });

// The awaits alone, many times over: the same number per round as one explain makes.
const awaitsPerExplain = median(perQuery);
const rounds = 20_000;
const s = performance.now();
for (let r = 0; r < rounds; r++) for (let i = 0; i < awaitsPerExplain; i++) await Promise.resolve(r);
const awaitsAloneUs = ((performance.now() - s) / rounds) * 1000;

const result = {
  size: Number(values.size),
  queries: queries.length,
  store_calls_per_explain: awaitsPerExplain,
  calls_by_method: Object.fromEntries(byMethod.map(([k, n]) => [k, +(n / (2 * queries.length)).toFixed(2)])),
  sync_p50_ms: +median(syncMs).toFixed(3),
  awaited_p50_ms: +median(awaitedMs).toFixed(3),
  paired_difference_p50_ms: +median(pairedMs).toFixed(3),
  awaits_alone_us: +awaitsAloneUs.toFixed(3),
  awaits_alone_pct_of_sync_p50: +((100 * awaitsAloneUs) / 1000 / median(syncMs)).toFixed(4),
};
log(`explain on ${result.size} memories, ${result.queries} queries: ${result.store_calls_per_explain} store calls per explain`);
log(`  by method (per explain): ${JSON.stringify(result.calls_by_method)}`);
log(`  sync p50 ${result.sync_p50_ms} ms; awaiting each store call p50 ${result.awaited_p50_ms} ms; paired difference p50 ${result.paired_difference_p50_ms} ms`);
log(`  the ${awaitsPerExplain} awaits alone: ${result.awaits_alone_us} µs per explain (${result.awaits_alone_pct_of_sync_p50} % of the sync median)`);
if (values.json) console.log(JSON.stringify(result));
