/**
 * The reference floor: plain Okapi BM25 (k1 1.5, b 0.75) over each conversation's turns rendered
 * as "Speaker: text [shares caption]", the raw question as the query, lower-cased `[a-z0-9]+`
 * tokens, a short stop list and no stemming. It is deliberately naive and independent of the
 * engine, so it stays a fixed yardstick that every run recomputes beside the profile it measures.
 */
import { allTurns, turnText, type Conversation } from './dataset.js';

/** Articles, pronouns, auxiliaries, common prepositions and the question words. */
export const BASELINE_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if of at by for with about to from in on is am are was were be been has have had do does did ' +
    'i me my we our you your he him his she her it its they them their what which who whom this that these those when where why how'
  ).split(' '),
);

export function baselineTokens(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((t) => !BASELINE_STOP_WORDS.has(t));
}

export interface Bm25Params {
  k1: number;
  b: number;
}

/** An in-memory Okapi BM25 index over a fixed list of documents. */
export class Bm25Index {
  private readonly docFreq = new Map<string, number>();
  private readonly termFreqs: Map<string, number>[] = [];
  private readonly lengths: number[] = [];
  private readonly avgLength: number;

  constructor(
    docs: readonly string[][],
    private readonly params: Bm25Params = { k1: 1.5, b: 0.75 },
  ) {
    for (const tokens of docs) {
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) this.docFreq.set(t, (this.docFreq.get(t) ?? 0) + 1);
      this.termFreqs.push(tf);
      this.lengths.push(tokens.length);
    }
    this.avgLength = this.lengths.reduce((s, l) => s + l, 0) / Math.max(1, this.lengths.length);
  }

  get size(): number {
    return this.termFreqs.length;
  }

  /** Lucene's non-negative idf: ln(1 + (N − df + 0.5) / (df + 0.5)). */
  idf(term: string): number {
    const df = this.docFreq.get(term) ?? 0;
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  /** Scores every document for the query terms (duplicates in the query count once). */
  scores(queryTerms: readonly string[]): Float64Array {
    const out = new Float64Array(this.size);
    const { k1, b } = this.params;
    for (const term of new Set(queryTerms)) {
      if (!this.docFreq.has(term)) continue;
      const idf = this.idf(term);
      for (let d = 0; d < this.size; d++) {
        const f = this.termFreqs[d]!.get(term);
        if (!f) continue;
        const norm = k1 * (1 - b + (b * this.lengths[d]!) / this.avgLength);
        out[d]! += (idf * f * (k1 + 1)) / (f + norm);
      }
    }
    return out;
  }
}

/** Indices of the top `k` scores, best first; ties keep document order (deterministic). */
export function topIndices(scores: Float64Array, k: number): number[] {
  const idx = Array.from(scores.keys());
  idx.sort((a, b) => scores[b]! - scores[a]! || a - b);
  return idx.slice(0, k);
}

/** Ranks a conversation's turns for each question with the baseline BM25. */
export function baselineRetriever(conv: Conversation): (question: string, k: number) => string[] {
  const turns = allTurns(conv);
  const index = new Bm25Index(turns.map((t) => baselineTokens(turnText(t))));
  return (question, k) => topIndices(index.scores(baselineTokens(question)), k).map((i) => turns[i]!.diaId);
}
