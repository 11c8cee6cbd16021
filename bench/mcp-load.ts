/**
 * `npm run bench -- mcp-load [--size 5000] [--db PATH] [--sessions 50] [--seconds 10] [--interval-ms 1000] [--flood-concurrency 1] [--flood-batch 1] [--rounds 3] [--cpu-prof DIR] [--json]`
 *
 * Many remote agents on one `mnemo mcp --http` server (issue #18's load acceptance). On a copy of
 * the cached demo store (or of --db), it issues one credential per agent (each its own owner, the
 * demo's roles in turn) plus one for a flooder, starts the server as a child process, and warms it
 * (the first recall builds the recall indexes of the whole store: reported apart, not in p95).
 * Phase A: every agent, over the SDK's Streamable HTTP client, makes one call per interval
 * (recall and remember in turn, waiting for each answer). Phase B: the same, while one more agent
 * (its own process) calls recall back to back at full speed (--flood-concurrency POSTs at once on
 * its one session, each a JSON-RPC batch of --flood-batch recalls when that is over 1: the server is
 * started with --max-batch to match, so every call of a batch meets the per-call limits); a 429 it
 * gets is counted as its own, never as an error of the others. Each
 * phase lasts --seconds in all, in --rounds windows that alternate (A B A B …) so that the shared
 * machine's changing load weighs on both alike. Reports per phase and op the calls, errors (with
 * the first messages), p50/p95/max ms and the server's CPU time; lost writes (a remember answered
 * with an id that is not in the store once the server has stopped); the server's RSS after the
 * warm-up, after each window and at its peak; p95(B)/p95(A) of the paced agents; and the load
 * average. With --json the last line is one JSON object with those figures. The copy is deleted.
 */
import { fork } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { issueCredential } from '../core/agent/credentials.js';
import { fixedClock } from '../core/clock.js';
import { rng } from '../core/demo/generate.js';
import { MemoryStore } from '../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../support/fixture.js';
import { startMcpHttpChild } from '../support/mcp-http-child.js';
import { demoStoreCopy } from './lib/demo-store.js';
import { connectLoadClient, pacedAgent, recallArgs, rememberArgs, type CallRecord, type LoadClient } from './lib/mcp-load-client.js';
import { byOp, firstErrors, ratio, summarise } from './lib/mcp-load-report.js';
import { cpuSeconds, rssBytes } from './lib/process-stats.js';
import { countMemories } from '../core/store/queries/memory-lookups.js';

const NOW = 1_780_000_000;
const ROLES = ['Planner', 'Coder', 'Reviewer'];

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '5000' },
    db: { type: 'string' },
    sessions: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '10' },
    'interval-ms': { type: 'string', default: '1000' },
    'flood-concurrency': { type: 'string', default: '1' },
    'flood-batch': { type: 'string', default: '1' },
    rounds: { type: 'string', default: '3' },
    'cpu-prof': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const json = values.json === true;
const log = (s: string) => (json ? process.stderr : process.stdout).write(`${s}\n`);
const sessions = Number(values.sessions);
const seconds = Number(values.seconds);
const intervalMs = Number(values['interval-ms']);
const floodConcurrency = Number(values['flood-concurrency']);
const floodBatch = Number(values['flood-batch']);
const rounds = Number(values.rounds);
for (const [name, n] of [['sessions', sessions], ['seconds', seconds], ['interval-ms', intervalMs], ['flood-concurrency', floodConcurrency], ['flood-batch', floodBatch], ['rounds', rounds]] as const) {
  if (!(n > 0)) throw new Error(`--${name} must be a positive number`);
}
const mb = (bytes: number | null) => (bytes === null ? null : Math.round(bytes / 1e5) / 10);
const loadAverage = () => loadavg().map((l) => Math.round(l * 100) / 100);

// The store: a copy, so the cached demo store (or --db) is never written.
let path: string;
if (values.db) {
  path = join(tempDir('mnemo-bench-'), 'store.sqlite');
  copyFileSync(values.db, path);
} else {
  path = demoStoreCopy(Number(values.size), NOW, log);
}
const clock = fixedClock(NOW);
const store = MemoryStore.open(path, { clock });
const memories = countMemories(store, { includeArchived: true });
const owners = Array.from({ length: sessions }, (_, i) => `${ROLES[i % ROLES.length]}@load-${i + 1}`);
const tokens = owners.map((owner) => issueCredential(store, { owner, label: 'mcp-load' }, clock).token);
const flooderToken = issueCredential(store, { owner: 'Coder@flood', label: 'mcp-load flooder' }, clock).token;
store.close();
const loadAtStart = loadAverage();
log(`${memories.toLocaleString()} memories; ${sessions} agents at one call per ${intervalMs} ms for ${seconds} s per phase in ${rounds} ${rounds === 1 ? 'round' : 'rounds'}; load average ${loadAtStart.join(' ')} on ${cpus().length} CPUs`);

