/**
 * `npm run bench -- commit-concurrency [--size 100000] [--interval 1000] [--batch-ms N] [--pause-ms N] [--no-snapshots] [--no-handoff] [--json]`
 * (pacing: the store's defaults unless given)
 *
 * An operator commits a big reflection while an agent works beside it. On a demo store (cached
 * per size), the pass is planned, then applied in short transactions while a second PROCESS (the
 * agent, support/agent-child.ts, reporting over IPC) adds a memory and recalls once per
 * interval; the apply is then undone in the same way with the agent still working. Reports the
 * agent's failures and latencies (target: 0 failures, every call within 1 s) while each runs and
 * once each has finished (the agent's first recall then brings its indexes up to date), the apply
 * and undo wall times and the largest WAL file seen. `--batch-ms 1e9` writes the apply as one transaction,
 * as before batching, for comparison. Before each change ends the applier leaves current index
 * snapshots, as the API's write jobs do (recall/indexes-after-change.ts), so the agent
 * loads them instead of rebuilding; `--no-snapshots` leaves that out, for comparison. It also
 * announces them and keeps its marker a few seconds, so the agent loads them ahead, between its calls
 * (store/derived/index-handoff.ts); `--no-handoff` clears the marker at once instead, for comparison.
 */
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fixedClock } from '../core/clock.js';
import { Engine } from '../core/engine/engine.js';
import { applyPlan } from '../core/reflect/apply.js';
import { planOps, planReflection } from '../core/reflect/plan.js';
import { pacingOf } from '../core/model/run-pacing.js';
import { NOW, startAgent, type AgentCall } from '../support/long-writes.js';
import { demoStoreCopy } from './lib/demo-store.js';
import { leaveIndexesCurrent } from '../core/recall/indexes-after-change.js';

const { values } = parseArgs({
  options: {
    size: { type: 'string', default: '100000' },
    interval: { type: 'string', default: '1000' },
    busy: { type: 'string', default: '5000' },
    'batch-ms': { type: 'string' },
    'pause-ms': { type: 'string' },
    json: { type: 'boolean', default: false },
    // The applier does not leave current index snapshots: the agent rebuilds after the change (as before).
    'no-snapshots': { type: 'boolean', default: false },
    // The applier clears its marker as soon as the snapshots are written: the agent loads them on its first call after.
    'no-handoff': { type: 'boolean', default: false },
  },
});
const log = (s: string) => {
  if (!values.json) process.stdout.write(`${s}\n`);
};
const size = Number(values.size);
const pacing = pacingOf({
  ...(values['batch-ms'] !== undefined ? { batchMs: Number(values['batch-ms']) } : {}),
  ...(values['pause-ms'] !== undefined ? { pauseMs: Number(values['pause-ms']) } : {}),
});

/** Latencies from when each call was due (the agent's own work between calls, such as loading indexes ahead, counts: max_queued_ms). */
function latency(calls: AgentCall[]): { n: number; failures: number; median_ms: number | null; p95_ms: number | null; max_ms: number | null; over_1s: number; max_queued_ms: number } {
  const ms = calls.map((c) => c.ms).sort((a, b) => a - b);
  const at = (q: number) => (ms.length ? Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!) : null);
  return { n: calls.length, failures: calls.filter((c) => !c.ok).length, median_ms: at(0.5), p95_ms: at(0.95), max_ms: ms.length ? Math.round(ms[ms.length - 1]!) : null, over_1s: ms.filter((m) => m > 1000).length, max_queued_ms: Math.round(Math.max(0, ...calls.map((c) => c.queued_ms ?? 0))) };
}

const path = demoStoreCopy(size, NOW, log);
const wal = `${path}-wal`;
let walMax = 0;
const walPoll = setInterval(() => {
  if (existsSync(wal)) walMax = Math.max(walMax, statSync(wal).size);
}, 100);

const engine = Engine.open(path, { clock: fixedClock(NOW), onWarning: () => {} });
log(`planning the reflection of ${size.toLocaleString()} memories…`);
let t0 = performance.now();
const plan = await planReflection(engine);
const planS = (performance.now() - t0) / 1000;
const ops = planOps(plan).length;
log(`plan: ${ops.toLocaleString()} operations in ${planS.toFixed(1)} s; starting the agent`);

