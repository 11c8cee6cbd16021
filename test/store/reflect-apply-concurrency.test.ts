/**
 * Issue 13 item 7: a big reflection apply must not lock agents out. An agent process adds and
 * recalls while the apply runs (its connection waits at most 1 s for the lock): none of its calls
 * fails, its writes land between the apply's batches, and the apply is still one change that one
 * undo takes back, leaving the agent's memories in place.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { applyPlan } from '../../core/reflect/apply.js';
import { planOps } from '../../core/reflect/plan.js';
import { openAt } from '../../support/reflect.js';
import { NOW, plannedStore, startAgent } from '../../support/long-writes.js';

const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const s of stops.splice(0)) await s();
});

describe('reflect apply beside a working agent', () => {
  it('the agent never fails, its writes interleave with the batches, and the apply stays one undoable change', { timeout: 180_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    const agent = startAgent(path, 50, 1000);
    stops.push(agent.stop);
    await agent.ready;
    const engine = openAt(path, NOW);
    const pause = new Int32Array(new SharedArrayBuffer(4));
    let applying = false;
    const seenDuringApply = () => agent.calls.filter((c) => (c as { during?: boolean }).during).length;
    // Tag each report with whether it reached us while the apply was still running.
    agent.child.on('message', () => {
      const last = agent.calls[agent.calls.length - 1];
      if (last) (last as { during?: boolean }).during = applying;
    });
    applying = true;
    // 1 ms per operation stands in for a big store: the whole apply takes seconds, far past the agent's 1 s busy timeout.
    // The agent starts once the apply has checked its plan against the store (its first write would make the plan stale):
    // at the first progress of the apply phase, not of the check before it.
    let started = false;
    const res = await applyPlan(engine, plan, {
      // The store's own pause between batches (longer than SQLite's longest busy-wait step).
      pacing: { maxBatchItems: 25 },
      onProgress: (_done, _total, phase) => {
        if (phase !== 'apply') return;
        if (!started) agent.go();
        started = true;
        Atomics.wait(pause, 0, 0, 1);
      },
    });
    applying = false;
    const summary = await agent.stop();
    stops.length = 0;

    const failures = agent.calls.filter((c) => !c.ok);
    expect(failures.map((f) => f.error)).toEqual([]);
    expect(summary.failures).toBe(0);
    const addsDuring = agent.calls.filter((c) => c.op === 'add' && (c as { during?: boolean }).during);
    expect(addsDuring.length).toBeGreaterThanOrEqual(3);
    expect(seenDuringApply()).toBeGreaterThan(0);

    // One change for the whole apply, with the agent's adds as their own changes.
    expect(res.applied.length).toBe(planOps(plan).length - res.skipped.length);
    const history = engine.store.journal.history(10_000);
    const applies = history.filter((c) => c.kind === 'reflect.apply');
    expect(applies).toHaveLength(1);
    expect(applies[0]!.id).toBe(res.change_id);
    const agentIds = agent.calls.filter((c) => c.op === 'add').map((c) => c.id!);
    for (const id of addsDuring.map((c) => c.id!)) expect(engine.store.exists(id)).toBe(true);
    // Some agent changes were committed after the apply's change began and before it finished.
    expect(history.filter((c) => c.kind === 'memory.add' && c.id > res.change_id!).length).toBeGreaterThanOrEqual(addsDuring.length);

    const undone = engine.store.journal.undo(res.change_id!);
    expect(undone.state).toBe('undone');
    for (const id of agentIds) expect(engine.store.exists(id)).toBe(true);
    engine.close();
  });
});

describe('recall beside a change written in batches', () => {
  it('keeps its indexes as they were while the change is part-written, and catches up once it is finished', { timeout: 120_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    const writer = openAt(path, NOW);
    const reader = openAt(path, NOW);
    expect(reader.store.refreshIfChanged()).toBe(false);
    const midRun: boolean[] = [];
    let batches = 0;
    await applyPlan(writer, plan, {
      pacing: { maxBatchItems: 200, pauseMs: 1 },
      onProgress: (done) => {
        // Between two batches of the writer, the reader looks for other processes' commits.
        if (done % 200 === 1 && done > 1) {
          batches++;
          midRun.push(reader.store.refreshIfChanged());
        }
      },
    });
    expect(batches).toBeGreaterThan(2);
    expect(new Set(midRun)).toEqual(new Set([false]));
    expect(reader.store.refreshIfChanged()).toBe(true);
    writer.close();
    reader.close();
  });
});
