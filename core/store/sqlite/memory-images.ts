/**
 * Journal images of memory rows: every column (the embedding as base64), the rowid (nooa breaks
 * ties by rowid order, so an undone delete comes back in its old place) and the outgoing edges.
 */
import { connectionOf } from './connection.js';
import { encodeData, decodeRow, MEMORY_ROW_COLS, type MemoryRow } from '../port/codec.js';
import type { JournalTarget } from '../shared/journal.js';
import { cachedStatement, type DB } from './sqlite.js';
import type { StoreHandle } from '../shared/store-handle.js';

export interface MemoryImage {
  rowid: number;
  row: Omit<MemoryRow, 'embedding' | 'rowid'>;
  embedding: string | null;
  edges: { dst: string; type: string; weight: number; created_at: number }[];
}

export function snapshotMemory(db: DB, id: string): MemoryImage | null {
  const r = cachedStatement(db, `SELECT ${MEMORY_ROW_COLS} FROM memories WHERE id = ?`).get(id) as (MemoryRow & { rowid: number }) | undefined;
  if (!r) return null;
  const edges = cachedStatement(db, 'SELECT dst, type, weight, created_at FROM memory_edges WHERE src = ? ORDER BY rowid').all(id) as MemoryImage['edges'];
  const { rowid, embedding, ...row } = r;
  return { rowid, row, embedding: embedding ? Buffer.from(embedding).toString('base64') : null, edges };
}

/** Fields that accesses (not changes) move; kept from the live row when only they drifted. */
const ACCESS_FIELDS = [
  'access_log',
  'last_accessed_at',
  'access_count',
  'recalled_count',
  'searched_count',
  'injected_count',
  'reinforced_count',
  'deref_count',
] as const;

/** The rowids of a memory's outgoing edges, in the order of its image's edges (JournalTarget.placement). */
export function edgeRowids(db: DB, id: string): number[] {
  return cachedStatement(db, 'SELECT rowid FROM memory_edges WHERE src = ? ORDER BY rowid').pluck().all(id) as number[];
}

/**
 * An edge back at the rowid it had (a take-back after a cancel, JournalTarget.placement), unless
 * another edge holds that rowid now: then SQLite numbers it, as a plain restore does.
 */
const INSERT_EDGE_AT = `INSERT OR REPLACE INTO memory_edges(rowid, src, dst, type, weight, created_at)
  SELECT CASE WHEN EXISTS (SELECT 1 FROM memory_edges WHERE rowid = @at) THEN NULL ELSE @at END, @src, @dst, @type, @weight, @created_at`;

function writeExact(db: DB, image: MemoryImage, edgesAt?: readonly number[]): void {
  const existing = cachedStatement(db, 'SELECT rowid FROM memories WHERE id = ?').get(image.row.id) as { rowid: number } | undefined;
  const params = { ...image.row, embedding: image.embedding ? Buffer.from(image.embedding, 'base64') : null };
  if (existing) {
    cachedStatement(db, 
      `UPDATE memories SET type=@type, content=@content, importance=@importance, salience=@salience, strength=@strength,
         created_at=@created_at, last_accessed=@last_accessed, access_count=@access_count, archived=@archived, owner=@owner,
         status=@status, embedding=@embedding, data=@data WHERE id=@id`,
    ).run(params);
  } else {
    const taken = cachedStatement(db, 'SELECT 1 FROM memories WHERE rowid = ?').get(image.rowid) !== undefined;
    cachedStatement(db, 
      `INSERT INTO memories(${taken ? '' : 'rowid, '}id, type, content, importance, salience, strength, created_at, last_accessed, access_count, archived, owner, status, embedding, data)
       VALUES (${taken ? '' : '@rowid, '}@id, @type, @content, @importance, @salience, @strength, @created_at, @last_accessed, @access_count, @archived, @owner, @status, @embedding, @data)`,
    ).run(taken ? params : { ...params, rowid: image.rowid });
  }
  cachedStatement(db, 'DELETE FROM memory_edges WHERE src = ?').run(image.row.id);
  if (edgesAt && edgesAt.length === image.edges.length) {
    const at = cachedStatement(db, INSERT_EDGE_AT);
    image.edges.forEach((e, i) => at.run({ at: edgesAt[i], src: image.row.id, dst: e.dst, type: e.type, weight: e.weight, created_at: e.created_at }));
    return;
  }
  const ins = cachedStatement(db, 'INSERT OR REPLACE INTO memory_edges(src, dst, type, weight, created_at) VALUES (?, ?, ?, ?, ?)');
  for (const e of image.edges) ins.run(image.row.id, e.dst, e.type, e.weight, e.created_at);
}

/** Restores `image` but keeps the accesses logged since `expected` was written (either adapter's restore). */
export function mergeAccessDrift(image: MemoryImage, current: MemoryImage, expected: MemoryImage): MemoryImage {
  const target = decodeRow({ ...image.row }, []).memory;
  const live = decodeRow({ ...current.row }, []).memory;
  const wrote = decodeRow({ ...expected.row }, []).memory;
  const merged = { ...target } as unknown as Record<string, unknown>;
  for (const f of ACCESS_FIELDS) merged[f] = (live as unknown as Record<string, unknown>)[f];
  merged['strength'] = target.strength + (live.strength - wrote.strength);
  const m = merged as unknown as typeof target;
  return {
    rowid: image.rowid,
    row: {
      ...image.row,
      strength: m.strength,
      last_accessed: m.last_accessed_at,
      access_count: m.access_count,
      data: encodeData(m),
    },
    embedding: image.embedding,
    edges: image.edges,
  };
}

/** Journal rows `m:<id>`: a memory row with its embedding and outgoing edges. */
export const memoryRowTarget: JournalTarget = {
  ns: 'm',
  snapshot: (store, id) => snapshotMemory(connectionOf(store), id),
  placement: (store, id) => edgeRowids(connectionOf(store), id),
  restore(store: StoreHandle, id: string, image: unknown, expected: unknown, placement?: unknown) {
    const db = connectionOf(store);
    if (image === null) {
      cachedStatement(db, 'DELETE FROM memory_edges WHERE src = ?').run(id);
      cachedStatement(db, 'DELETE FROM memories WHERE id = ?').run(id);
      return;
    }
    const img = image as MemoryImage;
    const current = snapshotMemory(db, id);
    const edgesAt = Array.isArray(placement) ? (placement as number[]) : undefined;
    if (current && expected && JSON.stringify(current) !== JSON.stringify(expected)) {
      writeExact(db, mergeAccessDrift(img, current, expected as MemoryImage), edgesAt);
    } else {
      writeExact(db, img, edgesAt);
    }
  },
  memoryIds: (id) => [id],
};
