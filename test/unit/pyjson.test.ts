import { describe, expect, it } from 'vitest';
import { pyDumps, pyFloat } from '../../core/model/pyjson.js';

describe('Python-compatible JSON', () => {
  it('prints floats like Python repr', () => {
    const cases: [number, string][] = [
      [5, '5.0'],
      [0, '0.0'],
      [-0, '-0.0'],
      [0.1, '0.1'],
      [1767183888.715, '1767183888.715'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [1.5e-7, '1.5e-07'],
      [1e16, '1e+16'],
      [1234567890123456, '1234567890123456.0'],
      [1.2345678901234567e19, '1.2345678901234567e+19'],
      [-2.5e-5, '-2.5e-05'],
      [1 / 3, '0.3333333333333333'],
    ];
    for (const [x, want] of cases) expect(pyFloat(x), String(x)).toBe(want);
  });

  it('uses Python separators, keeps ints as ints and escapes non-ASCII', () => {
    expect(pyDumps({ importance: 5, strength: 2, title: 'café "x"\n', tags: ['a', 'b'], rank: 3, score: 1 })).toBe(
      '{"importance": 5.0, "strength": 2, "title": "caf\\u00e9 \\"x\\"\\n", "tags": ["a", "b"], "rank": 3, "score": 1.0}',
    );
    expect(pyDumps({ s: '😀\u007f' })).toBe('{"s": "\\ud83d\\ude00\\u007f"}');
  });

  it('refuses non-finite numbers', () => {
    expect(() => pyFloat(Number.NaN)).toThrow(/non-finite/);
  });
});
