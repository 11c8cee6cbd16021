import { describe, expect, it } from 'vitest';
import { MNEMO_PROFILE, NOOA_PROFILE } from '../../core/recall/profile.js';
import { checkFittedName, knobSpace, knobValue, legalValue, selectKnobs, withKnobs } from '../../core/tune/knob-space.js';
import { parseProfileFile, profileFileJson } from '../../core/tune/profile-file.js';

describe('the knob space', () => {
  it('holds every shipped value inside its range, and the BM25 knobs only when the profile has the leg', () => {
    for (const p of [MNEMO_PROFILE, NOOA_PROFILE]) {
      for (const s of knobSpace(p)) {
        const v = knobValue(p, s.name);
        expect(v, s.name).toBeGreaterThanOrEqual(s.min);
        expect(v, s.name).toBeLessThanOrEqual(s.max);
      }
    }
    expect(knobSpace(MNEMO_PROFILE).some((s) => s.name === 'features.bm25.weight')).toBe(true);
    expect(knobSpace(NOOA_PROFILE).some((s) => s.name.startsWith('features.bm25'))).toBe(false);
    // stem picks another index: it is never tuned.
    expect(knobSpace(MNEMO_PROFILE).some((s) => s.name.includes('stem'))).toBe(false);
  });

  it('clamps to the bounds and keeps integer knobs integer, leaving the base profile untouched', () => {
    const specs = selectKnobs(MNEMO_PROFILE, ['knobs.per_hop_fanout', 'knobs.weights.recency', 'features.bm25.n']);
    const p = withKnobs(MNEMO_PROFILE, specs, [7.6, 99, -3], 'mine');
    expect(p.knobs.per_hop_fanout).toBe(8);
    expect(p.knobs.weights.recency).toBe(specs[1]!.max);
    expect(p.features.bm25!.n).toBe(specs[2]!.min);
    expect(p.name).toBe('mine');
    expect(MNEMO_PROFILE.knobs.per_hop_fanout).toBe(5);
    expect(MNEMO_PROFILE.features.bm25!.n).toBe(100);
    expect(legalValue({ name: 'i', kind: 'integer', min: 0, max: 3 }, 2.5)).toBe(3);
  });

  it('refuses unknown knobs and nooa-0.0.9 as the output name', () => {
    expect(() => selectKnobs(MNEMO_PROFILE, ['knobs.top_k'])).toThrow(/untunable knob "knobs.top_k"/);
    expect(() => checkFittedName('nooa-0.0.9')).toThrow(/frozen/);
    expect(() => checkFittedName('has space')).toThrow(/profile name/);
    expect(() => checkFittedName('mnemo-tuned')).not.toThrow();
  });
});

describe('the profile file', () => {
  const fitted = withKnobs(MNEMO_PROFILE, selectKnobs(MNEMO_PROFILE, ['knobs.weights.recency']), [0.25], 'fitted-1');
  const text = (mutate: (j: Record<string, any>) => void = () => {}) => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const j = JSON.parse(JSON.stringify(profileFileJson(fitted)));
    mutate(j);
    return JSON.stringify(j);
  };

  it('reads back what the tuner writes', () => {
    const p = parseProfileFile(text(), 'p.json');
    expect(p).toEqual(fitted);
  });

  it('names the file and the field of what is wrong', () => {
    expect(() => parseProfileFile(text((j) => (j.knobs.weights.recency = 99)), 'p.json')).toThrow(/^p\.json: knobs\.weights\.recency: /);
    expect(() => parseProfileFile(text((j) => (j.features.bm25.typo = 1)), 'p.json')).toThrow(/^p\.json: features\.bm25: .*typo/);
    expect(() => parseProfileFile(text((j) => (j.knobs.hops = 1.5)), 'p.json')).toThrow(/^p\.json: knobs\.hops: /);
    expect(() => parseProfileFile(text((j) => delete j.knobs.weights), 'p.json')).toThrow(/^p\.json: knobs\.weights: /);
    expect(() => parseProfileFile(text((j) => (j.name = 'nooa-0.0.9')), 'p.json')).toThrow(/^p\.json: name: .*frozen/);
    expect(() => parseProfileFile('{', 'p.json')).toThrow(/^p\.json: not JSON/);
    expect(() => parseProfileFile(' '.repeat(70_000), 'p.json')).toThrow(/at most 65536 bytes/);
  });
});
