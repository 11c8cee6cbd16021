import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { addMemory } from '../../core/engine/memory-ops.js';
import { partOfIndex } from '../../core/recall/mnemo/stages.js';

describe('mnemo part_of index', () => {
  it('maps children to parents and back, and follows edge changes', async () => {
    const engine = Engine.open(':memory:', { create: true, clock: fixedClock(1000) });
    const s = await addMemory(engine, { content: 'session' });
    const t = await addMemory(engine, { content: 'other session' });
    const a = await addMemory(engine, { content: 'a', edges: [{ target_id: s.id, type: 'part_of', weight: 1, created_at: 0 }] });
    const b = await addMemory(engine, { content: 'b', edges: [{ target_id: s.id, type: 'part_of', weight: 1, created_at: 0 }, { target_id: a.id, type: 'precedes', weight: 1, created_at: 0 }] });
    let idx = partOfIndex(engine);
    expect(idx.childrenOf(s.id)).toEqual([a.id, b.id]);
    expect(idx.parentsOf(b.id)).toEqual([s.id]);
    engine.store.removeEdge(a.id, s.id, 'part_of');
    engine.store.addEdge(a.id, t.id, 'part_of');
    idx = partOfIndex(engine);
    expect(idx.childrenOf(s.id)).toEqual([b.id]);
    expect(idx.childrenOf(t.id)).toEqual([a.id]);
    engine.store.delete(b.id);
    expect(partOfIndex(engine).childrenOf(s.id)).toEqual([]);
    engine.close();
  });
});
