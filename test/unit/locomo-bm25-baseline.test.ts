import { describe, expect, it } from 'vitest';
import { baselineRetriever, baselineTokens, Bm25Index, topIndices } from '../../bench/locomo/bm25-baseline.js';
import { loadLocomo } from '../../bench/locomo/dataset.js';
import { writeSyntheticLocomo } from '../helpers/locomo.js';

describe('BM25 baseline', () => {
  it('tokenises lower-case letters and digits and drops the stop list, without stemming', () => {
    expect(baselineTokens('When did Ben run the Marathon in 2023?')).toEqual(['ben', 'run', 'marathon', '2023']);
    expect(baselineTokens('running')).toEqual(['running']);
  });

  it('scores with Okapi BM25 (k1 1.5, b 0.75) and a non-negative idf', () => {
    const index = new Bm25Index([['cat', 'dog'], ['cat'], ['fish', 'fish', 'fish', 'bird']]);
    const idfFish = Math.log(1 + (3 - 1 + 0.5) / (1 + 0.5));
    const avg = 7 / 3;
    const expected = (idfFish * 3 * 2.5) / (3 + 1.5 * (0.25 + (0.75 * 4) / avg));
    const s = index.scores(['fish', 'fish']);
    expect(s[2]).toBeCloseTo(expected, 10);
    expect(s[0]).toBe(0);
    // A term in every document still scores above zero.
    expect(index.idf('cat')).toBeGreaterThan(0);
  });

  it('breaks ties by document order and ranks the matching turn first', () => {
    expect(topIndices(Float64Array.from([1, 2, 2, 0]), 3)).toEqual([1, 2, 0]);
    const [conv] = loadLocomo(writeSyntheticLocomo());
    const rank = baselineRetriever(conv!);
    expect(rank('Which puppy did Ada adopt?', 3)[0]).toBe('D1:1');
    expect(rank('Where is the marathon?', 2)).toContain('D2:1');
  });
});
