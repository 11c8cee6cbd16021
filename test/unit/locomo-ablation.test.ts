import { describe, expect, it } from 'vitest';
import { ablationVariants } from '../../bench/locomo/ablation.js';
import { MNEMO_PROFILE, NOOA_PROFILE, type RecallProfile } from '../../core/recall/profile.js';

/** The dotted paths where two profiles differ. */
function diff(a: unknown, b: unknown, path = ''): string[] {
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && !Array.isArray(a)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => diff((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path ? `${path}.${k}` : k));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [path];
}

describe('LoCoMo ablation variants', () => {
  const variants = ablationVariants(MNEMO_PROFILE);

  it('switches off one component of the mnemo profile at a time', () => {
    const byName = new Map(variants.map((v) => [v.name, v]));
    const changed = (name: string) => diff(MNEMO_PROFILE as RecallProfile, byName.get(name)!.profile);
    expect(changed('-bm25 leg')).toEqual(['features.bm25']);
    expect(changed('-stemming')).toEqual(['features.bm25.stem']);
    expect(changed('-stop words')).toEqual(['features.bm25.stop_words']);
    expect(changed('-question words')).toEqual(['features.bm25.question_words']);
    expect(changed('-neighbour context')).toEqual(['features.bm25.context_weight']);
    expect(changed('-entity boost')).toEqual(['features.entity_boost']);
    expect(changed('-sibling spread')).toEqual(['features.sibling_spread']);
    expect(changed('-graph spread')).toEqual(['knobs.hops']);
    expect(changed('-substring leg')).toEqual(['features.substring_leg']);
    expect(changed('-dense relevance')).toEqual(['knobs.weights.relevance']);
    expect(changed('recency min-max')).toEqual(['features.recency_scale']);
    expect(changed('+extracted names')).toEqual([]);
    expect(byName.get('+extracted names')!.ingest).toEqual({ extractEntities: true });
    expect(byName.get('nooa-0.0.9')!.profile).toBe(NOOA_PROFILE);
  });

  it('never changes the shared profile objects', () => {
    expect(MNEMO_PROFILE.features.bm25!.stem).toBe(true);
    expect(Object.isFrozen(MNEMO_PROFILE.features.bm25)).toBe(true);
    expect(variants.every((v) => v.profile === NOOA_PROFILE || v.profile.name === 'mnemo')).toBe(true);
  });
});
