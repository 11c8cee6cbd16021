/** The shapes VectorIndex and its scans share. */

export interface KnnHit {
  id: string;
  cos: number;
}

/** Whether a slot may be among the hits, by its id and owner. */
export type SlotFilter = (id: string, owner: string) => boolean;

export interface InvertedList {
  /** Ascending slots with a non-zero in the dimension. */
  slots: Uint32Array;
  vals: Float32Array;
}

/** A snapshot's vectors as stored: per dimension its list, per slot its row (each read when asked for). */
export interface StoredVectors {
  list(j: number): InvertedList;
  /** The slot's whole vector. */
  row(slot: number): Float32Array;
}
