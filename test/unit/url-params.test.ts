/** Issue 14 part 6: a URL value out of range is reported to the person, not silently replaced. */
import { describe, expect, it } from 'vitest';
import { intParam } from '../../renderer/state/url-params.js';

const q = (s: string) => new URLSearchParams(s);

describe('intParam', () => {
  it('uses a whole number in range as given, and the fallback when the key is absent', () => {
    expect(intParam(q('page=3'), 'page', { min: 0, fallback: 0 })).toEqual({ value: 3, error: null });
    expect(intParam(q(''), 'page', { min: 0, fallback: 0 })).toEqual({ value: 0, error: null });
  });

  it('reports a negative, fractional, non-numeric or too large value and says what it shows instead', () => {
    for (const raw of ['-2', '1.5', 'abc', '1e999']) {
      const r = intParam(q(`page=${raw}`), 'page', { min: 0, fallback: 0 });
      expect(r.value).toBe(0);
      expect(r.error).toBe(`The link's page "${raw}" is not a whole number 0 or more; showing page 0 instead.`);
    }
    const big = intParam(q('nodes=999999'), 'nodes', { min: 10, max: 5000, fallback: 2000, what: 'node count' });
    expect(big).toEqual({ value: 2000, error: `The link's node count "999999" is not a whole number from 10 to 5000; showing node count 2000 instead.` });
  });
});
