import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { addMemory, archiveMemories, linkMemories, updateMemory } from '../../core/engine/memory-ops.js';
import { expected, fixtureCopy } from '../../support/fixture.js';
import { allMemories, countMemories } from '../../core/store/queries/memory-lookups.js';

const NOW = expected().now as number;
let engine: Engine | null = null;
afterEach(() => {
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

describe('change journal', () => {
  it('undo restores every touched row exactly; redo re-applies', async () => {
    const path = fixtureCopy();
    engine = Engine.open(path, { clock: fixedClock(NOW) });
    engine.store.ensureMnemo();
    const before = dump(path);
    const [a, b] = allMemories(engine.store);
    const { memory } = await updateMemory(engine, a!.id, { content: 'rewritten', tags: ['x'] });
    const { changeId } = linkMemories(engine, memory.id, b!.id, 'causes', 0.8);
    const history = engine.store.journal.history();
    expect(history.map((h) => h.kind)).toEqual(['edge.add', 'memory.update']);
    engine.store.journal.undo(changeId!);
    engine.store.journal.undo(history[1]!.id);
    expect(dump(path)).toEqual(before);
    engine.store.journal.redo();
    expect(engine.store.get(a!.id)!.content).toBe('rewritten');
    expect(engine.store.journal.history()[1]!.state).toBe('applied');
  });

  it('refuses to undo a change that a later change touched, naming the blocker', async () => {
    engine = Engine.open(fixtureCopy(), { clock: fixedClock(NOW) });
    const [a] = allMemories(engine.store);
    await updateMemory(engine, a!.id, { importance: 9 });
    const first = engine.store.journal.history()[0]!;
    await updateMemory(engine, a!.id, { importance: 2 });
    const second = engine.store.journal.history()[0]!;
    expect(() => engine!.store.journal.undo(first.id)).toThrow(new RegExp(`later change #${second.id}`));
    engine.store.journal.undo(second.id);
    engine.store.journal.undo(first.id);
    expect(engine.store.get(a!.id)!.importance).toBe(a!.importance);
  });

  it('an access in between does not block undo and survives it', async () => {
    engine = Engine.open(fixtureCopy(), { clock: fixedClock(NOW) });
    const [a] = allMemories(engine.store);
    await updateMemory(engine, a!.id, { title: 'New title' });
    const change = engine.store.journal.history()[0]!;
    engine.store.logAccesses([{ id: a!.id, record: { ts: NOW + 1, channel: 'recalled', reader_owner: '', session_ref: null, trace_ref: null, query: null, score: null, rank: null, components: null } }]);
    engine.store.journal.undo(change.id);
    const m = engine.store.get(a!.id)!;
    expect(m.title).toBe(a!.title);
    expect(m.recalled_count).toBe(a!.recalled_count + 1);
    expect(m.strength).toBe(a!.strength + 1);
  });

  it('undoes an add (the row disappears) and an archive of many', async () => {
    engine = Engine.open(fixtureCopy(), { clock: fixedClock(NOW) });
    const m = await addMemory(engine, { content: 'fresh memory' });
    const ids = allMemories(engine.store).slice(0, 5).map((x) => x.id);
    const { changeId } = archiveMemories(engine, ids, true);
    expect(countMemories(engine.store)).toBe(150 + 1 - 5);
    engine.store.journal.undo(changeId!);
    engine.store.journal.undo(engine.store.journal.history()[1]!.id);
    expect(engine.store.exists(m.id)).toBe(false);
    expect(countMemories(engine.store)).toBe(150);
    expect(engine.vectors.get().has(ids[0]!)).toBe(true);
  });
});
