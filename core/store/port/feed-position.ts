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
  /**
   * The upserts whose only changes were to how they score (importance, salience) and how they were
   * used, no edge at them: their text, type, owner, status, data and embedding are as they were at
   * the position. An index that reads none of those (`readsNoScores`) has nothing to re-read: a
   * reflection's rescore changes tens of thousands of importances, and agents catch up on them.
   */
  scoresOnly?: ReadonlySet<string>;
  /** Where the feed stood when this was read. */
  position: FeedPosition;
}

/**
 * Feed rows past which a catch-up rebuilds instead (one reset), on either backend: replaying them would re-read up to
 * as many memories, and a rebuild of a 100k store's indexes costs about as much as 20k re-reads.
 */
export const CATCH_UP_FEED_LIMIT = 20_000;

/**
 * One feed row as a catch-up reads it: the memory, an edge's other end (null for a memory's own
 * row), the op, and for an `update` whether it kept the embedding and its before-image matches the
 * current row apart from the scoring and usage columns (1; 0 when not, null for other ops or when
 * the backend does not tell).
 */
export type FeedRowSummary = readonly [memoryId: string, dst: string | null, op: string, keepsAllButScores?: number | null];

/**
 * The memories a run of feed rows names (an edge's row names both ends), which of them only as an
 * edge's end, their own row unchanged, which only by accesses (op `access`, no edge), and which
 * only in how they score: every row of theirs an access or an update whose before-image matches
 * the current row apart from importance, salience and usage (the first such image is what a
 * reader at the position holds, so nothing else of theirs moved since). Shared by both backends'
 * catch-up so they tell the same changes the same way.
 */
export function touchedByFeedRows(rows: Iterable<FeedRowSummary>): { touched: Set<string>; edgeOnly: Set<string>; usageOnly: Set<string>; scoresOnly: Set<string> } {
  const touched = new Set<string>();
  const rowChanged = new Set<string>();
  const notAccessOnly = new Set<string>();
  const notScoresOnly = new Set<string>();
  for (const [id, dst, op, keepsAllButScores] of rows) {
    touched.add(id);
    if (dst === null) {
      rowChanged.add(id);
      if (op !== 'access') notAccessOnly.add(id);
      if (op !== 'access' && !(op === 'update' && keepsAllButScores === 1)) notScoresOnly.add(id);
    } else {
      touched.add(dst);
      notAccessOnly.add(id).add(dst);
      notScoresOnly.add(id).add(dst);
    }
  }
  const edgeOnly = new Set<string>();
  const usageOnly = new Set<string>();
  const scoresOnly = new Set<string>();
  for (const id of touched) {
    if (!rowChanged.has(id)) edgeOnly.add(id);
    else if (!notAccessOnly.has(id)) usageOnly.add(id);
    else if (!notScoresOnly.has(id)) scoresOnly.add(id);
  }
  return { touched, edgeOnly, usageOnly, scoresOnly };
}

/** How catch-up tells a memory `changes` names as changed (store-rows.ts ChangeEvent): only its edges, only its usage, only its scores, or its row. */
export function changeKindOf(changes: FeedChanges, id: string): 'edges' | 'usage' | 'scores' | 'upsert' {
  return changes.edgeOnly?.has(id) ? 'edges' : changes.usageOnly?.has(id) ? 'usage' : changes.scoresOnly?.has(id) ? 'scores' : 'upsert';
}
