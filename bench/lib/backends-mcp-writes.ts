/**
 * Writes through `mnemo mcp --http` for `npm run bench -- backends`: one server (the compiled CLI,
 * its engine in worker threads) on a store, and N agents, each an MCP session over HTTP with its
 * own credential and owner `m{i}@bench`, calling `remember` one after another for the window, each
 * with a new text (no near-duplicate to reinforce). All connect and write for a warm-up first
 * (counted apart), then write together. Afterwards each owner's rows are counted in the store: a
 * write the agent was told was new but that is not there is a lost write.
 */
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { issueCredential } from '../../core/agent/credentials.js';
import { fixedClock } from '../../core/clock.js';
import { openStoreAt } from '../../core/store/open-location.js';
import { cpuTimes, ownerCounts } from './backends-writes.js';
import { connectLoadClient, type LoadClient } from './mcp-load-client.js';
import { startMnemoChild } from './mnemo-child.js';

export interface McpWritePhase {
  agents: number;
  /** The server's agent workers (--workers), or null for its default. */
  workers: number | null;
  window_s: number;
  written: number;
  per_s: number;
  errors: number;
  lost: number;
  first_error: string | null;
  busy_cores: number;
  cores: number;
  /** Each agent's remember latency, median and worst (ms). */
  p50_ms: number;
  max_ms: number;
}

const ownerOf = (i: number) => `m${i}@bench`;
const WARM_MS = 3_000;

interface Tally {
  written: number;
  errors: number;
  firstError: string | null;
  ms: number[];
}

async function writeFor(client: LoadClient, owner: string, ms: number, tally: Tally, counter: { n: number }): Promise<void> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Random words of their own: the hashing embedder puts them far from every other note, so each is a new memory.
    const words = Array.from({ length: 6 }, () => randomBytes(5).toString('hex')).join(' ');
    const r = await client.call('remember', { content: `${owner} note ${counter.n++}: ${words}`, tags: ['bench'] });
    tally.ms.push(r.ms);
    if (!r.ok) {
      tally.errors += 1;
      tally.firstError ??= r.error ?? 'failed';
    } else tally.written += 1;
  }
}

export async function mcpWritePhase(opts: { repo: string; location: string; serverUrl: string; agents: number; windowMs: number; now: number; workers: number | null; env: Record<string, string> }): Promise<McpWritePhase> {
  const clock = fixedClock(opts.now);
  const store = openStoreAt(opts.location, { clock });
  const tokens = Array.from({ length: opts.agents }, (_, i) => {
    try {
      return issueCredential(store, { owner: ownerOf(i), label: 'bench backends mcp' }, clock).token;
    } catch (err) {
      store.close();
      throw err;
    }
  });
  store.close();
  const before = ownerCounts(opts.location, opts.agents, opts.now, ownerOf);
  const server = await startMnemoChild(
    opts.repo,
    ['mcp', opts.serverUrl, '--http', '--port', '0', '--now', String(opts.now), ...(opts.workers ? ['--workers', String(opts.workers)] : [])],
    { stream: 'stderr', pattern: /serving .* over HTTP at (http:\/\/\S+)/ },
    opts.env,
  );
  const clients: LoadClient[] = [];
  try {
    clients.push(...(await Promise.all(tokens.map((t, i) => connectLoadClient(server.match[1]!, t, `bench-writer-${i}`)))));
    const warmed: Tally[] = clients.map(() => ({ written: 0, errors: 0, firstError: null, ms: [] }));
    const counters = clients.map(() => ({ n: 0 }));
    await Promise.all(clients.map((c, i) => writeFor(c, ownerOf(i), WARM_MS, warmed[i]!, counters[i]!)));
    const tallies: Tally[] = clients.map(() => ({ written: 0, errors: 0, firstError: null, ms: [] }));
    const cpu0 = cpuTimes();
    const t0 = performance.now();
    await Promise.all(clients.map((c, i) => writeFor(c, ownerOf(i), opts.windowMs, tallies[i]!, counters[i]!)));
    const elapsedS = (performance.now() - t0) / 1000;
    const cpu1 = cpuTimes();
    const after = ownerCounts(opts.location, opts.agents, opts.now, ownerOf);
    const written = tallies.reduce((n, t) => n + t.written, 0);
    const ms = tallies.flatMap((t) => t.ms).sort((a, b) => a - b);
    return {
      agents: opts.agents,
      workers: opts.workers,
      window_s: Number(elapsedS.toFixed(2)),
      written,
      per_s: Number((written / elapsedS).toFixed(1)),
      errors: tallies.reduce((n, t) => n + t.errors, 0) + warmed.reduce((n, t) => n + t.errors, 0),
      lost: tallies.reduce((n, t, i) => n + Math.max(0, t.written + warmed[i]!.written - (after[i]! - before[i]!)), 0),
      first_error: tallies.find((t) => t.firstError)?.firstError ?? warmed.find((t) => t.firstError)?.firstError ?? null,
      busy_cores: Number((((cpu1.busy - cpu0.busy) / (cpu1.total - cpu0.total)) * cpus().length).toFixed(2)),
      cores: cpus().length,
      p50_ms: Math.round(ms[Math.floor(ms.length / 2)] ?? 0),
      max_ms: Math.round(ms[ms.length - 1] ?? 0),
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await server.stop();
  }
}
