/**
 * Many agents writing one store at once, each through its own `mnemo mcp` process (stdio), while
 * browser mode (`mnemo serve`, another process) keeps the open list current and recalls: the
 * PostgreSQL issue's concurrency run, shared by its test (a small run) and its benchmark (the full
 * one, bench/fleet-writers.ts).
 *
 * Each agent remembers memories with new wording (so none is a reinforcement of another), and after
 * every `recallEvery`-th write recalls it by its own words: the write must be in the answer, at
 * once (read-your-writes). The viewer long-polls the server's live-refresh generation as the
 * workbench does and, each time it moves, lists the newest memories; a memory's list latency is from
 * the moment its `remember` returned to the moment the list first showed it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mulberry32 } from '../core/model/seeded-random.js';
import { openStoreAt } from '../core/store/open-location.js';
import { ownerSummaries } from '../core/store/queries/owner-summaries.js';

export interface FleetOptions {
  /** The store (a postgres:// URL, or a SQLite path for comparison). */
  store: string;
  /** The project's root (where cli/main.ts is). */
  root: string;
  agents: number;
  perAgent: number;
  recallEvery: number;
  /** The viewer's newest-first page (default 200, the workbench's page): enough to hold every write between two of its looks. */
  listWindow?: number;
  /**
   * How browser mode hears other processes' commits: `listen` (default), PostgreSQL's commit
   * notifications waking a check at once; `poll`, the 400 ms poll alone (MNEMO_PG_LISTEN=off), as
   * SQLite stores always do and as the baseline the benchmark compares with.
   */
  live?: 'listen' | 'poll';
  /** Stops the agents after the write each is making (a long run cut short still reports, on what was written). */
  signal?: AbortSignal;
  /** Told every 30 s how far the run is (a long run's progress). */
  onProgress?: (p: { writes: number; errors: number; own_write_misses: number; elapsed_s: number }) => void;
}

export interface FleetReport {
  live: 'listen' | 'poll';
  agents: number;
  per_agent: number;
  writes: number;
  errors: number;
  first_errors: string[];
  /** Rows per owner that are missing at the end (acknowledged writes − rows found), summed. */
  lost_writes: number;
  /** Writes each agent's `remember` acknowledged. */
  acknowledged_per_owner: Record<string, number>;
  /** Whether the run was stopped before every agent wrote `per_agent` memories. */
  stopped_early: boolean;
  rows_per_owner: Record<string, number>;
  recalls: number;
  /** Recalls right after a write that did not return that write. */
  own_write_misses: number;
  /** Written memories the viewer's list never showed while the run lasted. */
  list_never_shown: number;
  list_latency_ms: Quantiles;
  /** When in the run (seconds from the first agent's start) the slowest-shown write returned, and its latency. */
  slowest_shown: { at_s: number; latency_ms: number } | null;
  viewer_recalls: number;
  viewer_errors: number;
  /**
   * What a write's list latency is made of: how long the viewer waited for the live-refresh
   * generation to move (a long wait while agents write is the server not noticing their commits, or
   * its thread held), then its list and recall requests.
   */
  viewer_request_ms: { wait: Quantiles; list: Quantiles; recall: Quantiles };
  /** The list latency's p95 by the minutes in which the writes returned, with the 1-minute load average then: whether a slow stretch follows the machine's load. */
  list_p95_by_window: { from_s: number; writes: number; p95_ms: number; load: number }[];
  wall_s: number;
  writes_per_s: number;
}

const WORDS = 'amber basil cobalt delta ember fjord garnet harbor indigo juniper kestrel lumen mosaic nectar onyx pylon quartz raven saffron tundra umber vortex willow xenon yarrow zephyr anchor beacon cinder dune'.split(' ');

function wording(agent: number, n: number, rand: () => number): string {
  const words = Array.from({ length: 7 }, () => WORDS[Math.floor(rand() * WORDS.length)]!);
  return `fleet agent ${agent} observed ${words.join(' ')} at step ${n} (mark a${agent}n${n}x)`;
}

/** Numbers in [0, 1) from a seed: the same wording on every run. */
function rng(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

interface Quantiles {
  p50: number;
  p95: number;
  max: number;
}

/** The length of one window of list_p95_by_window. */
const WINDOW_S = 300;

const quantiles = (xs: number[]): Quantiles => ({ p50: Math.round(quantile(xs, 0.5)), p95: Math.round(quantile(xs, 0.95)), max: Math.round(quantile(xs, 1)) });

const quantile = (xs: number[], q: number): number => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))]!;
};

