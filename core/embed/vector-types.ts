/** The shapes VectorIndex and its scans share. */

export interface KnnHit {
  id: string;
  cos: number;
}

/**
 * Whether a slot may be among the hits: by its owner (a reader's scope), by its id, or both. Only
 * what a filter names is read: a restored slot's id is decoded from its bytes for each slot tested,
 * and an owner's scope never needs it.
 */
export interface SlotFilter {
  owner?: (owner: string) => boolean;
  id?: (id: string) => boolean;
}

/** `slot` passes `filter` (no filter: every slot does). */
export function slotPasses(filter: SlotFilter | undefined, slot: number, at: { idAt(slot: number): string; ownerAt(slot: number): string }): boolean {
  if (!filter) return true;
  if (filter.owner && !filter.owner(at.ownerAt(slot))) return false;
  return !filter.id || filter.id(at.idAt(slot));
}

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
