/**
 * What an erase names and reports (store.runs.planErase / store.runs.erase, shared/erase-run.ts).
 * An erase is the one write the journal cannot take back: it removes a memory from every place its
 * content lives (the row and its edges, journal images, the change feed, access events, tombstones,
 * the belief rows derived from it) and, by match, scrubs a text out of every other place it
 * appears. It names no SQL: each adapter runs the places (shared/erase-targets.ts, erase-memories.ts, erase-scrubs.ts) in its dialect.
 */

/** Which memories to erase: by id (a gone memory's traces too), every memory holding a text, or every memory of an owner. */
export type EraseSelector = { kind: 'ids'; ids: readonly string[] } | { kind: 'match'; text: string } | { kind: 'owner'; owner: string };

/**
 * Each place an erase reaches, and how many of its rows it removes or rewrites there. Counts are
 * rows (or journal and feed images); `*_scrubbed` rows keep their place with the text replaced.
 */
export interface ErasePlaceCounts {
  /** Memory rows deleted. */
  memories: number;
  /** Edges into or out of them deleted. */
  edges: number;
  /** Journal images (before or after) replaced by an erased marker. */
  journal_images: number;
  /** Changes holding such images: they can no longer be undone or redone. */
  journal_changes: number;
  /** Journal images, labels and change notes with the text scrubbed (by match). */
  journal_scrubbed: number;
  /** Change-feed rows (time travel's before-images) replaced by an erased marker. */
  feed_rows: number;
  /** Change-feed rows with the text scrubbed (by match). */
  feed_scrubbed: number;
  /** Access events of the erased memories deleted, with their queries. */
  access_events: number;
  /** Access events of other memories whose query or context held the text, scrubbed (by match). */
  access_queries: number;
  /** Other memories whose access ring (nooa's `access_log` queries) held the text, scrubbed (by match). */
  access_rings: number;
  /** Tombstones deleted (of erased memories) or with the text scrubbed from their head. */
  tombstones: number;
  /** Belief observations (deltas) removed: derived from an erased memory, or naming the text. */
  belief_deltas: number;
  /** Belief observations whose evidence held the text, scrubbed (by match). */
  belief_evidence: number;
  /** Belief dimensions derived again from what is left (or removed when nothing is). */
  belief_dimensions: number;
  /** Entity aliases and rejected alias pairs naming the text, removed (by match). */
  belief_aliases: number;
  /** Maintenance reports and store settings with the text scrubbed (by match). */
  maintenance: number;
}

export const ERASE_PLACES = [
  'memories',
  'edges',
  'journal_images',
  'journal_changes',
  'journal_scrubbed',
  'feed_rows',
  'feed_scrubbed',
  'access_events',
  'access_queries',
  'access_rings',
  'tombstones',
  'belief_deltas',
  'belief_evidence',
  'belief_dimensions',
  'belief_aliases',
  'maintenance',
] as const satisfies readonly (keyof ErasePlaceCounts)[];

export function emptyEraseCounts(): ErasePlaceCounts {
  return Object.fromEntries(ERASE_PLACES.map((p) => [p, 0])) as unknown as ErasePlaceCounts;
}

/** One memory an erase names: live now, or gone with traces left behind (a forgotten or deleted one). */
export interface EraseTarget {
  id: string;
  owner: string;
  live: boolean;
}

/** What an erase would do: the memories it names and the rows it would remove per place. Nothing is written to make it. */
export interface ErasePlan {
  selector: EraseSelector;
  targets: EraseTarget[];
  counts: ErasePlaceCounts;
  /** Seconds the plan took to make (the store's own work, measured with a monotonic clock). */
  planned_in_s: number;
}

/** How the bytes of what was removed went from the store's files. */
export interface EraseReclaim {
  /**
   * `zeroed` (SQLite: what the erase deleted was zeroed as it went, the free pages rewritten with
   * zeros in short transactions, then its WAL truncated) or `vacuum_full` (PostgreSQL: the touched
   * tables rewritten).
   */
  method: 'zeroed' | 'vacuum_full' | 'none';
  /** The tables rewritten (PostgreSQL), or the files (SQLite). */
  rewrote: string[];
  seconds: number;
  bytes_before: number | null;
  bytes_after: number | null;
  /** The longest the reclaim held a lock others wait for (SQLite: its longest write transaction; PostgreSQL: its longest table rewrite). */
  longest_lock_ms?: number;
  /** What could not be done and why (a reader holding the WAL, a lock not granted); empty when all went. */
  problems: string[];
}

/** What the store did: the journal entry that records it (with no erased content), the counts, and how the bytes went. */
export interface EraseOutcome {
  change_id: number;
  at: number;
  by: string;
  counts: ErasePlaceCounts;
  reclaim: EraseReclaim;
}

/** Where an erase run is, for a progress bar. */
export type ErasePhase = 'planning' | 'erasing' | 'scrubbing' | 'reclaiming';

export interface EraseRunOptions {
  /** Who erases, as the receipt and time travel name them ("operator", "agent coder@1"). */
  by: string;
  onProgress?: (phase: ErasePhase, done: number, total: number) => void;
  /**
   * Re-derives the belief dimensions of these entities from what is left of the delta log (the
   * belief layer's, handed down: the store does not know how a dimension is derived). Runs inside
   * the transaction that removed their deltas.
   */
  rebuildBeliefs?: (entities: readonly string[]) => void;
  /**
   * Runs once the rows are erased (`erased`: the erased memories' ids), before the engine's derived
   * indexes are told to rebuild: the engine drops what it keeps beside the store of them (the index
   * sidecar's snapshots, their rows in the list's text search), so nothing rebuilt after the reset
   * is dropped with them.
   */
  afterRows?: (erased: readonly string[]) => void;
  /** Skip making the bytes go (tests of the rows alone); the receipt says `none`. */
  skipReclaim?: boolean;
}

/** The mark an erased image carries instead of its content (journal rows, time travel). */
export interface ErasedMark {
  at: number;
  by: string;
  change_id: number;
}

/** The `meta.erased` note of a change whose images an erase replaced: it can be neither undone nor redone. */
export interface ErasedNote extends ErasedMark {
  /** Images replaced on the side an undo writes back, and on the side a redo writes. */
  before: number;
  after: number;
}
