/**
 * "Undo this and the changes that depend on it": which later changes depend on a change (a chain
 * A ← B ← C, with an independent change and one that only shares a row with a dependant left
 * alone), the group undone as one step in one transaction and paced, a failure part-way leaving the
 * store as it was, the owner policy, redo bringing the group back, and a crash completed for the
 * whole group.
 */
import { hostname } from 'node:os';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { addMemory, archiveMemories, updateMemory } from '../../core/engine/memory-ops.js';
import { recoverInterruptedRun } from '../../core/store/shared/change-run.js';
import { newMarker, runInProgress, writeMarker } from '../../core/store/shared/run-marker.js';
import { undoWithDependents } from '../../core/store/shared/undo-group.js';
import { expected, fixtureCopy } from '../../support/fixture.js';
import { sqliteAdapterOf } from '../../support/sqlite-adapter.js';
import type { GroupUndoOptions } from '../../core/store/port/store-rows.js';
import { allMemories } from '../../core/store/queries/memory-lookups.js';

const NOW = expected().now as number;
let engine: Engine | null = null;
afterEach(() => {
  vi.restoreAllMocks();
  engine?.close();
  engine = null;
});

function dump(path: string): unknown {
  const db = new Database(path, { readonly: true });
  const out = {
    memories: db.prepare('SELECT rowid, * FROM memories ORDER BY id').all(),
    edges: db.prepare('SELECT * FROM memory_edges ORDER BY src, dst, type').all(),
  };
  db.close();
  return out;
}

const lastChange = () => engine!.store.journal.history(1)[0]!.id;
const states = () => Object.fromEntries(engine!.store.journal.history().map((c) => [c.id, c.state]));

/**
 * A: a's importance. I: d's title (independent). E: c's title (later than A, shares a row only with
 * B and C, and is earlier than B, so it does not block B). B: archives a, c and eight more (10 rows:
 * two batches of the paced path). C: c's importance (depends on A only through B).
 */
async function chain(path: string) {
  engine = Engine.open(path, { clock: fixedClock(NOW) });
  const all = allMemories(engine.store);
  const [a, b, c, d] = all;
  const before = dump(path);
  await updateMemory(engine, a!.id, { importance: 9 });
  const A = lastChange();
  await updateMemory(engine, d!.id, { title: 'independent edit' });
  const I = lastChange();
  await updateMemory(engine, c!.id, { title: 'earlier edit of c' });
  const E = lastChange();
  const B = archiveMemories(engine, [a!.id, c!.id, ...all.slice(4, 12).map((m) => m.id)], true).changeId!;
  await updateMemory(engine, c!.id, { importance: 1 });
  const C = lastChange();
  void b;
  return { A, I, E, B, C, before, after: dump(path) };
}

const PACED: GroupUndoOptions = { oneTransactionRows: 0, pacing: { maxBatchItems: 1, pauseMs: 0 } };

describe('dependents of a change', () => {
  it('are the later applied changes that share a row with it or with one of its dependants, newest first', async () => {
    const { A, B, C, E, I } = await chain(fixtureCopy());
    const j = engine!.store.journal;
    expect(j.dependents(A).map((c) => c.id)).toEqual([C, B]);
    expect(j.dependents(A)[0]).toMatchObject({ label: expect.any(String), counts: { memories_modified: 1 } });
    expect(j.dependents(B).map((c) => c.id)).toEqual([C]);
    expect(j.dependents(E).map((c) => c.id)).toEqual([C, B]);
    expect(j.dependents(I)).toEqual([]);
    expect(j.dependents(C)).toEqual([]);
    // An undone dependant is no longer one (nor is what depended only on it).
    j.undo(C);
    expect(j.dependents(A).map((c) => c.id)).toEqual([B]);
    expect(() => j.dependents(9999)).toThrow(/no change #9999/);
  });

  it('the plain undo is still refused, and says it can be done with the dependants', async () => {
    const { A, B } = await chain(fixtureCopy());
    let err: unknown;
    try {
      engine!.store.journal.undo(A);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'conflict', details: { blocked_by: [B], with_dependents: true } });
  });
});

