/**
 * Recall latency on both backends for `npm run bench -- backends`: the same queries on a warm
 * engine per backend, explain at k = 10, hops = 1 (what `npm run bench -- recall` times), the
 * backends taking turns within each round and alternating which goes first, so load from elsewhere
 * on the machine falls on both alike.
 */
import { fixedClock } from '../../core/clock.js';
import { rng } from '../../core/demo/generate.js';
import { Engine } from '../../core/engine/engine.js';
import { explain } from '../../core/recall/explain.js';
import { recallCorpus } from '../../core/recall/pipeline.js';
import { BACKENDS, type Backend, type BackendCopies } from './backend-copies.js';
import { percentile } from './stats.js';

export interface RecallFigures {
  p50_ms: number;
  p95_ms: number;
  samples: number;
  /** The first explain after opening: loads the recall indexes (not counted in p50 / p95). */
  first_ms: number;
}

/** Sentence-like prefixes, keyword pairs and tail fragments of stored memories (as bench/recall.ts makes them). */
export function demoQueries(engine: Engine, n: number, seed: number): string[] {
  const corpus = recallCorpus(engine);
  const rand = rng(seed);
  const out: string[] = [];
  while (out.length < n) {
    const words = (corpus.size ? corpus.contentOf(Math.floor(rand() * corpus.size)) : '').split(/\s+/).filter(Boolean);
    if (words.length < 3) continue;
    const kind = out.length % 3;
    if (kind === 0) out.push(words.slice(0, 3 + Math.floor(rand() * 6)).join(' '));
    else if (kind === 1) out.push([words[Math.floor(rand() * words.length)], words[Math.floor(rand() * words.length)]].join(' '));
    else out.push(words.slice(Math.floor(words.length / 2)).join(' '));
  }
  return out;
}

const timed = (fn: () => void): number => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};

export function measureRecall(copies: BackendCopies, opts: { rounds: number; queries: number; now: number; log: (line: string) => void }): Record<Backend, RecallFigures> {
  const engines = Object.fromEntries(BACKENDS.map((b) => [b, Engine.open(copies[b], { readonly: true, clock: fixedClock(opts.now), onWarning: () => {} })])) as Record<Backend, Engine>;
  try {
    const queries = demoQueries(engines.sqlite, opts.queries, 8);
    const first = Object.fromEntries(BACKENDS.map((b) => [b, timed(() => explain(engines[b], { query: queries[0]!, k: 10, hops: 1 }))])) as Record<Backend, number>;
    for (const b of BACKENDS) for (const q of queries.slice(0, 20)) explain(engines[b], { query: q, k: 10, hops: 1 }); // warm-up
    const samples: Record<Backend, number[]> = { sqlite: [], postgres: [] };
    for (let r = 0; r < opts.rounds; r++) {
      const order = r % 2 === 0 ? BACKENDS : [...BACKENDS].reverse();
      for (const b of order) for (const q of queries) samples[b].push(timed(() => explain(engines[b], { query: q, k: 10, hops: 1 })));
      opts.log(`  recall round ${r + 1}/${opts.rounds}: ${BACKENDS.map((b) => `${b} p50 ${percentile(samples[b], 0.5).toFixed(1)} ms`).join(', ')}`);
    }
    return Object.fromEntries(
      BACKENDS.map((b) => [b, { p50_ms: Number(percentile(samples[b], 0.5).toFixed(2)), p95_ms: Number(percentile(samples[b], 0.95).toFixed(2)), samples: samples[b].length, first_ms: Math.round(first[b]) }]),
    ) as Record<Backend, RecallFigures>;
  } finally {
    for (const b of BACKENDS) engines[b].close();
  }
}
