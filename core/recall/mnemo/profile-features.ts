/**
 * What the mnemo profile turns on beyond nooa v0.0.9 (its scoring knobs stay nooa's). Every
 * value here was chosen on the LoCoMo tuning conversations only (docs/benchmarks/locomo.md has the
 * ablation); the held-out conversations were not used to pick any of them (parent_spread: 1.0 of
 * 0.4, 1 and 2 by tuning-set R@10, docs/tuning.md).
 */
import type { MnemoFeatures } from './features.js';

export const MNEMO_FEATURES: Readonly<MnemoFeatures> = Object.freeze({
  substring_leg: true,
  bm25: Object.freeze({
    n: 100,
    stem: true,
    stop_words: true,
    question_words: true,
    max_terms: 32,
    context_weight: 0.5,
    weight: 3.0,
  }),
  entity_boost: 1.0,
  sibling_spread: 0.6,
  parent_spread: 1.0,
  cooccurrence: 0,
  max_siblings: 64,
  recency_scale: 'absolute',
});

export function mnemoFeatureDifferences(f: Readonly<MnemoFeatures>): string[] {
  const out: string[] = [];
  if (!f.substring_leg) out.push("nooa's substring keyword leg is off");
  if (f.bm25) {
    const b = f.bm25;
    out.push(
      `a BM25 candidate leg (FTS5${b.stem ? ', Porter stemming' : ''}${b.stop_words ? ', stop words dropped' : ''}${b.question_words ? ', question words dropped' : ''}; ` +
        `${b.n} candidates; precedes-neighbour context weight ${b.context_weight}; term weight ${b.weight})`,
    );
  }
  if (f.entity_boost > 0) out.push(`memories carrying the entities a query names score ×(1 + ${f.entity_boost} × share named)`);
  if (f.sibling_spread > 0) out.push(`part_of siblings share context (weight ${f.sibling_spread}, parents of at most ${f.max_siblings} children)`);
  if (f.parent_spread > 0) out.push(`a part_of parent that matches passes ${f.parent_spread} × its base score to its children (parents of at most ${f.max_siblings} children)`);
  if (f.cooccurrence > 0) out.push(`relevance adds ${f.cooccurrence} × the cosine of word vectors learned from the store's own co-occurrences`);
  if (f.recency_scale === 'absolute') out.push('the recency term is sigmoid(B) as is, not min-max normalised over the candidates');
  return out;
}
