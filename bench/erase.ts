/**
 * `npm run bench -- erase [--size 100000] [--owner Planner@a1] [--runs 3] [--interval 1000] [--busy 5000] [--json]`
 *
 * Erasing one agent's memories from a demo store (cached per size, copied per run: the cached file
 * is never written). First the dry run (`memory.erase` with dry_run, through the API as every door
 * calls it), `--runs` times, median reported (target: ≤ 10 s on the 100k store). Then the erase
 * itself, as the API's long write, while a second PROCESS (the agent, support/agent-child.ts) adds a
 * memory and recalls once per interval: reports how long each phase took (erasing the rows in
 * paced transactions, then VACUUM and the WAL truncated in a worker thread), how often the progress
 * moved, the agent's failures and latencies in each phase, and the longest this process's event
 * loop was held (a timer that should fire every 50 ms: the thread that answers calls).
 */
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ApiSession } from '../core/api/context.js';
import { call } from '../core/api/service.js';
import type { EraseDryRun, EraseReceipt } from '../core/erase/erase.js';
import { fixedClock } from '../core/clock.js';
import { NOW, startAgent, type AgentCall } from '../support/long-writes.js';
import { demoStoreCopy } from './lib/demo-store.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    owner: { type: 'string', default: 'Planner@a1' },
    runs: { type: 'string', default: '3' },
    interval: { type: 'string', default: '1000' },
    busy: { type: 'string', default: '5000' },
    json: { type: 'boolean', default: false },
  },
});
const log = (s: string) => {
  if (!values.json) process.stdout.write(`${s}\n`);
};
const size = Number(values.size);
const owner = values.owner!;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function latency(calls: AgentCall[]): { n: number; failures: number; median_ms: number | null; max_ms: number | null; over_1s: number } {
  const ms = calls.map((c) => c.ms).sort((a, b) => a - b);
  return { n: calls.length, failures: calls.filter((c) => !c.ok).length, median_ms: ms.length ? Math.round(median(ms)) : null, max_ms: ms.length ? Math.round(ms[ms.length - 1]!) : null, over_1s: ms.filter((m) => m > 1000).length };
}

const path = demoStoreCopy(size, NOW, log);
const session = new ApiSession({ clock: fixedClock(NOW) });
session.open(path);

const dryS: number[] = [];
let dry: EraseDryRun | null = null;
for (let i = 0; i < Number(values.runs); i++) {
  const t0 = performance.now();
  dry = await call(session, 'memory.erasePlan', { owner });
  dryS.push((performance.now() - t0) / 1000);
  log(`dry run ${i + 1}: ${dry.memories.total.toLocaleString()} memories, ${dryS[i]!.toFixed(2)} s`);
}

const agent = startAgent(path, Number(values.interval), Number(values.busy));
await agent.ready;
agent.go();
let maxLagMs = 0;
let last = performance.now();
const lagProbe = setInterval(() => {
  const now = performance.now();
  maxLagMs = Math.max(maxLagMs, now - last - 50);
  last = now;
}, 50);
const progress: { at: number; phase: string | null; done: number; total: number }[] = [];
const poll = setInterval(() => {
  void call(session, 'journal.progress', {}).then((p) => {
    if (p.running) progress.push({ at: Date.now(), phase: p.phase, done: p.done, total: p.total });
  });
}, 250);
const bytesBefore = statSync(path).size;
const t0 = performance.now();
const receipt = (await call(session, 'memory.erase', { owner })) as EraseReceipt;
const eraseS = (performance.now() - t0) / 1000;
clearInterval(poll);
clearInterval(lagProbe);
const summary = await agent.stop();
session.close();

const reclaimStart = progress.find((p) => p.phase === 'reclaiming')?.at ?? Date.now();
const calls = agent.calls;
/** A call that ended after the reclaim began (`at` is when it ended, wall-clock ms). */
const inReclaim = (c: AgentCall) => c.at >= reclaimStart;
const phases = (cs: AgentCall[]) => ({ add: latency(cs.filter((c) => c.op === 'add')), recall: latency(cs.filter((c) => c.op === 'recall')) });
const result = {
  bench: 'erase',
  size,
  owner,
  memories: dry?.memories.total ?? null,
  dry_run_s: { median: Number(median(dryS).toFixed(2)), runs: dryS.map((s) => Number(s.toFixed(2))) },
  erase_s: Number(eraseS.toFixed(1)),
  reclaim_s: receipt.reclaim.seconds,
  bytes: { before: bytesBefore, after: receipt.reclaim.bytes_after },
  progress_samples: progress.length,
  progress_phases: [...new Set(progress.map((p) => p.phase))],
  event_loop_max_lag_ms: Math.round(maxLagMs),
  agent_calls: summary.calls,
  agent_failures: summary.failures,
  while_erasing_rows: phases(calls.filter((c) => !inReclaim(c))),
  while_reclaiming: phases(calls.filter(inReclaim)),
  counts: receipt.counts,
  problems: [...receipt.reclaim.problems, ...receipt.derived.problems],
  first_errors: calls.filter((c) => !c.ok).slice(0, 3).map((c) => c.error),
};
log(JSON.stringify(result, null, 2));
if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
