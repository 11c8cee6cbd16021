/**
 * What a store's journal can undo is handed to it when the store opens, never registered by a
 * module as a side effect of being imported. Each case loads core afresh (vi.resetModules), so the
 * only modules in play are the ones the case imports itself: the undo must not depend on some
 * earlier import of core/beliefs/index.ts.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../support/fixture.js';
import { sqliteAdapterOf } from '../../support/sqlite-adapter.js';

const NOW = 1_725_920_000;
const DAY = 86_400;
const T0 = 1_700_000_000;

/** A store where "Alex Stone" was merged into "Alexandra Stone"; returns its path and the merge's change id. */
async function storeWithAliasMerge(): Promise<{ path: string; changeId: number }> {
  const { Engine } = await import('../../core/engine/engine.js');
  const { fixedClock } = await import('../../core/clock.js');
  const beliefs = await import('../../core/beliefs/index.js');
  const path = join(tempDir('mnemo-journal-targets-'), 'beliefs.sqlite');
  const engine = Engine.open(path, { create: true, clock: fixedClock(NOW), journalFollowUps: beliefs.beliefJournalFollowUps });
  try {
    const model = beliefs.beliefsOf(engine);
    const report = (entity: string, day: number) => ({ entity, attribute: 'city', value: 'Lyon', t: T0 + day * DAY, reliability: 0.9, evidence: `${entity} lives in Lyon.`, source: 'test', memory_id: null, id: null, line: 1 });
    model.ingest([report('Alexandra Stone', 0), report('Alexandra Stone', 30), report('Alexandra Stone', 60), report('Alex Stone', 20), report('Alex Stone', 40)], NOW);
    const { change_id } = beliefs.applyAliasMerges(model, [{ alias: 'Alex Stone', canonical: 'Alexandra Stone' }], undefined, NOW);
    expect(change_id).not.toBeNull();
    expect(model.tables.dimension('Alexandra Stone', 'city')!.deltas).toBe(5);
    return { path, changeId: change_id! };
  } finally {
    engine.close();
  }
}

afterEach(() => {
  vi.resetModules();
});

describe('journal targets are wired at open, not by imports', () => {
  it('the API session undoes an alias merge in a process that never imported core/beliefs/index.ts', async () => {
    const { path, changeId } = await storeWithAliasMerge();
    vi.resetModules();
    const { ApiSession } = await import('../../core/api/context.js');
    const { BeliefTables } = await import('../../core/store/sqlite/belief-tables.js');
    const session = new ApiSession();
    try {
      const store = sqliteAdapterOf(session.open(path));
      store.journal.undo(changeId);
      const tables = new BeliefTables(store);
      expect(tables.aliases()).toEqual([]);
      // the derived dimensions are replayed from the log: each name has its own reports again
      expect(tables.dimension('Alex Stone', 'city')!.deltas).toBe(2);
      expect(tables.dimension('Alexandra Stone', 'city')!.deltas).toBe(3);
    } finally {
      session.close();
    }
  });

  it('a store opened at the lowest level with the belief targets undoes and redoes the merge', async () => {
    const { path, changeId } = await storeWithAliasMerge();
    vi.resetModules();
    const { MemoryStore } = await import('../../core/store/sqlite/sqlite-store.js');
    const { BeliefTables } = await import('../../core/store/sqlite/belief-tables.js');
    const { beliefJournalFollowUps } = await import('../../core/beliefs/journal-target.js');
    const store = MemoryStore.open(path, { journalFollowUps: beliefJournalFollowUps });
    try {
      const tables = new BeliefTables(store);
      store.journal.undo(changeId);
      expect(tables.aliases()).toEqual([]);
      expect(tables.dimension('Alex Stone', 'city')!.deltas).toBe(2);
      store.journal.redo(changeId);
      expect(tables.aliases().map((a) => [a.alias, a.canonical])).toEqual([['Alex Stone', 'Alexandra Stone']]);
      expect(tables.dimension('Alexandra Stone', 'city')!.deltas).toBe(5);
    } finally {
      store.close();
    }
  });

  it('a store opened without them refuses with a typed error that names the row kind, and changes nothing', async () => {
    const { path, changeId } = await storeWithAliasMerge();
    // core/beliefs is loaded in this module graph, which used to be enough to restore its rows
    await import('../../core/beliefs/index.js');
    const { MemoryStore } = await import('../../core/store/sqlite/sqlite-store.js');
    const { BeliefTables } = await import('../../core/store/sqlite/belief-tables.js');
    const { MnemoError } = await import('../../core/errors.js');
    const store = MemoryStore.open(path);
    try {
      let thrown: unknown;
      try {
        store.journal.undo(changeId);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(MnemoError);
      expect((thrown as InstanceType<typeof MnemoError>).message).toMatch(/without the journal target for "belief-alias" rows/);
      expect(new BeliefTables(store).aliases()).toHaveLength(1);
      expect(store.journal.get(changeId).state).toBe('applied');
    } finally {
      store.close();
    }
  });

  it('a store opened without them still undoes a rejected pair, whose row is all there is to restore', async () => {
    const { Engine } = await import('../../core/engine/engine.js');
    const { fixedClock } = await import('../../core/clock.js');
    const beliefs = await import('../../core/beliefs/index.js');
    const path = join(tempDir('mnemo-journal-targets-'), 'reject.sqlite');
    const engine = Engine.open(path, { create: true, clock: fixedClock(NOW) });
    try {
      const model = beliefs.beliefsOf(engine);
      const report = (entity: string) => ({ entity, attribute: 'city', value: 'Lyon', t: T0, reliability: 0.9, evidence: `${entity} lives in Lyon.`, source: 'test', memory_id: null, id: null, line: 1 });
      model.ingest([report('Alexandra Stone'), report('Alex Stone')], NOW);
      const { change_id } = beliefs.rejectAliasPair(model, 'Alexandra Stone', 'Alex Stone', NOW);
      expect(model.tables.rejections()).toHaveLength(1);
      engine.store.journal.undo(change_id!);
      expect(model.tables.rejections()).toEqual([]);
      engine.store.journal.redo(change_id!);
      expect(model.tables.rejections()).toHaveLength(1);
    } finally {
      engine.close();
    }
  });
});
