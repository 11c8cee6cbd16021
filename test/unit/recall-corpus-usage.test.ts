/**
 * An access changes only a memory's usage, and the recall corpus takes it in place
 * (RecallCorpus.updateUsage): the slot's scoring fields are read again, and a corpus read back from
 * a snapshot is not turned into arrays for it (at a million memories that cost the first recall
 * after an open about 1.3 s). What could go wrong: the new access not seen by scoring, the
 * snapshot's view given up anyway, or a change that is not an access (new text) taken as one.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { createMemory } from '../../core/model/memory.js';
import { RecallCorpus } from '../../core/recall/corpus.js';
import type { PartSource } from '../../core/store/derived/snapshot-parts.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';

const NOW = 1_780_000_000;

function restoredCorpus() {
  const store = MemoryStore.open(join(tempDir(), 'store.sqlite'), { clock: fixedClock(NOW), create: true });
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) {
    const m = createMemory({ content: `note ${i} about the harbor`, owner: i % 2 ? 'ops@1' : '', tags: ['t'] }, NOW - 1000 + i);
    store.add(m, null);
    ids.push(m.id);
  }
  const saved = new RecallCorpus();
  saved.load(store);
  const parts = saved.saveSnapshot()!;
  const source: PartSource = { get: (part) => parts.get(part), has: (part) => parts.has(part) };
  const corpus = new RecallCorpus();
  corpus.restoreSnapshot(source, store);
  return { store, ids, corpus };
}

const recalled = (id: string, ts: number) => ({
  id,
  record: { ts, channel: 'recalled' as const, reader_owner: '', session_ref: null, trace_ref: null, query: 'harbor', score: null, rank: null, components: null },
});

/** Whether the corpus still answers from the snapshot it read back (nothing turned into arrays). */
const onSnapshot = (corpus: RecallCorpus) => (corpus as unknown as { restored: unknown }).restored !== null;

describe('the recall corpus and an access', () => {
  it('reads the accessed slot again in place, and keeps answering from the snapshot read back', () => {
    const { store, ids, corpus } = restoredCorpus();
    const slot = corpus.slot(ids[3]!)!;
    const before = corpus.dataOf(slot).actr.length;
    store.logAccesses([recalled(ids[3]!, NOW + 5), recalled(ids[3]!, NOW + 6)]);
    corpus.updateUsage(store, ids[3]!);
    expect(corpus.dataOf(slot).actr.length).toBe(before + 2);
    expect(onSnapshot(corpus)).toBe(true);
    const fresh = new RecallCorpus();
    fresh.load(store);
    for (let s = 0; s < fresh.size; s++) expect(corpus.dataOf(s)).toEqual(fresh.dataOf(s));
    store.close();
  });

  it('takes a change that is not an access alone (new text, another owner) through a full update', () => {
    const { store, ids, corpus } = restoredCorpus();
    const edited = store.get(ids[4]!)!;
    edited.content = 'note 4 rewritten as kestrel';
    store.save(edited);
    corpus.updateUsage(store, ids[4]!);
    const moved = store.get(ids[5]!)!;
    moved.owner = 'qa@2';
    store.save(moved);
    corpus.updateUsage(store, ids[5]!);
    const fresh = new RecallCorpus();
    fresh.load(store);
    const bits = new Uint32Array(corpus.words);
    corpus.matchBits(['content'], 'kestrel', bits);
    expect([...bits].some((w) => w !== 0)).toBe(true);
    expect(corpus.contentOf(corpus.slot(ids[4]!)!)).toBe('note 4 rewritten as kestrel');
    expect(corpus.ownerOf(corpus.slot(ids[5]!)!)).toBe('qa@2');
    for (let s = 0; s < fresh.size; s++) expect(corpus.dataOf(s)).toEqual(fresh.dataOf(s));
    store.close();
  });

  it("takes this connection's own accesses from the rows as written, reading none back, and ends where a fresh load does", () => {
    const { store, ids, corpus } = restoredCorpus();
    // The corpus follows the store as a Derived index does: through the changes the store tells.
    store.onChange((e) => {
      if (e.kind === 'usage') corpus.updateUsage(store, e.id, e.row);
    });
    let readBack = 0;
    const sourceRow = store.queries.sourceRow.bind(store.queries);
    (store.queries as { sourceRow: typeof sourceRow }).sourceRow = (id) => {
      readBack++;
      return sourceRow(id);
    };
    store.logAccesses([recalled(ids[3]!, NOW + 5), recalled(ids[6]!, NOW + 6), recalled(ids[3]!, NOW + 7)]);
    expect(readBack).toBe(0);
    expect(onSnapshot(corpus)).toBe(true);
    const fresh = new RecallCorpus();
    fresh.load(store);
    for (let s = 0; s < fresh.size; s++) expect(corpus.dataOf(s)).toEqual(fresh.dataOf(s));
    expect(corpus.dataOf(corpus.slot(ids[3]!)!).actr.length).toBe(fresh.dataOf(fresh.slot(ids[3]!)!).actr.length);
    store.close();
  });
});