const agent = startAgent(path, Number(values.interval), Number(values.busy));
await agent.ready;
let started = false;
let lastShown = 0;
t0 = performance.now();
let snapshotS = 0;
/** The applier's indexes brought up to date and written before the change ends (timed: it is part of the change). */
const leaveSnapshots = () => {
  if (values['no-snapshots']) return undefined;
  const leave = leaveIndexesCurrent(engine, values['no-handoff'] ? { holdMs: 0 } : {});
  return async () => {
    const s0 = performance.now();
    await leave();
    snapshotS += (performance.now() - s0) / 1000;
  };
};
const applied = await applyPlan(engine, plan, {
  pacing,
  beforeFinish: leaveSnapshots(),
  onProgress: (done, total) => {
    if (!started) agent.go();
    started = true;
    if (done - lastShown >= total / 10) {
      lastShown = done;
      log(`  apply ${done.toLocaleString()}/${total.toLocaleString()} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
  },
});
const applyS = (performance.now() - t0) / 1000;
const applyEnd = Date.now();
log(`apply: change #${applied.change_id}, ${applied.applied.length.toLocaleString()} applied in ${applyS.toFixed(1)} s; the agent catches up`);
const duringApply = await settle(applyEnd);

t0 = performance.now();
const undone = await engine.store.runs.replayInBatches({ undo: applied.change_id! }, pacing, undefined, leaveSnapshots());
const undoS = (performance.now() - t0) / 1000;
const undoEnd = Date.now();
log(`undo: ${undoS.toFixed(1)} s; the agent catches up`);
const duringUndo = await settle(undoEnd);
const summary = await agent.stop();
clearInterval(walPoll);
engine.close();

/**
 * The agent's calls up to `end`, once it has made three more recalls after it: the first of those
 * pays for bringing its recall indexes up to date with the finished change (reported apart, as
 * `after`), since while the change was being written it kept them as they were.
 */
async function settle(end: number): Promise<{ during: AgentCall[]; after: AgentCall[] }> {
  const startedAfter = (c: AgentCall) => c.at - c.ms >= end;
  const deadline = Date.now() + 900_000;
  while (agent.calls.filter((c) => c.op === 'recall' && startedAfter(c)).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  const calls = agent.calls.splice(0);
  return { during: calls.filter((c) => !startedAfter(c)), after: calls.filter(startedAfter) };
}

const phase = (calls: AgentCall[]) => ({ add: latency(calls.filter((c) => c.op === 'add')), recall: latency(calls.filter((c) => c.op === 'recall')) });
const firstRecall = (calls: AgentCall[]) => Math.round(calls.find((c) => c.op === 'recall')?.ms ?? NaN);

const result = {
  bench: 'commit-concurrency',
  size,
  ops,
  applied: applied.applied.length,
  pacing,
  agent_interval_ms: Number(values.interval),
  plan_s: Number(planS.toFixed(1)),
  apply_s: Number(applyS.toFixed(1)),
  undo_s: Number(undoS.toFixed(1)),
  /** Of apply_s + undo_s: bringing the applier's indexes up to date, writing their snapshots and holding the marker for the hand-over before each change ended. */
  snapshots_s: Number(snapshotS.toFixed(1)),
  handoff: !values['no-snapshots'] && !values['no-handoff'],
  undo_state: undone.state,
  wal_max_mb: Number((walMax / 1e6).toFixed(1)),
  agent_failures: summary.failures,
  agent_calls: summary.calls,
  during_apply: phase(duringApply.during),
  after_apply: { ...phase(duringApply.after), first_recall_ms: firstRecall(duringApply.after) },
  during_undo: phase(duringUndo.during),
  after_undo: { ...phase(duringUndo.after), first_recall_ms: firstRecall(duringUndo.after) },
  first_errors: [...duringApply.during, ...duringApply.after, ...duringUndo.during, ...duringUndo.after].filter((c) => !c.ok).slice(0, 3).map((c) => c.error),
};
log(JSON.stringify(result, null, 2));
if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
