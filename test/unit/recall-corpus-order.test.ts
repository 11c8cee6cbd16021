/**
 * The recall corpus keeps its slots in rowid order (nooa's tie order) while rows arrive out of
 * that order, as they do on PostgreSQL with several writers: a row a few places behind is put in
 * its place without reloading the corpus, and every answer equals a freshly loaded corpus's.
 */
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { fixedClock } from '../../core/clock.js';
import { createMemory } from '../../core/model/memory.js';
import { RecallCorpus } from '../../core/recall/corpus.js';
import type { PartSource } from '../../core/store/derived/snapshot-parts.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';

const NOW = 1_780_000_000;
const WORDS = ['amber', 'basil', 'cobalt', 'delta', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'juniper'];
const OWNERS = ['ops@1', 'ops@2', 'qa@1', ''];

function storeOf(n: number): { store: MemoryStore; ids: string[] } {
  const store = MemoryStore.open(join(tempDir(), 'store.sqlite'), { clock: fixedClock(NOW), create: true });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const m = createMemory({ content: `note ${i}: ${WORDS[i % 10]} ${WORDS[(i * 3) % 10]} step${i}`, owner: OWNERS[i % 4]!, tags: [WORDS[(i * 7) % 10]!] }, NOW);
    store.add(m, null);
    ids.push(m.id);
  }
  return { store, ids };
}

const FIELDS = [['content'], ['content', 'title', 'tags']] as const;

function answers(corpus: RecallCorpus, tokens: readonly string[]) {
  const out: Record<string, number[]> = {};
  for (const fields of FIELDS) {
    for (const t of tokens) {
      const bits = new Uint32Array(corpus.words + 64);
      corpus.matchBits(fields, t, bits);
      out[`${fields.join('+')}:${t}`] = [...bits.keys()].filter((s) => (bits[s >>> 5]! >>> (s & 31)) & 1).map((s) => corpus.rowidOf(s));
    }
  }
  for (const scope of ['ops', 'ops@2', 'qa', null]) {
    const bits = corpus.scopeBits(scope);
    out[`scope:${scope}`] = corpus.allIds().flatMap((_id, s) => ((bits[s >>> 5]! >>> (s & 31)) & 1 ? [corpus.rowidOf(s)] : []));
  }
  return out;
}

describe('RecallCorpus with rows arriving out of rowid order', () => {
  it('puts a late row in its place, without a reload, and answers as a fresh load does', () => {
    const { store, ids } = storeOf(60);
    // The last 20 are not there yet when the corpus loads (archived), and come back in a shuffled order.
    for (const id of ids.slice(40)) store.setArchived(id, true);
    const corpus = new RecallCorpus();
    corpus.load(store);
    const tokens = [...WORDS, 'step4', 'note', 'step45', 'zzz'];
    // Enough distinct tokens that the substring indexes are built, and owner scopes made, before the rows come.
    for (let i = 0; i < 30; i++) answers(corpus, [`step${i}`]);
    answers(corpus, tokens);
    const reads = vi.spyOn(store.queries, 'liveSourceRows');
    const late = [55, 41, 59, 40, 52, 43, 58, 47, 44, 50, 57, 42, 49, 46, 56, 45, 54, 48, 53, 51];
    for (const i of late) {
      store.setArchived(ids[i]!, false);
      corpus.update(store, ids[i]!);
      corpus.ensureFresh();
      expect(corpus.allRowids()).toEqual(corpus.allRowids().sort((a, b) => a - b));
    }
    // A row edited in place after the moves is found under its new words.
    const edited = store.get(ids[43]!)!;
    edited.content = 'note 43 rewritten as kestrel';
    store.save(edited);
    corpus.update(store, edited.id);
    expect(reads).not.toHaveBeenCalled();

    const fresh = new RecallCorpus();
    fresh.load(store);
    expect(corpus.allIds()).toEqual(fresh.allIds());
    expect(corpus.allRowids()).toEqual(fresh.allRowids());
    expect(answers(corpus, [...tokens, 'kestrel'])).toEqual(answers(fresh, [...tokens, 'kestrel']));
    for (const id of ids) expect(corpus.slot(id) === undefined).toBe(fresh.slot(id) === undefined);
    store.close();
  });

  it('keeps a slot read back from a snapshot with its own fields when later rows push it up', () => {
    const { store, ids } = storeOf(12);
    for (const id of ids.slice(8)) store.setArchived(id, true);
    const saved = new RecallCorpus();
    saved.load(store);
    const restored = new RecallCorpus();
    restored.restoreSnapshot(snapshotSource(saved.saveSnapshot()!), store);
    for (const i of [10, 11, 8, 9]) {
      store.setArchived(ids[i]!, false);
      restored.update(store, ids[i]!);
    }
    const fresh = new RecallCorpus();
    fresh.load(store);
    expect(restored.allRowids()).toEqual(fresh.allRowids());
    for (let s = 0; s < fresh.size; s++) expect(restored.dataOf(s)).toEqual(fresh.dataOf(s));
    store.close();
  });
});

/** Parts as a snapshot file hands them back. */
function snapshotSource(parts: Map<string, Uint8Array>): PartSource {
  return { get: (part) => parts.get(part), has: (part) => parts.has(part) };
}
