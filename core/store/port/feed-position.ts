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
  /**
   * The upserts whose row did not change, only an edge with them at one end: an index that reads
   * no edges has nothing to re-read for them (an erase deletes thousands of its neighbours' edges).
   */
  edgeOnly?: ReadonlySet<string>;
  /**
   * The upserts whose only changes were accesses (feed op `access`), no edge at them: an index that
   * reads no usage has nothing to re-read for them (every recall of every agent logs some).
   */
  usageOnly?: ReadonlySet<string>;
  /** Where the feed stood when this was read. */
  position: FeedPosition;
}

/**
 * Feed rows past which a catch-up rebuilds instead (one reset), on either backend: replaying them would re-read up to
 * as many memories, and a rebuild of a 100k store's indexes costs about as much as 20k re-reads.
 */
export const CATCH_UP_FEED_LIMIT = 20_000;

/**
 * The memories a run of feed rows names (`[memory id, edge dst, op]`: a memory's row has no dst,
 * an edge's row names both ends), which of them only as an edge's end, their own row unchanged,
 * and which only by accesses (op `access`, no edge). Shared by both backends' catch-up so they
 * tell the same changes the same way.
 */
export function touchedByFeedRows(rows: Iterable<readonly [string, string | null, string]>): { touched: Set<string>; edgeOnly: Set<string>; usageOnly: Set<string> } {
  const touched = new Set<string>();
  const rowChanged = new Set<string>();
  const notAccessOnly = new Set<string>();
  for (const [id, dst, op] of rows) {
    touched.add(id);
    if (dst === null) {
      rowChanged.add(id);
      if (op !== 'access') notAccessOnly.add(id);
    } else {
      touched.add(dst);
      notAccessOnly.add(id).add(dst);
    }
  }
  const edgeOnly = new Set<string>();
  const usageOnly = new Set<string>();
  for (const id of touched) {
    if (!rowChanged.has(id)) edgeOnly.add(id);
    else if (!notAccessOnly.has(id)) usageOnly.add(id);
  }
  return { touched, edgeOnly, usageOnly };
}

/** How catch-up tells a memory `changes` names as changed (store-rows.ts ChangeEvent): only its edges, only its usage, or its row. */
export function changeKindOf(changes: FeedChanges, id: string): 'edges' | 'usage' | 'upsert' {
  return changes.edgeOnly?.has(id) ? 'edges' : changes.usageOnly?.has(id) ? 'usage' : 'upsert';
}