describe.each([
  ['in one transaction', {} as GroupUndoOptions],
  ['paced, one batch per transaction', PACED],
])('undo with dependents, %s', (_name, opts) => {
  it('undoes C, B, then A, leaves I and E applied, and the store is as before A once I and E are undone too', async () => {
    const path = fixtureCopy();
    const { A, B, C, E, I, before } = await chain(path);
    const progress: [number, number][] = [];
    const r = await undoWithDependents(sqliteAdapterOf(engine!), A, { ...opts, onProgress: (d, t) => progress.push([d, t]) });
    expect(r.undone.map((c) => c.id)).toEqual([C, B, A]);
    expect(r.change).toMatchObject({ id: A, state: 'undone' });
    expect(states()).toMatchObject({ [A]: 'undone', [B]: 'undone', [C]: 'undone', [E]: 'applied', [I]: 'applied' });
    expect(progress.at(-1)).toEqual([12, 12]);
    expect(runInProgress(engine!.store)).toBeNull();
    engine!.store.journal.undo(E);
    engine!.store.journal.undo(I);
    expect(dump(path)).toEqual(before);
  });

  it('redo brings the group back in the original order, one change per redo', async () => {
    const path = fixtureCopy();
    const { A, B, C, after } = await chain(path);
    await undoWithDependents(sqliteAdapterOf(engine!), A, opts);
    const redone = [engine!.store.journal.redo().id, engine!.store.journal.redo().id, engine!.store.journal.redo().id];
    expect(redone).toEqual([A, B, C]);
    expect(dump(path)).toEqual(after);
  });

  it('a failure part-way leaves the store and the journal as they were', async () => {
    const path = fixtureCopy();
    const { A, after } = await chain(path);
    const statesBefore = states();
    const j = sqliteAdapterOf(engine!).journal;
    const real = j.writeImages.bind(j);
    let calls = 0;
    // One transaction: the 2nd write is B's. Paced: the 3rd is the second batch of B (8 of its 10 rows already restored).
    const failAt = opts === PACED ? 3 : 2;
    vi.spyOn(j, 'writeImages').mockImplementation((rows, side) => {
      if (++calls === failAt) throw new Error('disk on fire');
      real(rows, side);
    });
    await expect(undoWithDependents(sqliteAdapterOf(engine!), A, opts)).rejects.toThrow('disk on fire');
    expect(dump(path)).toEqual(after);
    expect(states()).toEqual(statesBefore);
    expect(runInProgress(engine!.store)).toBeNull();
    // Nothing is left behind that would block the same request a second time.
    vi.restoreAllMocks();
    await undoWithDependents(sqliteAdapterOf(engine!), A, opts);
    expect(engine!.store.journal.get(A).state).toBe('undone');
  });
});

describe('undo with dependents: owners and crashes', () => {
  it("a caller scoped to an owner cannot undo a group that touched another owner's memory", async () => {
    const path = fixtureCopy();
    engine = Engine.open(path, { clock: fixedClock(NOW) });
    const alice = await addMemory(engine, { content: 'alice keeps the kiln log', owner: 'alice@1' });
    const bob = await addMemory(engine, { content: 'bob orders the glaze', owner: 'bob' });
    const shared = await addMemory(engine, { content: 'the studio opens at nine' });
    await updateMemory(engine, alice.id, { importance: 8 });
    const mine = lastChange();
    await updateMemory(engine, shared.id, { importance: 7 });
    const sharedOnly = lastChange();
    archiveMemories(engine, [alice.id, bob.id], true);
    const state = dump(path);
    await expect(undoWithDependents(sqliteAdapterOf(engine), mine, { actorOwner: 'alice@2' })).rejects.toMatchObject({ code: 'permission', details: { owners: ['bob'] } });
    await expect(undoWithDependents(sqliteAdapterOf(engine), mine, { actorOwner: 'bob' })).rejects.toMatchObject({ code: 'permission', details: { owners: ['alice@1'] } });
    expect(dump(path)).toEqual(state);
    // Unowned memories are everyone's; the local user (no scope) may undo anything.
    expect((await undoWithDependents(sqliteAdapterOf(engine), sharedOnly, { actorOwner: 'bob' })).undone).toHaveLength(1);
    expect((await undoWithDependents(sqliteAdapterOf(engine), mine)).undone).toHaveLength(2);
  });

  it('a group undo cut short by a crash is completed for the whole group on the next open', async () => {
    const path = fixtureCopy();
    const { A, B, C } = await chain(path);
    const store = sqliteAdapterOf(engine!);
    // What a dead writer leaves: the marker of the first change of the group, the rest queued.
    store.transaction(() => writeMarker(store, { ...newMarker(store, C, 'undo', 'c', Number.MAX_SAFE_INTEGER), host: hostname(), queue: [B, A] }));
    expect(recoverInterruptedRun(store)).toMatch(/with the 2 changes queued after it/);
    expect(states()).toMatchObject({ [A]: 'undone', [B]: 'undone', [C]: 'undone' });
  });
});
