/**
 * The rows the journal snapshots and restores on PostgreSQL: memories (`m:<id>`: the row with its
 * embedding and outgoing edges) and tombstones (`t:<hash>`). The images are the SQLite adapter's
 * (memory-images.ts, tombstones.ts), key for key in the same order, so the journal compares them as
 * text and a journal copied between backends restores the same rows; the restore keeps accesses
 * logged since the change (mergeAccessDrift), as on SQLite.
 */
import type { Edge } from '../../model/memory.js';
import type { EdgeType } from '../../model/enums.js';
import type { JournalTarget } from '../shared/journal.js';
import { mergeAccessDrift, type MemoryImage } from '../sqlite/memory-images.js';
import type { StoreHandle } from '../shared/store-handle.js';
import type { PgMemoryRows } from './pg-memory-rows.js';
import type { PgStoreConnection } from './pg-store-connection.js';
import type { Tombstone } from '../port/store-rows.js';

function writeExact(rows: PgMemoryRows, image: MemoryImage, edgesAt?: readonly number[]): void {
  const embedding = image.embedding ? Buffer.from(image.embedding, 'base64') : null;
  if (rows.rowidOf(image.row.id) !== null) {
    rows.update(image.row);
    rows.setEmbedding(image.row.id, embedding);
  } else {
    // Back in its old place in insertion order, unless another row has taken it since.
    rows.insertAt(image.rowid, image.row, embedding);
  }
  const edges: Edge[] = image.edges.map((e) => ({ target_id: e.dst, type: e.type as EdgeType, weight: e.weight, created_at: e.created_at }));
  if (edgesAt) rows.replaceEdgesAt(image.row.id, edges, edgesAt);
  else rows.replaceEdges(image.row.id, edges);
}

export function pgMemoryRowTarget(rows: PgMemoryRows): JournalTarget<StoreHandle> {
  return {
    ns: 'm',
    snapshot: (_store, id) => rows.image(id),
    placement: (_store, id) => rows.edgeRowids(id),
    restore(_store, id, image, expected, placement) {
      if (image === null) {
        rows.remove(id);
        return;
      }
      const img = image as MemoryImage;
      const current = rows.image(id);
      const edgesAt = Array.isArray(placement) ? (placement as number[]) : undefined;
      if (current && expected && JSON.stringify(current) !== JSON.stringify(expected)) writeExact(rows, mergeAccessDrift(img, current, expected as MemoryImage), edgesAt);
      else writeExact(rows, img, edgesAt);
    },
    memoryIds: (id) => [id],
  };
}

export function pgTombstoneTarget(conn: PgStoreConnection): JournalTarget<StoreHandle> {
  const table = () => conn.table('mnemo_tombstones');
  return {
    ns: 't',
    snapshot: (_store, hash) => pgTombstone(conn, hash),
    restore(_store, hash, image) {
      if (image === null) conn.db().query(`DELETE FROM ${table()} WHERE hash = $1`, [hash]);
      else putPgTombstone(conn, image as Tombstone);
    },
  };
}

/** The tombstone with this content hash, or null; its keys in the SQLite image's order. */
export function pgTombstone(conn: PgStoreConnection, hash: string): Tombstone | null {
  const [r] = conn.db().query(`SELECT hash, memory_id, owner, ts, head FROM ${conn.table('mnemo_tombstones')} WHERE hash = $1`, [hash]);
  return r ? { hash: r['hash'] as string, memory_id: r['memory_id'] as string, owner: r['owner'] as string, ts: r['ts'] as number, head: r['head'] as string } : null;
}

/** Inserts or replaces a tombstone (SQLite's INSERT OR REPLACE). */
export function putPgTombstone(conn: PgStoreConnection, t: Tombstone): void {
  conn.db().query(
    `INSERT INTO ${conn.table('mnemo_tombstones')}(hash, memory_id, owner, ts, head) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (hash) DO UPDATE SET memory_id = excluded.memory_id, owner = excluded.owner, ts = excluded.ts, head = excluded.head`,
    [t.hash, t.memory_id, t.owner, t.ts, t.head],
  );
}
