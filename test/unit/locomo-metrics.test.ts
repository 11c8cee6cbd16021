import { describe, expect, it } from 'vitest';
import { recallAllAt, recallAt, sessionRecallAt, summarize, type QuestionResult } from '../../bench/locomo/metrics.js';

const q = (category: 1 | 2 | 3 | 4 | 5, evidence: string[], retrieved: string[]): QuestionResult => ({ sampleId: 's', qaIndex: 0, category, evidence, retrieved });

describe('LoCoMo retrieval metrics', () => {
  it('recall@k is the share of gold turns in the top k', () => {
    expect(recallAt(['D1:1', 'D2:2'], ['D1:1', 'D3:3', 'D2:2'], 1)).toBe(0.5);
    expect(recallAt(['D1:1', 'D2:2'], ['D1:1', 'D3:3', 'D2:2'], 3)).toBe(1);
    expect(recallAt([], ['D1:1'], 10)).toBeNaN();
  });

  it('recall_all@k needs every gold turn', () => {
    expect(recallAllAt(['D1:1', 'D2:2'], ['D1:1', 'D3:3'], 10)).toBe(0);
    expect(recallAllAt(['D1:1', 'D2:2'], ['D2:2', 'D1:1'], 10)).toBe(1);
  });

  it('session recall maps the top-k turns to their sessions', () => {
    expect(sessionRecallAt(['D1:1', 'D1:5', 'D2:2'], ['D1:9', 'D4:1'], 10)).toBe(0.5);
    expect(sessionRecallAt(['D1:1'], ['D4:1', 'D1:2'], 1)).toBe(0);
  });

  it('weights categories 1–4 by their question counts, leaves category 5 out and counts unscored questions', () => {
    const s = summarize(
      [q(4, ['a'], ['a']), q(4, ['a'], ['b']), q(4, ['a'], ['a']), q(1, ['a', 'b'], ['a']), q(3, [], ['a']), q(5, ['a'], ['b'])],
      [1, 10],
    );
    expect(s.questions).toBe(5);
    expect(s.unscored).toBe(1);
    expect(s.by_category['single-hop']!.recall['R@1']).toBeCloseTo(2 / 3, 4);
    expect(s.by_category['multi-hop']!.recall['R@1']).toBe(0.5);
    expect(s.by_category['open-domain']!.n).toBe(0);
    expect(s.by_category['adversarial']).toBeUndefined();
    // (1 + 0 + 1 + 0.5) / 4 scored questions.
    expect(s.overall.recall['R@1']).toBe(0.625);
    expect(s.overall.n).toBe(4);
  });
});
