/**
 * `npm run bench -- erase [--size 100000] [--owner Planner@a1] [--runs 3] [--interval 1000] [--busy 5000] [--before 30000] [--json]`
 *
 * Erasing one agent's memories from a demo store (cached per size, copied per run: the cached file
 * is never written). First the dry run (`memory.erase` with dry_run, through the API as every door
 * calls it), `--runs` times, median reported (target: ≤ 10 s on the 100k store). Then the erase
 * itself, as the API's long write, while two other PROCESSES on the same store (agents,
 * support/agent-child.ts), one adding a memory and one recalling, each once per interval, from
 * `--before` ms before the erase starts (the baseline their latencies are compared with) until it ends: reports how long each phase took (erasing the rows in
 * paced transactions, then the reclaim in a worker thread: free pages zeroed in short transactions and
 * the WAL truncated), how often the progress moved, the agent's failures (how many were a lock
 * refused: "database is locked") and latencies (p50, p95, max) before the erase and in each of its
 * phases, and the longest this process's event loop was held (a timer that should fire every 50 ms:
 * the thread that answers calls).
 */
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ApiSession } from '../core/api/context.js';
import { call } from '../core/api/service.js';
import type { EraseDryRun, EraseReceipt } from '../core/erase/erase.js';
import { fixedClock } from '../core/clock.js';
import { NOW, startAgent, type AgentCall } from '../support/long-writes.js';
import { demoStoreCopy } from './lib/demo-store.js';
import { ratio, summarizePhase } from './lib/agent-calls.js';
import { maxOf, median } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    owner: { type: 'string', default: 'Planner@a1' },
    runs: { type: 'string', default: '3' },
    interval: { type: 'string', default: '1000' },
    busy: { type: 'string', default: '5000' },
    before: { type: 'string', default: '30000' },
    json: { type: 'boolean', default: false },
  },
});
const log = (s: string) => {
  if (!values.json) process.stdout.write(`${s}\n`);
};
const size = Number(values.size);
const owner = values.owner!;

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

// Two clients, so an add never queues behind a slow recall in its own process (a recall after the
// erase rebuilds that process's indexes): what an add waits for is then the store's lock.
const agents = (['add', 'recall'] as const).map((ops) => startAgent(path, Number(values.interval), Number(values.busy), ops));
await Promise.all(agents.map((a) => a.ready));
for (const a of agents) a.go();
// The baseline: the agents' calls on the same store, in the same run, with nothing long running beside them.
await new Promise((r) => setTimeout(r, Number(values.before)));
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
const eraseFrom = Date.now();
const t0 = performance.now();
const receipt = (await call(session, 'memory.erase', { owner })) as EraseReceipt;
const eraseS = (performance.now() - t0) / 1000;
clearInterval(poll);
clearInterval(lagProbe);
const summaries = await Promise.all(agents.map((a) => a.stop()));
const summary = { calls: summaries.reduce((n, s) => n + s.calls, 0), failures: summaries.reduce((n, s) => n + s.failures, 0) };
session.close();

const reclaimStart = progress.find((p) => p.phase === 'reclaiming')?.at ?? Date.now();
const calls = agents.flatMap((a) => a.calls);
/** A call that ended after the erase (or its reclaim) began (`at` is when it ended, wall-clock ms). */
const duringErase = (c: AgentCall) => c.at >= eraseFrom;
const inReclaim = (c: AgentCall) => c.at >= reclaimStart;
const before = summarizePhase(calls.filter((c) => !duringErase(c)));
const recallsAfterRows = calls.filter((c) => c.op === 'recall' && inReclaim(c)).sort((a, b) => a.at - b.at);
const recallsDuring = calls.filter((c) => c.op === 'recall' && duringErase(c));
const during = summarizePhase(calls.filter(duringErase));
const result = {
  bench: 'erase',
  size,
  owner,
  memories: dry?.memories.total ?? null,
  dry_run_s: { median: Number(median(dryS).toFixed(2)), runs: dryS.map((s) => Number(s.toFixed(2))) },
  erase_s: Number(eraseS.toFixed(1)),
  reclaim_s: receipt.reclaim.seconds,
  reclaim_longest_lock_ms: receipt.reclaim.longest_lock_ms ?? null,
  bytes: { before: bytesBefore, after: receipt.reclaim.bytes_after },
  progress_samples: progress.length,
  progress_phases: [...new Set(progress.map((p) => p.phase))],
  event_loop_max_lag_ms: Math.round(maxLagMs),
  agent_calls: summary.calls,
  agent_failures: summary.failures,
  agent_locked_or_busy: before.all.locked_or_busy + during.all.locked_or_busy,
  agent_before_erase: before,
  agent_while_erasing: during,
  agent_while_erasing_rows: summarizePhase(calls.filter((c) => duringErase(c) && !inReclaim(c))),
  agent_while_reclaiming: summarizePhase(calls.filter(inReclaim)),
  /** The agent's latency while erasing over its latency before (same run, same store). */
  agent_ratio_vs_before: {
    add_p50: ratio(during.add.p50_ms, before.add.p50_ms),
    add_p95: ratio(during.add.p95_ms, before.add.p95_ms),
    recall_p50: ratio(during.recall.p50_ms, before.recall.p50_ms),
    recall_p95: ratio(during.recall.p95_ms, before.recall.p95_ms),
  },
  /**
   * The recalling process's first recall to end once the erase's rows were done (the reclaim began), the slowest of
   * those, and its slowest during the whole erase: that process's indexes take the erase in (patched from the change
   * feed as it goes, or rebuilt at once after its last row).
   */
  recall_after_rows: recallsAfterRows.length
    ? { first_ms: Math.round(recallsAfterRows[0]!.ms), max_ms: Math.round(maxOf(recallsAfterRows.map((c) => c.ms))), n: recallsAfterRows.length }
    : null,
  recall_max_while_erasing_ms: recallsDuring.length ? Math.round(maxOf(recallsDuring.map((c) => c.ms))) : null,
  counts: receipt.counts,
  problems: [...receipt.reclaim.problems, ...receipt.derived.problems],
  first_errors: calls.filter((c) => !c.ok).slice(0, 3).map((c) => c.error),
  /** The agent's five slowest calls during the erase: `queued_ms` is the part spent waiting for its own process (a recall's index rebuild), not for the store's lock. */
  agent_slowest: calls
    .filter(duringErase)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5)
    .map((c) => ({ op: c.op, ok: c.ok, ms: Math.round(c.ms), queued_ms: Math.round(c.queued_ms ?? 0), s_into_erase: Math.round((c.at - c.ms - eraseFrom) / 100) / 10, in_reclaim: inReclaim(c) })),
};
log(JSON.stringify(result, null, 2));
if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
