/**
 * Where a reader stands in the store's change feed (port.ts re-exports these types), and how far
 * behind a catch-up from the feed is still worth it, on either backend.
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

/**
 * Feed rows past which a catch-up rebuilds instead (one reset), on either backend: replaying them would re-read up to
 * as many memories, and a rebuild of a 100k store's indexes costs about as much as 20k re-reads.
 */
export const CATCH_UP_FEED_LIMIT = 20_000;
