/**
 * Issue 13 item 7, the call after a long change: the writer announces the index snapshots it left
 * and keeps its marker a moment (store/derived/index-handoff.ts); an agent beside it loads them into second
 * copies between its calls, so its first call after the change loads nothing from the sidecar and
 * ranks as a fresh build does. And what an agent wrote during the change is in the snapshots the
 * writer leaves (the writer used to hold back the others' commits for the length of its own run).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { addMemory } from '../../core/engine/memory-ops.js';
import { leaveIndexesCurrent } from '../../core/recall/indexes-after-change.js';
import { rankRequest } from '../../core/recall/explain.js';
import { resolveRequest } from '../../core/recall/request.js';
import { applyPlan } from '../../core/reflect/apply.js';
import { announcedSnapshots } from '../../core/store/derived/index-handoff.js';
import { IndexSidecar } from '../../core/store/derived/index-sidecar.js';
import { Derived } from '../../core/store/derived/derived.js';
import { DerivedSnapshot } from '../../core/store/derived/derived-snapshot.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { NOW, plannedStore } from '../../support/long-writes.js';

const QUERIES = ['deploy', 'database migration', 'release notes bug', 'zebracorn'];
const PACING = { maxBatchItems: 200, pauseMs: 1 };

/** An engine whose watch for a hand-over looks at the marker every 20 ms instead of every second, and that rebuilds after 100 foreign feed rows. */
function open(path: string, snapshots = true): Engine {
  return Engine.open(path, {
    clock: fixedClock(NOW),
    onWarning: () => {},
    // A 1,000-memory change is as far behind, for these engines, as a 100k one is for the default limit: they rebuild (or swap) after it.
    catchUpFeedLimit: 100,
    indexSnapshots: {
      enabled: snapshots,
      retryLater: (fn) => {
        const t = setTimeout(fn, 20);
        return () => clearTimeout(t);
      },
    },
  });
}

const rankings = (engine: Engine) => QUERIES.map((query) => rankRequest(engine, resolveRequest(engine, { query }, { k: 10 })).rows.slice(0, 10).map((r) => [r.id, r.activation]));

