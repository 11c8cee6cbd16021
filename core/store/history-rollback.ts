/**
 * Undoing one change feed row (feed-ddl.ts): the row of `memories` or `memory_edges` as it was
 * just before that change, from the row just after it. Walking a key's feed rows newest first from
 * its current row gives its state at any earlier position. Pure: no SQL, so the walk costs only
 * the rows it is given.
 */
import { MnemoError } from '../errors.js';

/** A full row of nooa's `memories` (every column; `data` as stored). */
export interface MemoryImage {
  id: string;
  type: string;
  content: string;
  importance: number;
  salience: number;
  strength: number;
  created_at: number;
  last_accessed: number;
  access_count: number;
  archived: number;
  owner: string;
  status: string | null;
  embedding: Buffer | null;
  data: string;
}

/** A full row of nooa's `memory_edges`. */
export interface EdgeImage {
  src: string;
  dst: string;
  type: string;
  weight: number;
  created_at: number;
}

/** One row of `mnemo_feed` as its columns hold it. */
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

/** The compact before-image of an access (op `access`): see ACCESS_IMAGE in feed-ddl.ts. */
interface AccessImage {
  added: number;
  dropped: unknown[];
  counts: Record<string, unknown>;
}

/** The memory as it was before `row` changed it (null: it did not exist). */
export function memoryBefore(current: MemoryImage | null, row: FeedRow): MemoryImage | null {
  switch (row.op) {
    case 'insert':
      return null;
    case 'access':
      if (!current) throw brokenChain(row);
      return {
        ...current,
        strength: row.strength!,
        last_accessed: row.last_accessed!,
        access_count: row.access_count!,
        data: accessDataBefore(current.data, row),
      };
    default:
      return {
        id: row.memory_id,
        type: row.type!,
        content: row.content!,
        importance: row.importance!,
        salience: row.salience!,
        strength: row.strength!,
        created_at: row.created_at!,
        last_accessed: row.last_accessed!,
        access_count: row.access_count!,
        archived: row.archived!,
        owner: row.owner!,
        status: row.status,
        // An update that left the embedding alone does not copy it (embedding_kept = 0).
        embedding: row.embedding_kept ? row.embedding : (current?.embedding ?? null),
        data: row.data!,
      };
  }
}

/** The edge as it was before `row` changed it (null: it did not exist). */
export function edgeBefore(row: FeedRow): EdgeImage | null {
  if (row.op === 'insert') return null;
  return { src: row.memory_id, dst: row.dst!, type: row.edge_type!, weight: row.weight!, created_at: row.created_at! };
}

/**
 * The old `data` of an access: the current JSON with the ring, counters, strength and
 * `last_accessed_at` put back. The old ring is the entries that fell off its head followed by the
 * current ring without the entries this access appended.
 */
function accessDataBefore(currentData: string, row: FeedRow): string {
  const data = JSON.parse(currentData) as Record<string, unknown>;
  const image = JSON.parse(row.data!) as AccessImage;
  const ring = Array.isArray(data['access_log']) ? (data['access_log'] as unknown[]) : [];
  data['access_log'] = [...image.dropped, ...ring.slice(0, ring.length - image.added)];
  for (const [field, value] of Object.entries(image.counts)) {
    // json_extract of a field the old JSON lacked is null: the field was not there.
    if (value === null) delete data[field];
    else data[field] = value;
  }
  if (row.access_at === null) delete data['last_accessed_at'];
  else data['last_accessed_at'] = row.access_at;
  return JSON.stringify(data);
}

function brokenChain(row: FeedRow): MnemoError {
  return new MnemoError('internal', `change feed row ${row.seq} records an access to memory ${row.memory_id}, which does not exist after it`);
}