// --cpu-prof DIR: the server writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
const profile = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : [];
const batchArgs = floodBatch > 1 ? ['--max-batch', String(floodBatch)] : [];
const server = await startMcpHttpChild(process.cwd(), ['mcp', path, '--http', '--port', '0', '--now', String(NOW), ...batchArgs], {}, profile).catch((err: unknown) => {
  rmSync(dirname(path), { recursive: true, force: true });
  throw err;
});
const pid = server.child.pid!;
const rssListening = rssBytes(pid);
const clients: LoadClient[] = [];
try {
  // Warm-up: the first recall builds the store's recall indexes; the first remember its write paths.
  let t0 = performance.now();
  clients.push(await connectLoadClient(server.url, tokens[0]!, 'mnemo-load-1'));
  const firstRecall = await clients[0]!.call('recall', recallArgs(rng(1)));
  const firstRemember = await clients[0]!.call('remember', rememberArgs(rng(2), 1, -1));
  const warmupMs = performance.now() - t0;
  if (!firstRecall.ok || !firstRemember.ok) throw new Error(`the warm-up failed: ${firstErrors([firstRecall, firstRemember]).join('; ')}`);
  log(`warm-up: first recall ${firstRecall.ms.toFixed(0)} ms, first remember ${firstRemember.ms.toFixed(0)} ms`);
  t0 = performance.now();
  for (let i = 1; i < sessions; i += 10) {
    clients.push(...(await Promise.all(tokens.slice(i, i + 10).map((token, j) => connectLoadClient(server.url, token, `mnemo-load-${i + j + 1}`)))));
  }
  // Each agent's first call (not measured): its session's first use of its role's memories.
  const firstCalls = await Promise.all(clients.map((c, i) => c.call('recall', recallArgs(rng(1000 + i)))));
  const connectMs = performance.now() - t0;
  if (firstCalls.some((c) => !c.ok)) throw new Error(`an agent's first call failed: ${firstErrors(firstCalls).join('; ')}`);
  const rssWarm = rssBytes(pid);
  log(`${clients.length} sessions connected in ${connectMs.toFixed(0)} ms; server RSS ${mb(rssWarm)} MB`);

  const flooder = await startFlooder();
  const phases = { A: [] as CallRecord[], B: [] as CallRecord[] };
  const floodCalls: CallRecord[] = [];
  const cpu = { A: 0, B: 0 };
  const made = clients.map(() => 0);
  const rssSeries: (number | null)[] = [];
  let rssPeak = rssWarm ?? 0;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssBytes(pid) ?? 0)), 500);
  // A and B alternate (A B A B …), so a change in the shared machine's load weighs on both alike.
  const window = seconds / rounds;
  for (let round = 1; round <= rounds; round++) {
    for (const phase of ['A', 'B'] as const) {
      log(`round ${round}/${rounds}, phase ${phase}: ${sessions} agents${phase === 'B' ? ' and the flooder' : ''} for ${window.toFixed(1)} s…`);
      const cpuStart = cpuSeconds(pid);
      const until = performance.now() + window * 1000;
      const flood = phase === 'B' ? flooder.flood(window) : Promise.resolve([]);
      const perAgent = await Promise.all(clients.map((c, i) => pacedAgent(c, { agent: i + 1, intervalMs, until, rand: rng(round * 100_000 + (phase === 'A' ? 0 : 50_000) + i), callsBefore: made[i]! })));
      perAgent.forEach((calls, i) => (made[i]! += calls.length));
      floodCalls.push(...(await flood));
      phases[phase].push(...perAgent.flat());
      cpu[phase] += (cpuSeconds(pid) ?? NaN) - (cpuStart ?? NaN);
      rssSeries.push(mb(rssBytes(pid)));
    }
  }
  clearInterval(sampler);
  flooder.stop();
  const figures = (phase: 'A' | 'B') => ({ ...byOp(phases[phase]), first_errors: firstErrors(phases[phase]), server_cpu_s: Number.isNaN(cpu[phase]) ? null : Math.round(cpu[phase] * 10) / 10 });
  const phaseA = figures('A');
  const phaseB = { ...figures('B'), flooder: flooderFigures(floodCalls) };
  const result = {
    bench: 'mcp-load',
    memories,
    sessions,
    seconds,
    rounds,
    interval_ms: intervalMs,
    pace: `each agent: one call per ${intervalMs} ms, recall and remember in turn, waiting for each answer; the flooder: recall back to back, ${floodConcurrency} at a time${floodBatch > 1 ? `, each POST a JSON-RPC batch of ${floodBatch}` : ''}`,
    flood_concurrency: floodConcurrency,
    flood_batch: floodBatch,
    cpus: cpus().length,
    load_average: { start: loadAtStart, end: loadAverage() },
    warmup: { first_recall_ms: Math.round(firstRecall.ms), first_remember_ms: Math.round(firstRemember.ms), total_ms: Math.round(warmupMs), connect_all_ms: Math.round(connectMs) },
    rss_mb: { listening: mb(rssListening), after_warmup: mb(rssWarm), end: rssSeries[rssSeries.length - 1] ?? null, peak: mb(rssPeak), after_each_window: rssSeries },
    phase_a: phaseA,
    phase_b: phaseB,
    errors: phaseA.all.errors + phaseB.all.errors,
    remembered: 0,
    lost_writes: 0,
    p95_ratio: { remember: ratio(phaseB.remember, phaseA.remember), recall: ratio(phaseB.recall, phaseA.recall), all: ratio(phaseB.all, phaseA.all) },
  };
  log(`phase A: ${phaseLine(phaseA)}`);
  log(`phase B: ${phaseLine(phaseB)}; the flooder: ${phaseB.flooder.calls} calls (${phaseB.flooder.per_second}/s), ${phaseB.flooder.rate_limited} answered 429, ${phaseB.flooder.errors} errors`);
  log(`server RSS ${result.rss_mb.after_warmup} MB after the warm-up, ${result.rss_mb.end} MB at the end (peak ${result.rss_mb.peak})`);
  // A write answered with an id must be in the store once the server has stopped.
  const written = [firstRemember, ...phases.A, ...phases.B].flatMap((c) => (c.ok && c.op === 'remember' && c.id ? [c.id] : []));
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server.stop();
  const after = MemoryStore.open(path, { readonly: true });
  try {
    result.remembered = written.length;
    result.lost_writes = written.filter((id) => !after.exists(id)).length;
  } finally {
    after.close();
  }
  log(`writes answered: ${result.remembered}; lost (answered, not in the store after the server stopped): ${result.lost_writes}`);
  report(result);
} finally {
  await Promise.all(clients.map((c) => c.close()));
  await server.stop();
  rmSync(dirname(path), { recursive: true, force: true });
}

