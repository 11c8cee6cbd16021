/**
 * The substring keyword leg (core/recall/sparse.ts) against its definition, nooa's keyword_search:
 * every memory whose text holds a query token counts the tokens it holds; a stable sort by count
 * keeps ties in first-seen order (the first token matched, then the slot); the top n are kept.
 * The leg adds each token's matches into bit planes and reads the counts back a word at a time;
 * what could go wrong there: a carry lost (a count off by one), a count level skipped or read
 * twice, a memory listed under a later token than its first, slots out of order inside a word,
 * or a cut at n that stops early.
 */
import { describe, expect, it } from 'vitest';
import { sparseLeg } from '../../core/recall/sparse.js';
import type { RecallCorpus } from '../../core/recall/corpus.js';
import { setBit } from '../../core/recall/substring-index.js';
import { rng } from '../../core/demo/generate.js';

const ALPHABET = ['ab', 'abc', 'b', 'ca', 'deploy', 'de', 'x', 'plo', 'y', 'yz'];

function corpusOf(texts: string[], hidden: Set<number>): RecallCorpus {
  const words = Math.ceil(texts.length / 32);
  return {
    words,
    scopeBits: () => {
      const bits = new Uint32Array(words);
      texts.forEach((_t, s) => {
        if (!hidden.has(s)) setBit(bits, s);
      });
      return bits;
    },
    matchBits: (_fields: unknown, token: string, out: Uint32Array) => {
      texts.forEach((t, s) => {
        if (t.includes(token)) setBit(out, s);
      });
    },
    idOf: (slot: number) => `m${slot}`,
  } as unknown as RecallCorpus;
}

/** The definition, row by row. */
function reference(texts: string[], hidden: Set<number>, tokens: string[], n: number): { id: string; count: number }[] {
  const T = Math.min(tokens.length, 15);
  const firstSeen: number[] = [];
  const count = new Map<number, number>();
  for (let t = 0; t < T; t++) {
    texts.forEach((text, s) => {
      if (hidden.has(s) || !text.includes(tokens[t]!)) return;
      if (!count.has(s)) firstSeen.push(s);
      count.set(s, (count.get(s) ?? 0) + 1);
    });
  }
  return firstSeen
    .map((s) => ({ id: `m${s}`, count: count.get(s)! }))
    .sort((a, b) => b.count - a.count)
    .slice(0, n);
}

describe('the substring keyword leg', () => {
  it('lists what counting every memory row by row lists, in the same order, cut at n', () => {
    let compared = 0;
    let listed = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const rand = rng(seed);
      const size = 1 + Math.floor(rand() * 700);
      const texts = Array.from({ length: size }, () => Array.from({ length: 1 + Math.floor(rand() * 6) }, () => ALPHABET[Math.floor(rand() * ALPHABET.length)]!).join(' '));
      const hidden = new Set<number>();
      for (let s = 0; s < size; s++) if (rand() < 0.1) hidden.add(s);
      const corpus = corpusOf(texts, hidden);
      for (let qn = 0; qn < 10; qn++) {
        const tokens = [...new Set(Array.from({ length: 1 + Math.floor(rand() * 14) }, () => ALPHABET[Math.floor(rand() * ALPHABET.length)]!))];
        const n = [1, 7, 50, 1000][Math.floor(rand() * 4)]!;
        const got = sparseLeg(corpus, tokens, ['content'], null, n).map((h) => ({ id: h.id, count: h.count }));
        expect(got).toEqual(reference(texts, hidden, tokens, n));
        compared++;
        listed += got.length;
      }
    }
    expect(compared).toBe(300);
    expect(listed).toBeGreaterThan(20_000);
  });
});
