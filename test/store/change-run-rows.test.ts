/**
 * A change written in batches closes from what the run noted as it went (not by reading every
 * before- and after-image again under the lock): rows that later batches put back as they were are
 * no change, and the counts name what was created, modified and deleted.
 */
import { describe, expect, it } from 'vitest';
import { ChangeRun } from '../../core/store/shared/change-run.js';
import { fixtureCopy } from '../../support/fixture.js';
import { openAt } from '../../support/reflect.js';
import { sqliteAdapterOf } from '../../support/sqlite-adapter.js';
import { allMemories } from '../../core/store/queries/memory-lookups.js';

const NOW = 1_780_000_000;

describe('closing a change written in batches', () => {
  it('drops rows put back as they were, keeps the others, and counts each kind', () => {
    const engine = openAt(fixtureCopy(), NOW);
    const store = sqliteAdapterOf(engine);
    const [a, b, c] = allMemories(store).filter((m) => !m.archived).slice(0, 3);
    const run = new ChangeRun(store, 'test: three batches', 'test');
    run.batch(() => {
      store.save({ ...a!, importance: 0.91 });
      store.save({ ...b!, importance: 0.92 });
    });
    run.batch(() => {
      store.save({ ...a! }); // a as it was before the run
      store.delete(c!.id);
    });
    const id = run.finish(() => ({}));
    expect(id).not.toBeNull();
    const keys = store.journal.rows(id!).map((r) => r.key);
    // b changed, c is gone (memories with an edge to c lost it: they are modified too); a is back as it was.
    expect(keys).toEqual(expect.arrayContaining([`m:${b!.id}`, `m:${c!.id}`]));
    expect(keys).not.toContain(`m:${a!.id}`);
    const change = store.journal.get(id!);
    expect(change.counts['memories_deleted']).toBe(1);
    expect(change.counts['memories_modified']).toBe(keys.length - 1);
    expect(JSON.stringify(change.counts)).not.toContain('created');
    engine.close();
  });

  it('leaves no change at all when every row is back as it was', () => {
    const engine = openAt(fixtureCopy(), NOW);
    const store = sqliteAdapterOf(engine);
    const [a] = allMemories(store).filter((m) => !m.archived).slice(0, 1);
    const run = new ChangeRun(store, 'test: back and forth', 'test');
    run.batch(() => store.save({ ...a!, importance: 0.5 + a!.importance / 4 }));
    run.batch(() => store.save({ ...a! }));
    expect(run.finish(() => ({}))).toBeNull();
    expect(store.journal.history(5).some((c) => c.label === 'test: back and forth')).toBe(false);
    engine.close();
  });
});
