/**
 * Where a reader stands in the store's change feed (port.ts re-exports these; they live apart so
 * that the feed's own modules can name them without importing the port, which names theirs).
 */

/** A place in the store's change feed: the feed's identity and the last sequence number seen. */
export interface FeedPosition {
  readonly epoch: string;
  readonly seq: number;
}

/** What changed after a feed position: memory ids (an edge change names both ends). */
export interface FeedChanges {
  upserts: string[];
  deletes: string[];
  /** Where the feed stood when this was read. */
  position: FeedPosition;
}
