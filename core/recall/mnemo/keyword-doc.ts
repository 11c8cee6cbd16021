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
  body: string;
  /** ids linked by precedes, either direction, same owner. */
  links: Set<string>;
  terms: Terms;
}

/**
 * The links of a document that has none, shared: most documents have no precedes links, and a
 * Set each cost ~100 bytes and a slice of every restore. Never added to: keyword-index.ts's link()
 * gives a document its own Set first. (delete and clear on it are no-ops.)
 */
export const NO_LINKS: Set<string> = new Set();
