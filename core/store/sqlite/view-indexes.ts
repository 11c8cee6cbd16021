/**
 * Two indexes Mnemo keeps on nooa's `memories` table for the workbench's default views: the memory
 * list's first page (live memories, newest first) and the Graph view's overview (the most important
 * live memories). Without them each is a sort of the whole table, since nooa indexes neither
 * column: 2.3 s and 2.2 s at a million memories, against under 2 ms with them.
 *
 * Both lead with the expression `archived * 1`, not the column. SQLite uses an expression index
 * only for a query that names the same expression, so nooa's own reads (`WHERE archived = 0`,
 * with no ORDER BY) keep the plan and the row order they had: on the column, SQLite's planner
 * chose the new index for them, and nooa's `all_memories()` came back in another order. Mnemo's
 * list, facets and graph filter on `ARCHIVED_EXPRESSION` (equal to the column for its 0 and 1).
 *
 * They are indexes, not tables: nooa never reads them, and the file stays one nooa opens and writes
 * (SQLite keeps them current whoever writes). They are not a numbered migration: that would make
 * an older build of Mnemo refuse the store, and this build refuse every PostgreSQL store made before
 * it (their schema level must match the build's). They are made with Mnemo's tables, and by a
 * writable open that finds them missing on a store that has Mnemo's tables (a nooa-only file stays
 * untouched until Mnemo writes to it): seconds each at a million memories, once.
 */
import type { DB } from './sqlite.js';

/** The archived flag as the views' indexes hold it (see above); `alias.` is prefixed to the column. */
export function archivedExpression(alias = ''): string {
  return `${alias}archived * 1`;
}

export const VIEW_INDEXES: readonly { name: string; sql: string }[] = [
  // The list's default order: `archived * 1 = ? ORDER BY created_at DESC, rowid DESC`. An index's
  // entries end with the rowid, so equal times come in rowid order, as the query's tie-break asks.
  { name: 'idx_mnemo_mem_created', sql: `CREATE INDEX IF NOT EXISTS idx_mnemo_mem_created ON memories(${archivedExpression()}, created_at)` },
  // The graph overview's order: `archived * 1 = 0 ORDER BY importance DESC, rowid ASC`. Descending
  // importance with ascending rowids is this index read forwards.
  { name: 'idx_mnemo_mem_importance', sql: `CREATE INDEX IF NOT EXISTS idx_mnemo_mem_importance ON memories(${archivedExpression()}, importance DESC)` },
];

export const VIEW_INDEX_NAMES: ReadonlySet<string> = new Set(VIEW_INDEXES.map((i) => i.name));

function missing(db: DB): { name: string; sql: string }[] {
  const present = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'memories'").all() as { name: string }[]).map((r) => r.name));
  return VIEW_INDEXES.filter((i) => !present.has(i.name));
}

/** Creates the view indexes this store lacks (inside the caller's transaction, when there is one). */
export function createViewIndexes(db: DB): void {
  for (const i of missing(db)) db.exec(i.sql);
}

/**
 * At a writable open: creates what is missing, unless another connection holds the write lock
 * past the busy wait. Then the views read without them (slower on a big store, the same answers)
 * and the next open tries again: an open never fails for want of an index. `say` hears what is
 * about to happen first: on a big store the open waits for it (3 to 20 s at a million memories,
 * as much of the file as is not cached is read once).
 */
export function ensureViewIndexes(db: DB, say: (message: string) => void): void {
  const absent = missing(db);
  if (absent.length === 0) return;
  say(`adding ${absent.map((i) => i.name).join(' and ')} (the memory list's and the graph's orders) to this store, once; on a large store this takes seconds`);
  try {
    db.transaction(() => createViewIndexes(db)).immediate();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) return;
    throw err;
  }
}
