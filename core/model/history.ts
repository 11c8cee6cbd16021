/**
 * The shapes of time travel (the store as of an instant, and what changed between two instants),
 * shared by the API contract, the recall replay, the CLI and the renderer. Types only.
 */

/** What an instant resolves to in the store's change feed. */
export interface StoreAsOf {
  /** The instant asked for (epoch seconds). */
  at: number;
  /** The store as it stood after change `seq` of the feed named `epoch`. */
  position: { epoch: string; seq: number };
  /** The earliest instant the history reaches (epoch seconds): earlier ones are refused. */
  earliest: number;
  /** Nothing changed after the instant: it shows the store as it is now. */
  live: boolean;
  /** How many changes after the instant time travel rolls back. */
  rolled_back: number;
  /**
   * False when the instant is older than the accesses retention keeps (mnemo feed --access-days):
   * content, edges and archive state are still exact, but the access fields (ring, counters,
   * strength, last access) show a later state.
   */
  access_fields_exact: boolean;
}

/**
 * Who made a change: a journalled Mnemo change (its id and label, and the agent credential and
 * owner it was made for), a Mnemo write outside the journal (an access), or a writer that is not
 * Mnemo (a nooa agent writing the same file).
 */
export interface ChangeAuthor {
  kind: 'journal' | 'mnemo' | 'foreign';
  /** The journal's change id (`mnemo history`, `mnemo undo`); null outside the journal. */
  change_id: number | null;
  /** The journal's label of the change. */
  label: string | null;
  /** What Mnemo stamped as the writer: `mnemo`, or `mnemo:cred:<credential id>` for an agent's write; null for a foreign writer. */
  writer: string | null;
  credential_id: string | null;
  /** The agent owner (role@instance) of the credential. */
  owner: string | null;
  /** For people: `change 12 "Archive 2 memories" by agent ops@a1`, `foreign writer`. */
  text: string;
}

export type MemoryChangeKind = 'added' | 'changed' | 'archived' | 'restored' | 'deleted' | 'accessed';

export interface MemoryDiffRow {
  id: string;
  /** The memory's title or first line at `to` (at `from` when it was deleted). */
  head: string;
  kind: MemoryChangeKind;
  /** The fields that differ between the two instants (columns, then keys of nooa's `data`); empty for added and deleted. */
  fields: string[];
  /** Who made the changes in between, in the order they first wrote. */
  authors: ChangeAuthor[];
  /** How many changes (feed rows) touched it in between. */
  changes: number;
}

export type EdgeChangeKind = 'linked' | 'unlinked' | 'changed';

export interface EdgeDiffRow {
  src: string;
  dst: string;
  type: string;
  kind: EdgeChangeKind;
  /** weight and/or created_at, for a changed edge. */
  fields: string[];
  authors: ChangeAuthor[];
  changes: number;
}

export interface StoreDiff {
  from: StoreAsOf;
  to: StoreAsOf;
  /** Memories that differ, in the order they were first changed; `accessed` rows only when asked for. */
  memories: MemoryDiffRow[];
  edges: EdgeDiffRow[];
  /** Every difference by kind, including those left out of the lists (accesses, the limit). */
  counts: { memories: Record<MemoryChangeKind, number>; edges: Record<EdgeChangeKind, number> };
  /** The lists were cut at `limit` rows each. */
  truncated: boolean;
}

/**
 * The `until` of an event read on a store shown as of an instant: the event table is a log, not
 * rolled back with the rows (store/sqlite/history-views.ts), so the accesses logged after the instant are left
 * out here; they had not happened yet.
 */
export function untilAsOf(history: StoreAsOf | null, until: number | undefined): number | undefined {
  if (!history || history.live) return until;
  return until === undefined ? history.at : Math.min(until, history.at);
}
