import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { addMemory, archiveMemories } from '../../core/engine/memory-ops.js';
import { entityIndex } from '../../core/recall/mnemo/stages.js';
import { entityWords } from '../../core/recall/mnemo/entity-index.js';

describe('mnemo entity index', () => {
  it('finds the known entities a query names, whole words only, longest first', async () => {
    const engine = Engine.open(':memory:', { create: true, clock: fixedClock(1000) });
    await addMemory(engine, { content: 'x', entities: ['Melanie', 'New York'] });
    await addMemory(engine, { content: 'y', entities: ['York', 'Mel'] });
    const idx = entityIndex(engine);
    expect(idx.entitiesIn("What did Melanie's friend see in New York?")).toEqual(['melanie', 'new york']);
    expect(idx.entitiesIn('Did Melanie visit Yorkshire?')).toEqual(['melanie']);
    expect(idx.entitiesIn('Where is York?')).toEqual(['york']);
    engine.close();
  });

  it('scores the share of the named entities a memory carries and follows archiving', async () => {
    const engine = Engine.open(':memory:', { create: true, clock: fixedClock(1000) });
    const a = await addMemory(engine, { content: 'x', entities: ['Ada', 'Paris'] });
    const b = await addMemory(engine, { content: 'y', entities: ['Ada'] });
    const idx = entityIndex(engine);
    const named = idx.entitiesIn('Did Ada like Paris?');
    expect(idx.overlap(a.id, named)).toBe(1);
    expect(idx.overlap(b.id, named)).toBe(0.5);
    expect(idx.overlap(b.id, [])).toBe(0);
    archiveMemories(engine, [a.id], true);
    expect(entityIndex(engine).entitiesIn('Did Ada like Paris?')).toEqual(['ada']);
    expect([...entityIndex(engine).holdersOf('ada')]).toEqual([b.id]);
    engine.close();
  });

  it('normalises entity strings like query words', () => {
    expect(entityWords("Jon's  Café-Bar")).toEqual(['jon', 'café', 'bar']);
  });
});
