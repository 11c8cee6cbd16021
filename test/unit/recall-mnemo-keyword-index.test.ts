import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { Engine } from '../../core/engine/engine.js';
import { addMemory, archiveMemories } from '../../core/engine/memory-ops.js';
import { keywordIndex } from '../../core/recall/mnemo/stages.js';
import { KeywordIndex } from '../../core/recall/mnemo/keyword-index.js';
import { WordStemCache } from '../../core/recall/mnemo/word-stems.js';
import { tempDir } from '../../support/temp-dirs.js';

async function store() {
  const engine = Engine.open(':memory:', { create: true, clock: fixedClock(1000) });
  const a = await addMemory(engine, { content: 'We painted the fence blue' });
  const b = await addMemory(engine, { content: 'Yes, last Tuesday!' });
  const c = await addMemory(engine, { content: 'The fence is old', owner: 'coder@c1' });
  return { engine, a, b, c };
}

describe('mnemo BM25 keyword index', () => {
  it('stems with Porter when asked, and not otherwise', async () => {
    const { engine, a } = await store();
    expect(keywordIndex(engine, true).search({ terms: ['painting'], limit: 5, contextWeight: 0 }).map((h) => h.id)).toEqual([a.id]);
    expect(keywordIndex(engine, false).search({ terms: ['painting'], limit: 5, contextWeight: 0 })).toEqual([]);
    engine.close();
  });

  it('ranks by bm25, larger is better, and filters rows through the scope', async () => {
    const { engine, a, c } = await store();
    const idx = keywordIndex(engine, true);
    const hits = idx.search({ terms: ['fence', 'old'], limit: 5, contextWeight: 0 });
    expect(hits.map((h) => h.id)).toEqual([c.id, a.id]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(idx.search({ terms: ['fence'], limit: 5, contextWeight: 0, visible: (owner) => owner === '' }).map((h) => h.id)).toEqual([a.id]);
    engine.close();
  });

  it('finds a reply through the text of the memory it follows (precedes edges), only when the context column is weighted', async () => {
    const { engine, a, b } = await store();
    engine.store.addEdge(a.id, b.id, 'precedes');
    const idx = keywordIndex(engine, true);
    expect(idx.search({ terms: ['painted'], limit: 5, contextWeight: 0 }).map((h) => h.id)).toEqual([a.id]);
    expect(idx.search({ terms: ['painted'], limit: 5, contextWeight: 0.5 }).map((h) => h.id)).toEqual([a.id, b.id]);
    expect(idx.search({ terms: ['tuesday'], limit: 5, contextWeight: 0.5 }).map((h) => h.id)).toEqual([b.id, a.id]);
    engine.close();
  });

  it('never shares context across owners', async () => {
    const { engine, b, c } = await store();
    engine.store.addEdge(c.id, b.id, 'precedes');
    expect(keywordIndex(engine, true).search({ terms: ['fence'], limit: 5, contextWeight: 1 }).map((h) => h.id)).not.toContain(b.id);
    engine.close();
  });

  it('follows edits, archiving and deletion', async () => {
    const { engine, a, b } = await store();
    engine.store.addEdge(a.id, b.id, 'precedes');
    const idx = keywordIndex(engine, true);
    expect(idx.search({ terms: ['fence'], limit: 5, contextWeight: 0.5 }).map((h) => h.id)).toContain(b.id);
    const m = engine.store.get(a.id)!;
    m.content = 'We planted tulips';
    engine.store.save(m);
    const after = keywordIndex(engine, true);
    expect(after.search({ terms: ['tulip'], limit: 5, contextWeight: 0.5 }).map((h) => h.id)).toEqual([a.id, b.id]);
    expect(after.search({ terms: ['painted'], limit: 5, contextWeight: 0.5 })).toEqual([]);
    archiveMemories(engine, [a.id], true);
    expect(keywordIndex(engine, true).search({ terms: ['tulip'], limit: 5, contextWeight: 0.5 })).toEqual([]);
    engine.store.delete(b.id);
    expect(keywordIndex(engine, true).search({ terms: ['tuesday'], limit: 5, contextWeight: 0 })).toEqual([]);
    engine.close();
  });

  it('leaves a memory that was only accessed as it is, and retokenizes one whose text or context changed', async () => {
    const { engine, a, b } = await store();
    const idx = keywordIndex(engine, true);
    const recalled = (id: string) => ({ id, record: { ts: 1001, channel: 'recalled' as const, reader_owner: '', session_ref: null, trace_ref: null, query: 'fence', score: 1, rank: 0, components: null } });
    // A recall logs an access per result: strength and counters change, the words do not.
    engine.store.logAccesses([recalled(a.id), recalled(b.id)]);
    expect(keywordIndex(engine, true).changedSinceBuild).toBe(0);
    engine.store.addEdge(a.id, b.id, 'precedes');
    expect(keywordIndex(engine, true).changedSinceBuild).toBe(2);
    expect(idx.search({ terms: ['painted'], limit: 5, contextWeight: 0.5 }).map((h) => h.id)).toEqual([a.id, b.id]);
    const m = engine.store.get(b.id)!;
    m.content = 'Yes, last Wednesday!';
    engine.store.save(m);
    expect(idx.search({ terms: ['wednesday'], limit: 5, contextWeight: 0 }).map((h) => h.id)).toEqual([b.id]);
    engine.close();
  });

  it("follows another process's context links from the change feed, reading only the edges of a memory whose row did not change", async () => {
    const path = join(tempDir(), 'store.sqlite');
    const writer = Engine.open(path, { create: true, clock: fixedClock(1000) });
    const a = await addMemory(writer, { content: 'We painted the fence blue' });
    const b = await addMemory(writer, { content: 'Yes, last Tuesday!' });
    const reader = Engine.open(path, { clock: fixedClock(1000), indexSnapshots: { enabled: false } });
    const painted = () => keywordIndex(reader, true).search({ terms: ['painted'], limit: 5, contextWeight: 0.5 }).map((h) => h.id);
    expect(painted()).toEqual([a.id]);
    const rowReads = vi.spyOn(reader.store.queries, 'sourceRow');
    writer.store.addEdge(a.id, b.id, 'precedes'); // an edge row only: neither memory's row changed
    expect(painted()).toEqual([a.id, b.id]); // b now carries a's words as context
    // The links moved, so both took the full update; an edge between them of another type moves no link and reads no row.
    rowReads.mockClear();
    writer.store.addEdge(b.id, a.id, 'related');
    expect(painted()).toEqual([a.id, b.id]);
    expect(rowReads).not.toHaveBeenCalled();
    writer.store.removeEdge(a.id, b.id, 'precedes');
    expect(painted()).toEqual([a.id]);
    rowReads.mockRestore();
    writer.close();
    reader.close();
  });
});

describe('query words stemmed once', () => {
  it('ranks the same with stems remembered from earlier queries as with a tokenizer run for each', async () => {
    const engine = Engine.open(':memory:', { create: true, clock: fixedClock(1000) });
    const texts = ['Straße painting ÜBER fences', 'painted 𝔘nicode fence', 'The fences were painted by Ünal', '東京 painters paint', 'running runs ran', 'fence fences fenced'];
    const ids: string[] = [];
    for (const content of texts) ids.push((await addMemory(engine, { content })).id);
    const queries = [['painting', 'fences'], ['Straße', 'über', 'painting'], ['東京', 'paint', 'painting', 'paint'], ['𝔘nicode', 'zzz-unknown', 'fence'], ['running', 'fences', 'Ünal'], ['fence-painting', 'über'], ['paint', 'fence-painting'], ['painting', 'fences']];
    const warm = keywordIndex(engine, true);
    // Both stems of a word the tokenizer splits: "painters paint" holds no fence.
    expect(warm.search({ terms: ['fence-painting'], limit: 10, contextWeight: 0 }).map((h) => h.id)).toContain(ids[3]);
    for (const terms of queries) {
      const q = { terms, limit: 10, contextWeight: 0 };
      const remembered = warm.search(q);
      // A fresh index: every word tokenized now, none remembered.
      const fresh = new KeywordIndex(true);
      fresh.load(engine.store);
      expect(remembered, terms.join(' ')).toEqual(fresh.search(q));
      fresh.dispose();
    }
    engine.close();
  });

  it('asks the tokenizer once per new word, the new words of a query together, and forgets the least recent', () => {
    const cache = new WordStemCache(3);
    const asked: string[][] = [];
    const stem = (words: readonly string[]) => {
      asked.push([...words]);
      return words.map((w) => [w.toLowerCase()]);
    };
    expect(cache.stemsOf(['A', 'B', 'A'], stem)).toEqual([['a'], ['b'], ['a']]);
    expect(cache.stemsOf(['B', 'C'], stem)).toEqual([['b'], ['c']]);
    expect(asked).toEqual([['A', 'B'], ['C']]);
    cache.stemsOf(['D'], stem); // A is the least recent of A, B, C: forgotten
    cache.stemsOf(['B', 'A'], stem);
    expect(asked).toEqual([['A', 'B'], ['C'], ['D'], ['A']]);
  });
});
