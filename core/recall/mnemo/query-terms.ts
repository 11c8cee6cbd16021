/**
 * Query processing for the mnemo profile's BM25 leg. A question is mostly function words
 * ("When did she go to the…"): keeping them lets every turn that says "did" or "the" score, which
 * drowns the few words that carry the question. Stemming is left to the index's tokenizer (FTS5
 * `porter`), so query and document words are reduced the same way.
 */

/** English function words: articles, pronouns, auxiliaries, prepositions, conjunctions. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if of at by for with about to from in on into onto over under as than so nor ' +
    'is am are was were be been being has have had having do does did doing will would shall should can could may might must ' +
    'i me my mine myself we us our ours you your yours he him his she her hers it its they them their theirs ' +
    'this that these those there here s t d ll m re ve just also very too any some'
  ).split(' '),
);

/** The words that make a sentence a question; they say what kind of answer is wanted, not what it is about. */
export const QUESTION_WORDS: ReadonlySet<string> = new Set('what which who whom whose when where why how'.split(' '));

export interface QueryTermOptions {
  stopWords: boolean;
  questionWords: boolean;
  /** At most this many distinct terms (first occurrence order). */
  maxTerms: number;
}

/** Lower-cased word tokens (letters and digits, any script), without the dropped words, de-duplicated. */
export function queryTerms(query: string, opts: QueryTermOptions): string[] {
  const out: string[] = [];
  for (const raw of query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (opts.stopWords && STOP_WORDS.has(raw)) continue;
    if (opts.questionWords && QUESTION_WORDS.has(raw)) continue;
    if (out.includes(raw)) continue;
    out.push(raw);
    if (out.length === opts.maxTerms) break;
  }
  return out;
}

/** An FTS5 MATCH expression that ORs the terms, each quoted so no word is read as an operator. */
export function ftsOrQuery(terms: readonly string[], column?: string): string {
  const expr = terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
  return column ? `{${column}} : (${expr})` : expr;
}