function flooderFigures(calls: CallRecord[]) {
  const limited = calls.filter((c) => c.limited).length;
  const answered = summarise(calls.filter((c) => !c.limited));
  return { calls: calls.length, answered: answered.calls - answered.errors, rate_limited: limited, errors: answered.errors, p50_ms: answered.p50_ms, p95_ms: answered.p95_ms, per_second: Math.round(calls.length / seconds), first_errors: firstErrors(calls.filter((c) => !c.limited)) };
}

function phaseLine(f: ReturnType<typeof byOp> & { server_cpu_s: number | null }): string {
  const op = (name: 'remember' | 'recall') => `${name} ${f[name].calls} calls, ${f[name].errors} errors, p50 ${f[name].p50_ms} / p95 ${f[name].p95_ms} / max ${f[name].max_ms} ms`;
  return `${op('recall')}; ${op('remember')}; server CPU ${f.server_cpu_s} s`;
}

/** The flooder in its own process, connected once; `flood(s)` runs one window and resolves with its calls. */
async function startFlooder(): Promise<{ flood: (seconds: number) => Promise<CallRecord[]>; stop: () => void }> {
  const child = fork(join(process.cwd(), 'bench', 'lib', 'mcp-load-flooder.ts'), [server.url, flooderToken, String(floodConcurrency), String(floodBatch)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the flooder exited with ${code}`))));
  exited.catch(() => {});
  const next = () => Promise.race([new Promise<{ kind: string; calls?: CallRecord[] }>((resolve) => child.once('message', resolve)), exited]);
  await next();
  return {
    flood: async (s) => {
      const done = next();
      child.send({ kind: 'go', seconds: s });
      return (await done).calls ?? [];
    },
    stop: () => child.send({ kind: 'stop' }),
  };
}

function report(result: Record<string, unknown> & { errors: number; p95_ratio: Record<string, number | null> }): void {
  log(`errors of the paced agents: ${result.errors}; p95 with the flood / without: recall ${result.p95_ratio['recall']}, remember ${result.p95_ratio['remember']}, all ${result.p95_ratio['all']}`);
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else log(JSON.stringify(result, null, 2));
}
