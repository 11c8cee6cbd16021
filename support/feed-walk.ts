/**
 * Test helper: the nooa tables as they stood at a feed sequence number, rebuilt by walking the change
 * feed back from the file's current state with core/store/shared/feed-images.ts (what time travel does).
 */
import type Database from 'better-sqlite3';
import { MEMORY_COLUMNS, type MemoryRow } from '../core/store/port/codec.js';
import { edgeRowBefore, memoryRowBefore, type EdgeRow, type FeedRow } from '../core/store/shared/feed-images.js';

export interface NooaTables {
  memories: Map<string, MemoryRow>;
  edges: Map<string, EdgeRow>;
}

/** Every memory row (all columns but the rowid) and every edge, keyed by id and by src|dst|type. */
export function nooaTables(db: Database.Database): NooaTables {
  return {
    memories: new Map((db.prepare(`SELECT ${MEMORY_COLUMNS.join(', ')} FROM memories`).all() as MemoryRow[]).map((r) => [r.id, r])),
    edges: new Map((db.prepare('SELECT src, dst, type, weight, created_at FROM memory_edges').all() as EdgeRow[]).map((e) => [`${e.src}|${e.dst}|${e.type}`, e])),
  };
}

/** The tables as they were right after feed row `seq` (0: before the first row), from the current ones. */
export function tablesAt(db: Database.Database, seq: number): NooaTables {
  const state = nooaTables(db);
  const rows = db.prepare('SELECT * FROM mnemo_feed WHERE seq > ? ORDER BY seq DESC').all(seq) as FeedRow[];
  for (const row of rows) {
    if (row.tbl === 'memory') {
      const before = memoryRowBefore(state.memories.get(row.memory_id) ?? null, row);
      if (before) state.memories.set(row.memory_id, before);
      else state.memories.delete(row.memory_id);
    } else {
      const key = `${row.memory_id}|${row.dst}|${row.edge_type}`;
      const before = edgeRowBefore(row);
      if (before) state.edges.set(key, before);
      else state.edges.delete(key);
    }
  }
  return state;
}
