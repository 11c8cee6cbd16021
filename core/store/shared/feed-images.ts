/**
 * Before-images from the change feed (feed-ddl.ts): given a feed row and the row as it stood right
 * after that change, the row as it stood right before. Walking the feed backwards from the current
 * state with these gives the store at any earlier sequence number (time travel).
 *
 * Every op but `access` carries the whole old row in typed columns, so those images are exact
 * (doubles bit for bit). An `access` row carries only what an access changes; the rest comes from
 * the row after it, which the trigger checked was otherwise the same. Its `data` is rebuilt in the
 * JSON formatting nooa and Mnemo write (pyjson.ts): the same text for their rows, the same value for
 * a row another writer formatted differently.
 */
import { MnemoError } from '../../errors.js';
import { pyDumps } from '../../model/pyjson.js';
import type { MemoryRow } from '../port/codec.js';

/** One row of `mnemo_feed`, as `SELECT * FROM mnemo_feed` reads it. */
export interface FeedRow {
  seq: number;
  at: number;
  tbl: 'memory' | 'edge';
  op: 'insert' | 'replace' | 'update' | 'access' | 'delete';
  memory_id: string;
  dst: string | null;
  edge_type: string | null;
  type: string | null;
  content: string | null;
  importance: number | null;
  salience: number | null;
  strength: number | null;
  created_at: number | null;
  last_accessed: number | null;
  access_count: number | null;
  archived: number | null;
  owner: string | null;
  status: string | null;
  data: string | null;
  embedding: Buffer | null;
  embedding_kept: number;
  weight: number | null;
  access_at: number | null;
  change_id: number | null;
  writer: string | null;
}

/** A `memory_edges` row. */
export interface EdgeRow {
  src: string;
  dst: string;
  type: string;
  weight: number;
  created_at: number;
}

/** What an `access` row keeps in `data`: entries appended, entries that fell off the head, old counters. */
interface AccessImage {
  added: number;
  dropped: unknown[];
  counts: Record<string, number | null>;
}

/**
 * The memory row before the change this feed row records; null when it did not exist (an insert).
 * `current` is the row right after the change (null when the change deleted it); only an `access`
 * and an `update` that kept the embedding need it.
 */
export function memoryRowBefore(current: MemoryRow | null, feed: FeedRow): MemoryRow | null {
  if (feed.tbl !== 'memory') throw new MnemoError('internal', `feed row #${feed.seq} is an edge change, not a memory change`);
  switch (feed.op) {
    case 'insert':
      return null;
    case 'access':
      return accessBefore(requireCurrent(current, feed), feed);
    case 'update':
    case 'replace':
    case 'delete': {
      const embedding = feed.embedding_kept ? feed.embedding : (requireCurrent(current, feed).embedding ?? null);
      return {
        id: feed.memory_id,
        type: feed.type!,
        content: feed.content!,
        importance: feed.importance!,
        salience: feed.salience!,
        strength: feed.strength!,
        created_at: feed.created_at!,
        last_accessed: feed.last_accessed!,
        access_count: feed.access_count!,
        archived: feed.archived!,
        owner: feed.owner!,
        status: feed.status,
        embedding,
        data: feed.data!,
      };
    }
  }
}

/** The edge before the change this feed row records; null when it did not exist (an insert). */
export function edgeRowBefore(feed: FeedRow): EdgeRow | null {
  if (feed.tbl !== 'edge') throw new MnemoError('internal', `feed row #${feed.seq} is a memory change, not an edge change`);
  if (feed.op === 'insert') return null;
  return { src: feed.memory_id, dst: feed.dst!, type: feed.edge_type!, weight: feed.weight!, created_at: feed.created_at! };
}

/** The row before the change, for either table (`current` is only read for memory rows). */
export function rowBefore(current: MemoryRow | null, feed: FeedRow): MemoryRow | EdgeRow | null {
  return feed.tbl === 'edge' ? edgeRowBefore(feed) : memoryRowBefore(current, feed);
}

function requireCurrent(current: MemoryRow | null, feed: FeedRow): MemoryRow {
  if (current && current.id === feed.memory_id) return current;
  throw new MnemoError('internal', `feed row #${feed.seq} (${feed.op} of ${feed.memory_id}) needs the row as it stood after the change to rebuild the row before it`);
}

/**
 * The old ring is the dropped entries followed by the current ring without its last `added`
 * entries; the counters, `last_accessed_at` and the three columns come from the feed row. A counter
 * the feed holds as null was null or absent before; it is written as null where the current data
 * has the key.
 */
function accessBefore(current: MemoryRow, feed: FeedRow): MemoryRow {
  const data = JSON.parse(current.data) as Record<string, unknown>;
  undoAccessInData(data, feed);
  return { ...accessColumnsBefore(current, feed), data: pyDumps(data) };
}

/**
 * The parsed `data` of the row after an access, turned into the data before it (in place). A walk
 * back over many accesses of one memory parses once, undoes each, and formats once: formatting
 * the JSON is most of what undoing an access costs.
 */
export function undoAccessInData(data: Record<string, unknown>, feed: FeedRow): void {
  const image = JSON.parse(feed.data!) as AccessImage;
  const ring = data['access_log'] as unknown[];
  data['access_log'] = [...image.dropped, ...ring.slice(0, ring.length - image.added)];
  for (const [field, value] of Object.entries(image.counts)) {
    if (value !== null || field in data) data[field] = value;
  }
  if (feed.access_at !== null || 'last_accessed_at' in data) data['last_accessed_at'] = feed.access_at;
}

/** The columns an access changes, as they were before it (the row's `data` is left as it is). */
export function accessColumnsBefore<R extends MemoryRow>(current: R, feed: FeedRow): R {
  return { ...current, strength: feed.strength!, last_accessed: feed.last_accessed!, access_count: feed.access_count! };
}
