import { describe, expect, it } from 'vitest';
import { CooccurrenceSpace, SPACE_DIM, cooccurrenceTerms } from '../../core/recall/mnemo/cooccurrence-space.js';

// Two topics whose words co-occur within each topic only; "kiln" and "easel" each appear once.
const TEXTS = [
  'pottery class with clay and glaze',
  'the kiln fired my clay pottery',
  'glaze the clay bowl after class',
  'painting on canvas with a brush',
  'my easel holds the canvas painting',
  'a new brush for painting landscapes',
];
const docs = (texts: readonly string[], context: (i: number) => number[] = () => []) => texts.map((t, i) => ({ terms: cooccurrenceTerms(t), context: context(i) }));

describe('the co-occurrence space', () => {
  it('drops function and question words and one-letter tokens', () => {
    expect(cooccurrenceTerms('What did I paint on the Canvas, a bowl?')).toEqual(['paint', 'canvas', 'bowl']);
  });

  it('puts a word near the memories of its topic even when they do not contain it', () => {
    const space = new CooccurrenceSpace(docs(TEXTS));
    const q = space.embed(['kiln']);
    // "glaze the clay bowl after class" shares no word with the query but shares its topic.
    expect(space.cosine(2, q)).toBeGreaterThan(0.2);
    for (const other of [3, 4, 5]) expect(space.cosine(2, q)).toBeGreaterThan(space.cosine(other, q) + 0.1);
    const p = space.embed(['easel']);
    expect(space.cosine(5, p)).toBeGreaterThan(space.cosine(2, p) + 0.1);
  });

  it('counts the words of context memories as co-occurring', () => {
    // "reply" shares no word with "tortoise" except through the memory before it.
    const texts = ['my tortoise sleeps all winter', 'reply about hibernating', 'cooking pasta tonight', 'pasta sauce recipe'];
    const alone = new CooccurrenceSpace(docs(texts));
    const linked = new CooccurrenceSpace(docs(texts, (i) => (i === 0 ? [1] : [])));
    const q = ['tortoise'];
    // Unrelated words' index vectors may collide in a dimension: a small cosine, not exactly 0.
    expect(Math.abs(alone.cosine(1, alone.embed(q)))).toBeLessThan(0.1);
    expect(linked.cosine(1, linked.embed(q))).toBeGreaterThan(0.2);
  });

  it('is the same space on every build, with unit vectors, and zero for unknown words', () => {
    const a = new CooccurrenceSpace(docs(TEXTS));
    const b = new CooccurrenceSpace(docs(TEXTS));
    expect(a.docVectors).toEqual(b.docVectors);
    expect(a.size).toBe(TEXTS.length);
    const v = a.docVectors.subarray(0, SPACE_DIM);
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    expect([...a.embed(['zeppelin'])].every((x) => x === 0)).toBe(true);
  });
});
