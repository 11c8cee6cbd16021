/**
 * The MCP half of `npm run bench -- responsiveness`: `mnemo mcp --http` on a cold store copy, eight
 * agent sessions calling `recall` in a loop while one more session runs `reflect` (a reflection
 * pass over its role and the unowned memories: about half of the demo store). Each agent is its own
 * credential and owner. The first recall of each (the indexes built) is a warm-up, reported apart;
 * a quiet window of recalls before the reflect is the baseline within the run.
 */
import { issueCredential } from '../../core/agent/credentials.js';
import { fixedClock } from '../../core/clock.js';
import { rng } from '../../core/demo/generate.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { latencyFigures, type LatencyFigures, type Poll } from './latency-poller.js';
import { connectLoadClient, recallArgs, type LoadClient } from './mcp-load-client.js';
import { startMnemoChild } from './mnemo-child.js';
import { rssBytes } from './process-stats.js';

const ROLES = ['Planner', 'Coder', 'Reviewer'];

export interface McpFigures {
  agents: number;
  think_ms: number;
  warmup: { first_recall_ms: number; all_first_recalls_ms: number };
  quiet: LatencyFigures;
  during_reflect: LatencyFigures;
  reflect: { ms: number; ok: boolean; error?: string; text?: string };
  /** Which recalls missed the max target during the reflect, and when (seconds into it): where in the pass an agent waits. */
  slow_during_reflect: SlowCalls;
  rss_mb_after_warmup: number | null;
  rss_mb_peak: number | null;
}

/** An agent's recall slower than the max target. */
const SLOW_MS = 300;

export interface SlowCalls {
  count: number;
  /** The ten slowest, in the order they started. */
  slowest: { at_s: number; ms: number }[];
  /** How many started in each tenth of the reflect. */
  by_tenth: number[];
}

function slowCalls(polls: readonly Poll[], spanMs: number): SlowCalls {
  const slow = polls.filter((p) => p.ms > SLOW_MS);
  const by_tenth = Array.from({ length: 10 }, () => 0);
  for (const p of slow) by_tenth[Math.min(9, Math.floor((10 * (p.at_ms ?? 0)) / Math.max(1, spanMs)))]!++;
  const slowest = [...slow]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 10)
    .sort((a, b) => (a.at_ms ?? 0) - (b.at_ms ?? 0))
    .map((p) => ({ at_s: Math.round((p.at_ms ?? 0) / 100) / 10, ms: Math.round(p.ms) }));
  return { count: slow.length, slowest, by_tenth };
}

