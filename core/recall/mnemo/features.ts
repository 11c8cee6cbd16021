/**
 * The mnemo profile's retrieval features beyond nooa v0.0.9, each one switchable (the LoCoMo
 * ablation turns them off one at a time). nooa's profile pins every one of them off, so the
 * compatibility path runs exactly the reference's stages.
 */

export interface Bm25LegKnobs {
  /** How many candidates the leg contributes. */
  n: number;
  /** Porter stemming in the index's tokenizer ("painted" finds "painting"). */
  stem: boolean;
  /** Drop English function words from the query. */
  stop_words: boolean;
  /** Drop question words (what, when, who, …) from the query. */
  question_words: boolean;
  /** At most this many distinct query terms. */
  max_terms: number;
  /** Weight of the text of `precedes` neighbours relative to a memory's own text (0 = own text only). */
  context_weight: number;
  /** a_kw: weight of the min-max normalised BM25 score in the base score. */
  weight: number;
}

export interface MnemoFeatures {
  /** nooa's substring keyword leg (tokens matched, `LIKE '%tok%'`) as a candidate source. */
  substring_leg: boolean;
  /** The BM25 leg over an in-memory FTS5 index; null = off. */
  bm25: Readonly<Bm25LegKnobs> | null;
  /** Base score × (1 + entity_boost × share of the query's named entities the memory carries); 0 = off. */
  entity_boost: number;
  /**
   * Siblings under one `part_of` parent share context: every visible child of a parent receives
   * sibling_spread × the best base score among the parent's candidate children (before γ); 0 = off.
   */
  sibling_spread: number;
  /**
   * A turn inherits what its context matched: every candidate that is a `part_of` parent (a
   * conversation's session memory, with its date and speakers) passes parent_spread × its base
   * score to each of its visible children (before γ); 0 = off. Parents with more than
   * max_siblings children relay nothing, as for the sibling spread.
   */
  parent_spread: number;
  /**
   * Weight of the co-occurrence cosine (cooccurrence-space.ts: word vectors learned from the
   * store's own text) added to the raw relevance before it is normalised; 0 = off (the space is
   * never built).
   */
  cooccurrence: number;
  /** Parents with more children than this relay nothing (a hub is not a context). */
  max_siblings: number;
  /**
   * `minmax` (nooa): the recency term is min-max normalised over the candidates, so a week and a
   * year apart count as much as a minute and a week. `absolute`: sigmoid(B) as is, so recency only
   * separates memories whose activation really differs.
   */
  recency_scale: 'minmax' | 'absolute';
}

export const MNEMO_FEATURES_OFF: Readonly<MnemoFeatures> = Object.freeze({
  substring_leg: true,
  bm25: null,
  entity_boost: 0,
  sibling_spread: 0,
  parent_spread: 0,
  cooccurrence: 0,
  max_siblings: 0,
  recency_scale: 'minmax',
});
