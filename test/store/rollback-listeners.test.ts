/**
 * Listeners hear our writes inside the transaction; when it rolls back, they are told again and
 * re-read the committed rows. Before, a rolled-back write stayed in every derived index, and in the
 * list's text search (kept in the sidecar, its own file) even across a reopen.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { textFilter } from '../../core/api/handlers/memory.js';
import { Engine } from '../../core/engine/engine.js';
import { createMemory } from '../../core/model/memory.js';
import { Derived } from '../../core/store/derived/derived.js';
import { generateDemo } from '../../core/demo/generate.js';
import { tempDir } from '../../support/fixture.js';
import { SpyIndex } from '../../support/spy-index.js';

const NOW = 1_780_000_000;

function openAt(path: string): Engine {
  return Engine.open(path, { clock: fixedClock(NOW), onWarning: () => {}, create: true });
}

// textFilter answers no match with one sentinel id no memory has.
const found = (engine: Engine, text: string) => (textFilter<{ text?: string; ids?: string[] }>(engine, { text }).ids ?? []).filter((id) => !id.startsWith('\u0000'));

describe('a transaction that rolls back', () => {
  it('leaves the derived indexes and the sidecar text search as the committed rows, before and after a reopen', () => {
    const path = join(tempDir('mnemo-rollback-'), 'store.sqlite');
    let engine = openAt(path);
    generateDemo(engine.store, { size: 50, seed: 3, now: NOW });
    const spy = new SpyIndex();
    const derived = new Derived(engine.store, spy);
    derived.get();
    const before = new Map(spy.rows);
    const kept = [...before.keys()][0]!;
    expect(found(engine, 'zanzibarian')).toEqual([]);

    expect(() =>
      engine.store.transaction(() => {
        engine.store.add(createMemory({ content: 'a zanzibarian note that never happened' }, NOW), null);
        engine.store.delete(kept);
        throw new Error('the caller failed after writing');
      }),
    ).toThrow('the caller failed');

    derived.get();
    expect(spy.rows).toEqual(before);
    expect(engine.store.exists(kept)).toBe(true);
    expect(found(engine, 'zanzibarian')).toEqual([]);
    derived.dispose();
    engine.close();

    engine = openAt(path);
    expect(found(engine, 'zanzibarian')).toEqual([]);
    engine.close();
  });
});