async function startServe(root: string, store: string, live: 'listen' | 'poll'): Promise<{ child: ChildProcess; base: string; token: string }> {
  const env = live === 'poll' ? { ...process.env, MNEMO_PG_LISTEN: 'off' } : process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'cli', 'main.ts'), 'serve', store, '--port', '0'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mnemo serve did not print its URL in 60 s: ${err}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /open: (http:\/\/127\.0\.0\.1:\d+\/)#token=([\w-]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, base: m[1]!, token: m[2]! });
      }
    });
    child.on('exit', (code) => reject(new Error(`mnemo serve exited (${code}): ${err}`)));
  });
}

async function api(base: string, token: string, method: string, input: unknown): Promise<{ ok: boolean; value?: any; error?: { message: string } }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(`${base}api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-mnemo-token': token }, body: JSON.stringify(input) });
  return (await res.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
}

/** fetch's own message is only "fetch failed": the socket's error (a reset, a closed keep-alive socket…) is in its cause. */
function failureText(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  return e.cause ? `${e.message} (${[e.cause.code, e.cause.message].filter(Boolean).join(': ')})` : e.message;
}

function structured(r: CallToolResult): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  if (r.isError) throw new Error(r.content.map((c) => (c.type === 'text' ? c.text : '')).join(' '));
  return r.structuredContent;
}

export async function runFleet(opts: FleetOptions): Promise<FleetReport> {
  const window = opts.listWindow ?? 200;
  const live = opts.live ?? 'listen';
  const serve = await startServe(opts.root, opts.store, live);
  const written = new Map<string, number>();
  const acknowledged: Record<string, number> = {};
  const firstShown = new Map<string, number>();
  const errors: string[] = [];
  let recalls = 0;
  let misses = 0;
  let viewerRecalls = 0;
  let viewerErrors = 0;
  const waitMs: number[] = [];
  const listMs: number[] = [];
  const recallMs: number[] = [];
  const loadByWindow = new Map<number, number>();
  let running = true;

  const noteViewerError = (text: string) => {
    viewerErrors += 1;
    if (viewerErrors <= 3) errors.push(`viewer: ${text}`);
  };
  const viewer = (async () => {
    let generation = -1;
    while (running) {
      try {
        const waited = performance.now();
        const ev = await fetch(`${serve.base}api/_events`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-mnemo-token': serve.token }, body: JSON.stringify({ after: generation }) });
        const body = (await ev.json()) as { value?: { generation?: number } };
        generation = body.value?.generation ?? generation;
        waitMs.push(performance.now() - waited);
        // The open views refetch together when the generation moves, as the workbench's do: the list's first page and a recall.
        const asked = performance.now();
        const listed = api(serve.base, serve.token, 'memory.list', { sort: 'rowid', dir: 'desc', limit: window, archived: 'all' }).then((page) => {
          if (!page.ok) throw new Error(page.error?.message);
          const now = performance.now();
          listMs.push(now - asked);
          for (const r of page.value.rows as { id: string }[]) if (!firstShown.has(r.id)) firstShown.set(r.id, now);
        });
        // A dry run, as the workbench's recall view makes: a touching recall would move the generation itself.
        const recalled = api(serve.base, serve.token, 'recall.explain', { query: 'fleet agent observed harbor', k: 5 }).then((rec) => {
          recallMs.push(performance.now() - asked);
          viewerRecalls += 1;
          if (!rec.ok) noteViewerError(`recall: ${rec.error?.message ?? 'failed without a message'}`);
        });
        await Promise.all([listed, recalled]);
      } catch (err) {
        noteViewerError(failureText(err));
      }
    }
  })();

  const t0 = performance.now();
  // The load in each window, sampled at its start and every 30 s, the highest kept.
  const sampleLoad = () => {
    const w = Math.floor((performance.now() - t0) / 1000 / WINDOW_S);
    loadByWindow.set(w, Math.max(loadByWindow.get(w) ?? 0, loadavg()[0]!));
  };
  sampleLoad();
  const loadSampler = setInterval(sampleLoad, 30_000);
  const progress = opts.onProgress
    ? setInterval(() => opts.onProgress!({ writes: written.size, errors: errors.length, own_write_misses: misses, elapsed_s: Math.round((performance.now() - t0) / 1000) }), 30_000)
    : null;
  const agents = Array.from({ length: opts.agents }, async (_x, i) => {
    const owner = `w${i}@fleet`;
    const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', join(opts.root, 'cli', 'main.ts'), 'mcp', opts.store, '--owner', owner, '--session', `fleet-${i}`], cwd: opts.root, stderr: 'pipe' });
    const client = new Client({ name: `fleet-${i}`, version: '0.0.0' });
    await client.connect(transport);
    const rand = rng(1000 + i);
    try {
      acknowledged[owner] = 0;
      for (let n = 0; n < opts.perAgent && !opts.signal?.aborted; n++) {
        const content = wording(i, n, rand);
        try {
          const d = structured((await client.callTool({ name: 'remember', arguments: { content } })) as CallToolResult);
          written.set(d.id as string, performance.now());
          acknowledged[owner] += 1;
          if ((n + 1) % opts.recallEvery === 0) {
            recalls += 1;
            const r = structured((await client.callTool({ name: 'recall', arguments: { query: content, k: 5 } })) as CallToolResult);
            if (!(r.results as { id: string }[]).some((x) => x.id === d.id)) misses += 1;
          }
        } catch (err) {
          errors.push(`${owner} step ${n}: ${(err as Error).message}`);
        }
      }
    } finally {
      await client.close();
    }
  });
  await Promise.all(agents);
  if (progress) clearInterval(progress);
  clearInterval(loadSampler);
  const wall = (performance.now() - t0) / 1000;
  // Give the list its chance to show the last writes (the bound the run checks is 1 s; wait 3).
  const deadline = performance.now() + 3000;
  while (performance.now() < deadline && [...written.keys()].some((id) => !firstShown.has(id))) await new Promise((r) => setTimeout(r, 100));
  running = false;
  await viewer;
  serve.child.kill('SIGTERM');

  const rows: Record<string, number> = {};
  const store = openStoreAt(opts.store, { readonly: true });
  try {
    // Exactly the owner's rows: an owner filter also matches the shared ones (owner ''), which a
    // seeded store has thousands of, and those would hide lost writes.
    const exact = new Map(ownerSummaries(store, 1000).owners.map((o) => [o.owner, o.live + o.archived]));
    for (let i = 0; i < opts.agents; i++) rows[`w${i}@fleet`] = exact.get(`w${i}@fleet`) ?? 0;
  } finally {
    store.close();
  }
  const shown = [...written].filter(([id]) => firstShown.has(id)).map(([id, at]) => ({ at, latency: Math.max(0, firstShown.get(id)! - at) }));
  const latencies = shown.map((x) => x.latency);
  const byWindow = new Map<number, number[]>();
  for (const x of shown) {
    const w = Math.floor((x.at - t0) / 1000 / WINDOW_S);
    const xs = byWindow.get(w);
    if (xs) xs.push(x.latency);
    else byWindow.set(w, [x.latency]);
  }
  const slowest = shown.reduce<{ at: number; latency: number } | null>((a, x) => (a && a.latency >= x.latency ? a : x), null);
  const lost = Object.entries(rows).reduce((a, [owner, n]) => a + Math.max(0, (acknowledged[owner] ?? 0) - n), 0);
  return {
    live,
    agents: opts.agents,
    per_agent: opts.perAgent,
    writes: written.size,
    errors: errors.length,
    first_errors: errors.slice(0, 5),
    lost_writes: lost,
    acknowledged_per_owner: acknowledged,
    stopped_early: opts.signal?.aborted ?? false,
    rows_per_owner: rows,
    recalls,
    own_write_misses: misses,
    list_never_shown: [...written.keys()].filter((id) => !firstShown.has(id)).length,
    list_latency_ms: quantiles(latencies),
    slowest_shown: slowest ? { at_s: Math.round((slowest.at - t0) / 100) / 10, latency_ms: Math.round(slowest.latency) } : null,
    viewer_recalls: viewerRecalls,
    viewer_errors: viewerErrors,
    viewer_request_ms: { wait: quantiles(waitMs), list: quantiles(listMs), recall: quantiles(recallMs) },
    list_p95_by_window: [...byWindow]
      .sort((a, b) => a[0] - b[0])
      .map(([w, xs]) => ({ from_s: w * WINDOW_S, writes: xs.length, p95_ms: Math.round(quantile(xs, 0.95)), load: Math.round((loadByWindow.get(w) ?? 0) * 10) / 10 })),
    wall_s: Math.round(wall * 10) / 10,
    writes_per_s: Math.round(written.size / wall),
  };
}