function freshRankings(path: string): unknown {
  const engine = open(path, false);
  const ranked = rankings(engine);
  engine.close();
  return ranked;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterEach(() => vi.restoreAllMocks());

/**
 * Applies the plan with the hand-over (held `holdMs`), while an agent on its own connection ranks
 * and adds a memory in the middle of it. Returns the sidecar reads the agent's first ranking after
 * the change made, and what it ranked.
 */
async function applyBeside(
  holdMs: number,
  commitsBetweenIndexReads = false,
  writeDuringHold = false,
): Promise<{ path: string; readsAfter: number; readsDuringHold: number; ranked: unknown; announced: boolean; agent: Engine; addedAt: number; snapshotSeqs: number[]; writesDuringHold: number; swapGaps: number[] }> {
  const { path, plan } = await plannedStore(1000);
  const writer = open(path);
  const agent = open(path);
  rankings(agent); // the agent's indexes are in use before the change starts
  const reads = vi.spyOn(IndexSidecar.prototype, 'read');
  const leave = leaveIndexesCurrent(writer, { minRows: 0, holdMs });
  // Agents keep committing while the writer reads its indexes one after another before it writes
  // their snapshots: a third process commits a one-row change before each of the writer's index reads.
  const other = commitsBetweenIndexReads || writeDuringHold ? MemoryStore.open(path, { clock: fixedClock(NOW) }) : null;
  const otherIds = other ? [...other.iter()].slice(0, 50).map((m) => m.id) : [];
  let inHook = false;
  let edits = 0;
  if (other && commitsBetweenIndexReads) {
    // One ranking reads every index in one fresh scope, all at one position. Indexes last read by
    // different calls (a ranking, the list's search) stand at different positions: the writer's
    // ranking is made to read each index as a call of its own would, checking the feed each time.
    vi.spyOn(writer.store, 'readFresh').mockImplementation((fn) => fn());
    const get = Derived.prototype.get;
    vi.spyOn(Derived.prototype, 'get').mockImplementation(function (this: Derived<never>) {
      if (inHook && (this as unknown as { store: unknown }).store === writer.store) {
        other.transaction(() => {
          const m = other.get(otherIds[edits++ % otherIds.length]!)!;
          m.importance = 1 + (edits % 9);
          other.save(m);
        });
      }
      return get.call(this);
    });
  }
  let announced = false;
  let readsBeforeHold = 0;
  let addedAt = -1;
  let writesDuringHold = 0;
  await applyPlan(writer, plan, {
    pacing: PACING,
    beforeFinish: async () => {
      // The agent works while the change is being written: it writes, and it answers from its indexes as they were.
      await addMemory(agent, { content: 'zebracorn sighting logged by the agent during the apply', tags: ['agent'] });
      addedAt = agent.store.feedPosition()!.seq;
      rankings(agent);
      readsBeforeHold = reads.mock.calls.length;
      inHook = true;
      const announcing = leave();
      inHook = false;
      announced = announcedSnapshots(writer.store) !== null;
      // A third process keeps writing while the marker stands, as agents logging accesses do.
      const writing = writeDuringHold
        ? setInterval(() => {
            other!.transaction(() => {
              const m = other!.get(otherIds[writesDuringHold++ % otherIds.length]!)!;
              m.importance = 1 + (writesDuringHold % 9);
              other!.save(m);
            });
          }, 15)
        : null;
      await announcing;
      if (writing) clearInterval(writing);
    },
  });
  other?.close();
  const readsDuringHold = reads.mock.calls.length - readsBeforeHold;
  const sidecar = writer.indexSnapshots.sidecar()!;
  const snapshotSeqs = ['embed.vectors', 'recall.mnemo.bm25.porter'].map((name) => sidecar.header(name)?.position.seq ?? -1);
  const before = reads.mock.calls.length;
  // How far behind the feed's end each copy is when the first call after the change swaps it in.
  const swapGaps: number[] = [];
  const patchSince = DerivedSnapshot.prototype.patchSince;
  vi.spyOn(DerivedSnapshot.prototype, 'patchSince').mockImplementation(function (this: DerivedSnapshot, from) {
    swapGaps.push(agent.store.feedPosition()!.seq - from.seq);
    return patchSince.call(this, from);
  });
  const ranked = rankings(agent);
  const readsAfter = reads.mock.calls.length - before;
  writer.close();
  return { path, readsAfter, readsDuringHold, ranked, announced, agent, addedAt, snapshotSeqs, writesDuringHold, swapGaps };
}

describe('the hand-over of indexes after a long change', () => {
  it('an agent beside the writer loads the snapshots during the hand-over, and its first call after only swaps them in', { timeout: 120_000 }, async () => {
    const r = await applyBeside(1500);
    expect(r.announced).toBe(true);
    expect(r.readsDuringHold).toBeGreaterThan(0);
    expect(r.readsAfter).toBe(0);
    expect(r.ranked).toEqual(freshRankings(r.path));
    // The swapped-in copies keep following the store: a write after the change is found.
    await addMemory(r.agent, { content: 'zebracorn seen again after the change', tags: ['agent'] });
    expect(rankings(r.agent)).toEqual(freshRankings(r.path));
    r.agent.close();
  });

  it('the hand-over holds when other processes commit while the writer reads its indexes (each snapshot then stands at its own position)', { timeout: 120_000 }, async () => {
    const r = await applyBeside(1500, true);
    expect(r.announced).toBe(true);
    // The snapshots stand at different positions: commits came between the writer's index reads.
    expect(new Set(r.snapshotSeqs).size).toBeGreaterThan(1);
    expect(r.readsDuringHold).toBeGreaterThan(0);
    expect(r.readsAfter).toBe(0);
    expect(r.ranked).toEqual(freshRankings(r.path));
    r.agent.close();
  });

  it('the copies loaded ahead follow what others write during the hold, so the swap patches only the last moment', { timeout: 120_000 }, async () => {
    const r = await applyBeside(1500, false, true);
    expect(r.announced).toBe(true);
    expect(r.writesDuringHold).toBeGreaterThan(40);
    expect(r.readsAfter).toBe(0);
    // Each copy was patched between the agent's looks at the marker (every 20 ms here), not all at the swap.
    expect(r.swapGaps.length).toBeGreaterThan(0);
    expect(Math.max(...r.swapGaps)).toBeLessThan(r.writesDuringHold / 4);
    expect(r.ranked).toEqual(freshRankings(r.path));
    r.agent.close();
  });

  it("loads each index ahead on one turn of the agent's event loop and patches it on another, so a call waits for one of them at most", { timeout: 120_000 }, async () => {
    // Which turn of the loop (a setImmediate callback, as the hand-over's steps are) each piece ran on.
    let turn = 0;
    const immediate = globalThis.setImmediate;
    vi.spyOn(globalThis, 'setImmediate').mockImplementation(((fn: (...args: unknown[]) => void, ...args: unknown[]) =>
      immediate(() => {
        turn += 1;
        fn(...args);
      })) as typeof setImmediate);
    const restoredOn: number[] = [];
    const patchedOn: number[] = [];
    const restoreAt = DerivedSnapshot.prototype.restoreAt;
    vi.spyOn(DerivedSnapshot.prototype, 'restoreAt').mockImplementation(function (this: DerivedSnapshot, ...args) {
      restoredOn.push(turn);
      return restoreAt.apply(this, args);
    });
    const snapshotProto = DerivedSnapshot.prototype as unknown as { apply(changes: { upserts: string[]; deletes: string[] }): void };
    const apply = snapshotProto.apply;
    vi.spyOn(snapshotProto, 'apply').mockImplementation(function (this: DerivedSnapshot, changes) {
      if (restoredOn.length && changes.upserts.length + changes.deletes.length > 0) patchedOn.push(turn);
      return apply.call(this, changes);
    });
    // Another process writes while the marker stands, so each copy has something to patch.
    const r = await applyBeside(1500, false, true);
    expect(r.readsAfter).toBe(0);
    expect(restoredOn.length).toBeGreaterThan(0);
    expect(patchedOn.length).toBeGreaterThan(0);
    // No turn both read a snapshot back and patched one: they used to be one step (964 ms for the corpus at 100k).
    expect(restoredOn.filter((t) => patchedOn.includes(t))).toEqual([]);
    expect(r.ranked).toEqual(freshRankings(r.path));
    r.agent.close();
  });

  it('without the hold, the agent loads the snapshots on its first call after the change (the comparison)', { timeout: 120_000 }, async () => {
    const r = await applyBeside(0);
    expect(r.readsAfter).toBeGreaterThan(0);
    expect(r.ranked).toEqual(freshRankings(r.path));
    r.agent.close();
  });

  it("the snapshots the writer leaves hold what another process wrote during the change", { timeout: 120_000 }, async () => {
    const r = await applyBeside(0);
    r.agent.close();
    // The writer heard the agent's write before it wrote its snapshots: they stand past it, not where its run began.
    for (const seq of r.snapshotSeqs) expect(seq).toBeGreaterThanOrEqual(r.addedAt);
    // A process opening now loads the writer's snapshots and patches what came after them.
    const next = open(r.path);
    const ranked = rankings(next);
    next.close();
    const fresh = freshRankings(r.path) as [string, number][][];
    expect(fresh[3]!.length).toBeGreaterThan(0);
    expect(ranked).toEqual(fresh);
  });

  it('an agent that never read an index loads nothing ahead', { timeout: 120_000 }, async () => {
    const { path, plan } = await plannedStore(1000);
    const writer = open(path);
    const idle = open(path);
    const reads = vi.spyOn(IndexSidecar.prototype, 'read');
    const leave = leaveIndexesCurrent(writer, { minRows: 0, holdMs: 300 });
    await applyPlan(writer, plan, { pacing: PACING, beforeFinish: () => leave() });
    await sleep(50);
    expect(reads).not.toHaveBeenCalled();
    writer.close();
    idle.close();
  });
});
