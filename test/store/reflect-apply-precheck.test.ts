/**
 * Issue 13 item 7: apply reads the store's fingerprint before it takes the write lock (a 100k
 * store takes seconds to read, and an agent would wait that long). The read is trusted only when
 * nothing was committed between it and the lock; a write in that gap, by another connection or by
 * this one, must still make the apply refuse a plan the store no longer matches. Accesses alone in
 * that gap (agents recalling) leave it trusted: the fingerprint leaves usage out, and re-reading
 * the whole store under the lock held every agent's writes for seconds.
 */
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { applyPlan } from '../../core/reflect/apply.js';
import { NOW, plannedStore } from '../../support/long-writes.js';
import { dumpStore, openAt } from '../../support/reflect.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { fixedClock } from '../../core/clock.js';

/** Starts the apply; it reads the memory rows synchronously, before this returns. */
function startApply(path: string, plan: Awaited<ReturnType<typeof plannedStore>>['plan']) {
  const engine = openAt(path, NOW);
  const applying = applyPlan(engine, plan, { pacing: { maxBatchItems: 200, pauseMs: 1 } });
  return { engine, applying };
}

describe('the fingerprint read before the lock', () => {
  it('is used when nothing changed: the plan applies', { timeout: 120_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    const { engine, applying } = startApply(path, plan);
    const res = await applying;
    expect(res.change_id).not.toBeNull();
    expect(res.applied.length).toBeGreaterThan(0);
    engine.close();
  });

  it('is not trusted after another connection committed in the gap: the apply refuses, nothing written', { timeout: 120_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    const before = dumpStore(path);
    const { engine, applying } = startApply(path, plan);
    const other = new Database(path);
    other.prepare('UPDATE memories SET importance = 0.123 WHERE rowid = (SELECT max(rowid) FROM memories)').run();
    other.close();
    await expect(applying).rejects.toThrow(/changed since plan/);
    engine.close();
    const after = dumpStore(path);
    expect(after.edges).toEqual(before.edges);
    expect(after.memories.length).toBe(before.memories.length);
  });

  it('is not trusted after this connection wrote in the gap: the apply refuses', { timeout: 120_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    const { engine, applying } = startApply(path, plan);
    const reader = new Database(path, { readonly: true });
    const id = reader.prepare('SELECT id FROM memories ORDER BY rowid DESC LIMIT 1').pluck().get() as string;
    reader.close();
    const m = engine.store.get(id)!;
    engine.store.save({ ...m, importance: 0.123 });
    await expect(applying).rejects.toThrow(/changed since plan/);
    engine.close();
  });

  it('is still trusted after another connection only logged accesses in the gap: the store is not read again under the lock', { timeout: 120_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    const { engine, applying } = startApply(path, plan);
    const rereads = vi.spyOn(engine.store.queries, 'memoryRows');
    const agent = MemoryStore.open(path, { clock: fixedClock(NOW) });
    const ids = [...agent.iter()].slice(0, 5).map((m) => m.id);
    agent.logAccesses(ids.map((id, k) => ({ id, record: { ts: NOW + k, channel: 'recalled' as const, reader_owner: '', session_ref: null, trace_ref: null, query: 'q', score: null, rank: null, components: null } })));
    agent.close();
    const res = await applying;
    expect(res.change_id).not.toBeNull();
    expect(res.applied.length).toBeGreaterThan(0);
    expect(rereads).not.toHaveBeenCalled();
    engine.close();
  });
});
