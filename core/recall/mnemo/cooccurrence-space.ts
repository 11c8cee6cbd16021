/**
 * Word vectors learned from the store's own text, for a semantic relevance term that needs no
 * downloaded model. Two words are close when they occur in the same memories or in memories a
 * few `precedes` steps apart ("pottery" and "class" in one turn, "painting" in the reply): the
 * co-occurrence counts are weighted by positive pointwise mutual information (PPMI, with the
 * context counts raised to 0.75 so rare contexts do not dominate), and each word's PPMI row is
 * projected onto a fixed number of dimensions by random indexing (every word gets a sparse ±1
 * index vector drawn from a hash of the word, so the projection needs no other state and is the
 * same on every machine). A memory's vector, and a query's, is the IDF-weighted sum of its words'
 * unit vectors, normalised: their dot product is a cosine.
 *
 * Random projection instead of a truncated SVD: it keeps the PPMI geometry (the Johnson-
 * Lindenstrauss property) at the cost of one pass over the counts, with no eigensolver to carry.
 */
import { mulberry32 } from '../../model/seeded-random.js';
import { STOP_WORDS, QUESTION_WORDS } from './query-terms.js';

/** Dimensions of the projected vectors. */
export const SPACE_DIM = 256;
/** Non-zero entries (±1) of a word's index vector. */
const INDEX_NONZERO = 8;
/** Context distribution smoothing (the PPMI variant of word2vec's negative sampling). */
const CONTEXT_ALPHA = 0.75;

export interface SpaceDoc {
  /** The memory's words (cooccurrenceTerms). */
  terms: readonly string[];
  /** Indexes of the documents whose words count as this one's context (each pair listed once). */
  context: readonly number[];
}

/** Lower-cased words of two or more characters, without function and question words. */
export function cooccurrenceTerms(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (raw.length < 2 || STOP_WORDS.has(raw) || QUESTION_WORDS.has(raw)) continue;
    out.push(raw);
  }
  return out;
}

export class CooccurrenceSpace {
  /** Document vectors, SPACE_DIM per document, unit length (or all zero). */
  readonly docVectors: Float32Array;
  private readonly vocab = new Map<string, number>();
  private readonly wordVectors: Float32Array;
  private readonly idf: Float64Array;

  constructor(docs: readonly SpaceDoc[]) {
    const termIds = docs.map((d) => [...new Set(d.terms.map((t) => this.termId(t)))]);
    const v = this.vocab.size;
    const df = new Float64Array(v);
    for (const ids of termIds) for (const t of ids) df[t]!++;
    this.idf = Float64Array.from(df, (n) => Math.log((docs.length + 1) / (n + 0.5)));
    // Symmetric counts: a pair inside one memory counts 2, a pair across context memories 1.
    const counts: Map<number, number>[] = Array.from({ length: v }, () => new Map());
    const bump = (a: number, b: number, by: number) => {
      if (a === b) return;
      const row = counts[a]!;
      row.set(b, (row.get(b) ?? 0) + by);
    };
    docs.forEach((d, i) => {
      const own = termIds[i]!;
      for (const a of own) for (const b of own) bump(a, b, 2);
      for (const j of d.context) {
        for (const a of own)
          for (const b of termIds[j] ?? []) {
            bump(a, b, 1);
            bump(b, a, 1);
          }
      }
    });
    const rowSum = new Float64Array(v);
    for (let a = 0; a < v; a++) for (const c of counts[a]!.values()) rowSum[a]! += c;
    const ctx = Float64Array.from(rowSum, (s) => s ** CONTEXT_ALPHA);
    const ctxTotal = ctx.reduce((s, x) => s + x, 0);
    const index = indexVectors([...this.vocab.keys()]);
    this.wordVectors = new Float32Array(v * SPACE_DIM);
    for (let a = 0; a < v; a++) {
      const out = this.wordVectors.subarray(a * SPACE_DIM, (a + 1) * SPACE_DIM);
      for (const [b, c] of counts[a]!) {
        const pmi = Math.log((c * ctxTotal) / (rowSum[a]! * ctx[b]!));
        if (pmi <= 0) continue;
        for (let k = 0; k < INDEX_NONZERO; k++) {
          const e = index[b * INDEX_NONZERO + k]!;
          out[e >> 1]! += e & 1 ? -pmi : pmi;
        }
      }
      normalise(out);
    }
    this.docVectors = new Float32Array(docs.length * SPACE_DIM);
    docs.forEach((d, i) => this.embedInto(d.terms, this.docVectors.subarray(i * SPACE_DIM, (i + 1) * SPACE_DIM)));
  }

  get size(): number {
    return this.docVectors.length / SPACE_DIM;
  }

  /** The unit vector of a text's words (all zero when none of them is known). */
  embed(terms: readonly string[]): Float32Array {
    return this.embedInto(terms, new Float32Array(SPACE_DIM));
  }

  /** The cosine of document `i` and a vector from embed(). */
  cosine(i: number, q: Float32Array): number {
    const base = i * SPACE_DIM;
    let s = 0;
    for (let k = 0; k < SPACE_DIM; k++) s += this.docVectors[base + k]! * q[k]!;
    return s;
  }

  private embedInto(terms: readonly string[], out: Float32Array): Float32Array {
    for (const t of terms) {
      const id = this.vocab.get(t);
      if (id === undefined) continue;
      const w = this.idf[id]!;
      const base = id * SPACE_DIM;
      for (let k = 0; k < SPACE_DIM; k++) out[k]! += w * this.wordVectors[base + k]!;
    }
    return normalise(out);
  }

  private termId(t: string): number {
    let id = this.vocab.get(t);
    if (id === undefined) this.vocab.set(t, (id = this.vocab.size));
    return id;
  }
}

function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (let k = 0; k < v.length; k++) n += v[k]! * v[k]!;
  if (n > 0) {
    const inv = 1 / Math.sqrt(n);
    for (let k = 0; k < v.length; k++) v[k]! *= inv;
  }
  return v;
}

/**
 * Each word's INDEX_NONZERO entries, as (dimension << 1 | sign bit), drawn from a PRNG seeded with
 * the word's FNV-1a hash: the same word gets the same index vector in every store.
 */
function indexVectors(words: readonly string[]): Int32Array {
  const out = new Int32Array(words.length * INDEX_NONZERO);
  words.forEach((w, i) => {
    let h = 0x811c9dc5;
    for (let c = 0; c < w.length; c++) h = Math.imul(h ^ w.charCodeAt(c), 0x01000193) >>> 0;
    const next = mulberry32(h);
    for (let k = 0; k < INDEX_NONZERO; k++) {
      const r = next();
      out[i * INDEX_NONZERO + k] = ((r % SPACE_DIM) << 1) | ((r >>> 16) & 1);
    }
  });
  return out;
}
