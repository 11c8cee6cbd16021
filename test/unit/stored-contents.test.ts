/**
 * A corpus snapshot's texts read as little as a recall needs (core/recall/stored-contents.ts): a
 * keyword token's slots come from the word lists, exactly as `lower(text) LIKE '%token%'`, and one
 * text is read alone; only a token with other characters reads the texts whole.
 */
import { describe, expect, it } from 'vitest';
import { encodeSlotWords, StoredContents, TextsInMemory } from '../../core/recall/stored-contents.js';
import { asciiLower } from '../../core/recall/tokens.js';
import { PartsReader, PartsWriter, type PartSource } from '../../core/store/derived/snapshot-parts.js';

const TEXTS = [
  'Deploy the BILLING service to qa',
  'deploy-billing: redeployed twice (v2.0.10)',
  '',
  'Ünïcödé café — naïve façade; MIXEDcase Café',
  'emoji 🚀 between w🚀ords and 日本語テキスト with ascii tail abc123',
  'a b c d e f aa bb ab',
  'the the THE tHe',
  'x'.repeat(3000),
  'İstanbul ǅungla ﬁle',
  'tab\tseparated\nnew line',
  'ends with digits 0042',
];

function snapshotOf(texts: readonly string[]): { parts: Map<string, Uint8Array>; reads: string[] } {
  const w = new PartsWriter();
  expect(w.utf8Ranged('contents', texts)).toBe(true);
  const words = encodeSlotWords(texts);
  expect(w.strings('words', words.vocabulary)).toBe(true);
  w.typed('words.count', words.counts);
  w.typed('words.slots', words.slots);
  return { parts: w.parts, reads: [] };
}

/** A part source that records which parts were read whole, and serves ranges like a snapshot file. */
function recording(parts: Map<string, Uint8Array>, reads: string[]): PartSource {
  return {
    get: (name) => {
      reads.push(name);
      return parts.get(name);
    },
    has: (name) => parts.has(name),
    range: (name, from, to) => parts.get(name)!.slice(from, to),
    byteLength: (name) => parts.get(name)?.byteLength,
  };
}

function bitsOf(out: Uint32Array, n: number): number[] {
  const slots: number[] = [];
  for (let s = 0; s < n; s++) if ((out[s >>> 5]! >>> (s & 31)) & 1) slots.push(s);
  return slots;
}

const TOKENS = ['deploy', 'billing', 'redeploy', 'ploy', 'v2', '10', '0', '0042', 'e', 'ab', 'aa', 'the', 'caf', 'mixedcase', 'ascii', 'abc123', 'c1', 'stanbul', 'le', 'xxxxxxxx', 'tab', 'separatednew', 'zz', 'q'];

describe('stored contents', () => {
  it('answers every keyword token exactly as a scan of the lower-cased texts, without reading the texts', () => {
    const { parts, reads } = snapshotOf(TEXTS);
    const stored = new StoredContents(new PartsReader(recording(parts, reads)), TEXTS.length);
    for (const token of TOKENS) {
      const out = new Uint32Array(1);
      stored.setContaining(token, out);
      const expected = TEXTS.flatMap((t, s) => (asciiLower(t).includes(token) ? [s] : []));
      expect(bitsOf(out, TEXTS.length), token).toEqual(expected);
    }
    // A word never spans punctuation, a space or a non-ASCII letter, so such a token matches nothing.
    expect(TOKENS.some((t) => TEXTS.some((x) => asciiLower(x).includes(t)))).toBe(true);
    expect(reads).not.toContain('contents.utf8');
  });

  it('reads one text alone, byte for byte, and only a token of other characters reads them whole', () => {
    const { parts, reads } = snapshotOf(TEXTS);
    const stored = new StoredContents(new PartsReader(recording(parts, reads)), TEXTS.length);
    TEXTS.forEach((t, i) => expect(stored.get(i)).toBe(t));
    expect(reads).not.toContain('contents.utf8');
    for (const token of ['café', ' the', '🚀', 'w🚀o', 'deploy-billing']) {
      const out = new Uint32Array(1);
      stored.setContaining(token, out);
      expect(bitsOf(out, TEXTS.length), token).toEqual(TEXTS.flatMap((t, s) => (asciiLower(t).includes(token) ? [s] : [])));
    }
    expect(reads).toContain('contents.utf8');
    expect(stored.toArray()).toEqual(TEXTS);
  });

  it('lists a word once per text, its texts ascending, and stores the byte start of every text', () => {
    const texts = ['b a b', 'a', 'A-b', 'é'];
    const words = encodeSlotWords(texts);
    expect(words.vocabulary).toEqual(['b', 'a']);
    expect([...words.counts]).toEqual([2, 3]);
    expect([...words.slots]).toEqual([0, 2, 0, 1, 2]);
    const w = new PartsWriter();
    expect(w.utf8Ranged('contents', texts)).toBe(true);
    expect([...new Float64Array(w.parts.get('contents.starts')!.slice().buffer)]).toEqual([0, 5, 6, 9, 11]);
    const ranged = new PartsReader(w.parts).rangedStrings('contents', 4);
    expect(ranged.range(1, 4)).toEqual(texts.slice(1));
    expect(ranged.range(2, 2)).toEqual([]);
  });

  it('refuses stored starts that leave the bytes or go back, naming the part', () => {
    const w = new PartsWriter();
    expect(w.utf8Ranged('contents', ['abc', 'de'])).toBe(true);
    const starts = new Float64Array(w.parts.get('contents.starts')!.slice().buffer);
    starts[1] = 9; // past the 5 bytes
    w.parts.set('contents.starts', new Uint8Array(starts.buffer));
    const stored = new StoredContents(new PartsReader(w.parts), 2);
    expect(() => stored.get(0)).toThrow(/contents\.starts/);
    expect(() => stored.toArray()).toThrow(/contents\.starts|last byte/);
  });

  it('holds texts in memory the same way when a snapshot is not there to read', () => {
    const mem = new TextsInMemory(TEXTS);
    for (const token of TOKENS) {
      const out = new Uint32Array(1);
      mem.setContaining(token, out);
      expect(bitsOf(out, TEXTS.length), token).toEqual(TEXTS.flatMap((t, s) => (asciiLower(t).includes(token) ? [s] : [])));
    }
    expect(mem.get(3)).toBe(TEXTS[3]);
  });
});
