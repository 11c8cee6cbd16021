/**
 * An agent beside the workbench, as a separate process started with `fork()`: every `interval`
 * ms it adds a memory and recalls once, each on its own connection's terms (busy timeout given),
 * and reports every call over the IPC channel (never stdout, which a parent may stop reading).
 * With `ops` `add` or `recall` it makes only that call: two such agents are two clients whose
 * requests do not wait on each other (one agent's adds would otherwise queue behind its own slow
 * recall, hiding how long the store made them wait).
 *
 * argv: <db> <interval ms> <busy timeout ms> <now> [ops: both | add | recall]
 * messages in: 'go' (start calling), 'stop'.
 * messages out: {kind:'ready'} after a warm-up ranking (which logs nothing); {kind:'call', op, ok, ms, at, error?, id?};
 * {kind:'summary', calls, failures} after the parent sends 'stop'.
 */
import { fixedClock } from '../core/clock.js';
import { Engine } from '../core/engine/engine.js';
import { addMemory } from '../core/engine/memory-ops.js';
import { rankRequest } from '../core/recall/explain.js';
import { recallAndLog } from '../core/recall/record.js';
import { resolveRequest } from '../core/recall/request.js';

const [db, intervalArg, busyArg, nowArg, opsArg = 'both'] = process.argv.slice(2);
const adds = opsArg !== 'recall';
const recalls = opsArg !== 'add';
const reader = { owner: '', session_ref: 'agent-child' };

/** A parent that went away must not turn into an unhandled EPIPE here: drop the message, then leave. */
function send(msg: unknown): void {
  if (!process.connected) return;
  try {
    process.send!(msg, (err: Error | null) => {
      if (err) process.exit(0);
    });
  } catch {
    process.exit(0);
  }
}
process.on('disconnect', () => process.exit(0));
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});

const engine = Engine.open(db!, { clock: fixedClock(Number(nowArg)), busyTimeoutMs: Number(busyArg), onWarning: () => {} });
// Warm the recall indexes without logging an access: a write before the apply starts would make its plan stale.
rankRequest(engine, resolveRequest(engine, { query: 'deploy' }, { k: 5 }));

let stopping = false;
let calls = 0;
let failures = 0;
let n = 0;

/**
 * Times one call from when it was due, not from when this process got round to it: work done
 * between calls (loading indexes ahead of a hand-over) delays the next call as it would delay a
 * request arriving then, and the caller waits for that too (`queued_ms`, included in `ms`).
 */
async function timed(op: 'add' | 'recall', fn: () => Promise<string | null> | string | null, due = performance.now()): Promise<void> {
  const t0 = Math.min(due, performance.now());
  const queued = performance.now() - t0;
  calls++;
  try {
    const id = await fn();
    send({ kind: 'call', op, ok: true, ms: performance.now() - t0, queued_ms: queued, at: Date.now(), id });
  } catch (err) {
    failures++;
    send({ kind: 'call', op, ok: false, ms: performance.now() - t0, queued_ms: queued, at: Date.now(), error: (err as Error).message });
  }
}

async function tick(due: number): Promise<void> {
  n++;
  if (adds) await timed('add', async () => (await addMemory(engine, { content: `agent note ${n}: the deploy of service ${n % 13} went fine`, tags: ['agent'] })).id, due);
  if (recalls) {
    await timed(
      'recall',
      () => {
        recallAndLog(engine, { query: `deploy service ${n % 13}` }, 'recalled', reader);
        return null;
      },
      adds ? performance.now() : due,
    );
  }
}

let go: () => void = () => {};
const started = new Promise<void>((r) => (go = r));
process.on('message', (m) => {
  if (m === 'go') go();
  if (m === 'stop') {
    stopping = true;
    go();
  }
});
send({ kind: 'ready' });
await started;
const interval = Number(intervalArg);
let due = performance.now();
while (!stopping) {
  const started = performance.now();
  await tick(due);
  const rest = interval - (performance.now() - started);
  due = performance.now() + Math.max(0, rest);
  if (rest > 0) await new Promise((r) => setTimeout(r, rest));
}
engine.close();
send({ kind: 'summary', calls, failures });
process.disconnect();
