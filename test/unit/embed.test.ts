import { describe, expect, it } from 'vitest';
import { HashingEmbedder, hashFeatures } from '../../core/embed/hashing.js';
import { expected } from '../../support/fixture.js';

describe('hashing embedder', () => {
  it('reproduces the fixture vectors within 1e-6', () => {
    const e = new HashingEmbedder(256);
    for (const sample of expected().embeddings as { text: string; vector: number[] }[]) {
      const v = e.embedSync(sample.text);
      let worst = 0;
      for (let i = 0; i < 256; i++) worst = Math.max(worst, Math.abs(v[i]! - sample.vector[i]!));
      expect(worst, JSON.stringify(sample.text.slice(0, 30))).toBeLessThanOrEqual(1e-6);
    }
  });

  it('gives the zero vector for empty text and unit norm otherwise', () => {
    const e = new HashingEmbedder(256);
    expect([...e.embedSync('')].every((x) => x === 0)).toBe(true);
    const v = e.embedSync('deploy billing to staging');
    expect(Math.hypot(...v)).toBeCloseTo(1, 6);
  });

  it('uses tokens plus adjacent bigrams across punctuation and newlines', () => {
    expect(hashFeatures('Deploy, the\nAPI!')).toEqual(['deploy', 'the', 'api', 'deploy_the', 'the_api']);
  });
});
