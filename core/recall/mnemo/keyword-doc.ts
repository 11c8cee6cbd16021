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