const mb = (b: number | null) => (b === null ? null : Math.round(b / 1e5) / 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Recall back to back (with `thinkMs` between an answer and the next call) until `stop()` says so; each call's start from `t0`. */
async function recallLoop(client: LoadClient, rand: () => number, thinkMs: number, stop: () => boolean, t0 = performance.now()): Promise<Poll[]> {
  const polls: Poll[] = [];
  while (!stop()) {
    const at = performance.now() - t0;
    const r = await client.call('recall', recallArgs(rand));
    polls.push({ ms: r.ms, ok: r.ok, at_ms: Math.round(at), ...(r.error ? { error: r.error } : {}) });
    if (thinkMs > 0) await sleep(thinkMs);
  }
  return polls;
}

/**
 * The warm-up recall builds the indexes of the whole store, and reflect plans over it: on a loaded
 * machine both take minutes, past the SDK's 60 s. A pass beside eight busy agents took 26 to 30
 * minutes at 100k, and one past 30 timed out, so an hour.
 */
const LONG_CALL_MS = 60 * 60_000;

export async function runMcpPhase(repo: string, db: string, opts: { now: number; agents: number; thinkMs: number; quietSeconds: number; log: (s: string) => void }): Promise<McpFigures> {
  const clock = fixedClock(opts.now);
  const store = MemoryStore.open(db, { clock });
  const owners = Array.from({ length: opts.agents }, (_, i) => `${ROLES[i % ROLES.length]}@resp-${i + 1}`);
  const tokens = owners.map((owner) => issueCredential(store, { owner, label: 'responsiveness' }, clock).token);
  const reflector = issueCredential(store, { owner: 'Coder@resp-reflect', label: 'responsiveness reflect' }, clock).token;
  store.close();
  const server = await startMnemoChild(repo, ['mcp', db, '--http', '--port', '0', '--now', String(opts.now)], { stream: 'stderr', pattern: /serving .* over HTTP at (http:\/\/\S+)/ });
  const url = server.match[1]!;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(server.pid) ?? 0)), 200);
  const clients: LoadClient[] = [];
  try {
    clients.push(...(await Promise.all(tokens.map((t, i) => connectLoadClient(url, t, `resp-${i + 1}`, { timeoutMs: LONG_CALL_MS })))));
    const reflectClient = await connectLoadClient(url, reflector, 'resp-reflect', { timeoutMs: LONG_CALL_MS });
    clients.push(reflectClient);
    let t0 = performance.now();
    const first = await clients[0]!.call('recall', recallArgs(rng(1)));
    const firstMs = performance.now() - t0;
    t0 = performance.now();
    const firsts = await Promise.all(clients.slice(0, opts.agents).map((c, i) => c.call('recall', recallArgs(rng(10 + i)))));
    const allFirstMs = performance.now() - t0 + firstMs;
    if (!first.ok || firsts.some((f) => !f.ok)) throw new Error(`the warm-up recalls failed: ${[first, ...firsts].find((f) => !f.ok)?.error}`);
    opts.log(`  warm-up: first recall ${(firstMs / 1000).toFixed(1)} s, every agent's first ${(allFirstMs / 1000).toFixed(1)} s; RSS ${mb(rssBytes(server.pid))} MB`);
    const rssWarm = mb(rssBytes(server.pid));

    const quietUntil = performance.now() + opts.quietSeconds * 1000;
    const quiet = (await Promise.all(clients.slice(0, opts.agents).map((c, i) => recallLoop(c, rng(100 + i), opts.thinkMs, () => performance.now() >= quietUntil)))).flat();
    const quietFigures = latencyFigures(quiet);
    opts.log(`  quiet: ${quietFigures.calls} recalls, p50 ${quietFigures.p50_ms} p99 ${quietFigures.p99_ms} max ${quietFigures.max_ms} ms`);

    let reflecting = true;
    t0 = performance.now();
    const reflect = reflectClient.call('reflect', {}).finally(() => (reflecting = false));
    const during = (await Promise.all(clients.slice(0, opts.agents).map((c, i) => recallLoop(c, rng(200 + i), opts.thinkMs, () => !reflecting, t0)))).flat();
    const r = await reflect;
    const reflectMs = performance.now() - t0;
    const duringFigures = latencyFigures(during);
    opts.log(`  during reflect (${(reflectMs / 1000).toFixed(1)} s${r.ok ? '' : `, FAILED: ${r.error}`}): ${duringFigures.calls} recalls, p50 ${duringFigures.p50_ms} p99 ${duringFigures.p99_ms} max ${duringFigures.max_ms} ms`);
    const slow = slowCalls(during, reflectMs);
    opts.log(`  recalls over ${SLOW_MS} ms during it: ${slow.count}; by tenth of the pass [${slow.by_tenth.join(' ')}]; the slowest at ${slow.slowest.map((c) => `${c.at_s} s (${c.ms} ms)`).join(', ')}`);
    return {
      agents: opts.agents,
      think_ms: opts.thinkMs,
      warmup: { first_recall_ms: Math.round(firstMs), all_first_recalls_ms: Math.round(allFirstMs) },
      quiet: quietFigures,
      during_reflect: duringFigures,
      reflect: { ms: Math.round(reflectMs), ok: r.ok, ...(r.error ? { error: r.error } : {}) },
      slow_during_reflect: slow,
      rss_mb_after_warmup: rssWarm,
      rss_mb_peak: mb(peak || null),
    };
  } finally {
    clearInterval(sampler);
    await Promise.all(clients.map((c) => c.close()));
    await server.stop();
  }
}
