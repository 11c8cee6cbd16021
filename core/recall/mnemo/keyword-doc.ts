/** A document of the keyword index (keyword-index.ts), as it holds it and as its snapshot stores it. */

/** A memory's terms: ids into the vocabulary and their counts per column. */
export interface Terms {
  ids: Int32Array;
  body: Float32Array;
  context: Float32Array;
  /** Tokens in both columns (FTS5's row length). */
  length: number;
}

export interface Doc {
  rowid: number;
  id: string;
  owner: string;
  /** Null for a document read from a snapshot whose text has not been needed yet (keyword-index.ts bodyOf). */
  body: string | null;
  /** ids linked by precedes, either direction, same owner. */
  links: Set<string>;
  /** Null for a document read from a snapshot: its terms are in the bulk postings until needed (keyword-index.ts termsOf). */
  terms: Terms | null;
  /** Its place in the snapshot it was read from (where its text is), when it was. */
  stored?: number;
}

/**
 * The bulk postings, flat: term t's entries are [start[t], start[t + 1]), in ascending rowid
 * order. Flat arrays rather than three per term: a snapshot's are views on the bytes read, and a
 * vocabulary of 50k terms would otherwise be 150k typed-array objects.
 */
export interface Postings {
  start: Int32Array;
  rowids: Int32Array;
  body: Float32Array;
  context: Float32Array;
}

/**
 * The links of a document that has none, shared: most documents have no precedes links, and a
 * Set each cost ~100 bytes and a slice of every restore. Never added to: keyword-index.ts's link()
 * gives a document its own Set first. (delete and clear on it are no-ops.)
 */
export const NO_LINKS: Set<string> = new Set();
