/**
 * Recall latency on both backends for `npm run bench -- backends`: the same queries on a warm
 * engine per backend (each in a process of its own), explain at k = 10, hops = 1 (what `npm run
 * bench -- recall` times), the backends taking turns within each round and alternating which goes
 * first, so load from elsewhere on the machine falls on both alike.
 */
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from '../../core/demo/generate.js';
import type { Engine } from '../../core/engine/engine.js';
import { recallCorpus } from '../../core/recall/pipeline.js';
import { BACKENDS, type Backend, type BackendCopies } from './backend-copies.js';
import type { RecallChildReply, RecallChildRequest } from './backends-recall-child.js';
import { percentile } from './stats.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'backends-recall-child.ts');

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

/** A backend's recall child (backends-recall-child.ts), answering one request at a time. */
interface RecallChild {
  ask<K extends RecallChildRequest['kind']>(request: Extract<RecallChildRequest, { kind: K }>): Promise<Extract<RecallChildReply, { kind: K }>>;
  close(): Promise<void>;
}

function recallChild(location: string, now: number): RecallChild {
  const child = fork(CHILD, [location, String(now)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    ask: (request) =>
      new Promise((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`the recall child for ${location} exited with ${code} before answering`));
        child.once('exit', onExit);
        child.once('message', (reply: RecallChildReply) => {
          child.off('exit', onExit);
          if (reply.kind === 'error') reject(new Error(`the recall child for ${location}: ${reply.message}`));
          else resolve(reply as never);
        });
        child.send(request);
      }),
    close: async () => {
      if (child.connected) child.disconnect();
      await exited;
    },
  };
}

/**
 * Each backend's engine lives in a child process of its own (backends-recall-child.ts says why);
 * the children take turns, so only one explains at a time, as when both engines shared this process.
 */
export async function measureRecall(copies: BackendCopies, opts: { rounds: number; queries: number; now: number; log: (line: string) => void }): Promise<Record<Backend, RecallFigures>> {
  const children = Object.fromEntries(BACKENDS.map((b) => [b, recallChild(copies[b], opts.now)])) as Record<Backend, RecallChild>;
  try {
    const { queries } = await children.sqlite.ask({ kind: 'queries', n: opts.queries, seed: 8 });
    const first = {} as Record<Backend, number>;
    for (const b of BACKENDS) first[b] = (await children[b].ask({ kind: 'explain', queries: [queries[0]!] })).ms[0]!;
    for (const b of BACKENDS) await children[b].ask({ kind: 'explain', queries: queries.slice(0, 20) }); // warm-up
    const samples: Record<Backend, number[]> = { sqlite: [], postgres: [] };
    for (let r = 0; r < opts.rounds; r++) {
      const order = r % 2 === 0 ? BACKENDS : [...BACKENDS].reverse();
      for (const b of order) samples[b].push(...(await children[b].ask({ kind: 'explain', queries })).ms);
      opts.log(`  recall round ${r + 1}/${opts.rounds}: ${BACKENDS.map((b) => `${b} p50 ${percentile(samples[b], 0.5).toFixed(1)} ms`).join(', ')}`);
    }
    return Object.fromEntries(
      BACKENDS.map((b) => [b, { p50_ms: Number(percentile(samples[b], 0.5).toFixed(2)), p95_ms: Number(percentile(samples[b], 0.95).toFixed(2)), samples: samples[b].length, first_ms: Math.round(first[b]) }]),
    ) as Record<Backend, RecallFigures>;
  } finally {
    await Promise.all(BACKENDS.map((b) => children[b].close()));
  }
}
