/**
 * The SQLite journal target of value-level tombstones (`t:<hash>`, a `mnemo_tombstones` row): how
 * a change's tombstone is snapshotted and restored, so undoing a forget removes it. The tombstones
 * themselves are read and written once for both backends (queries/tombstones.ts).
 */
import { connectionOf } from './connection.js';
import type { JournalTarget } from '../shared/journal.js';
import { cachedStatement, type DB } from './sqlite.js';
import type { Tombstone } from '../port/store-rows.js';

function hasTable(db: DB): boolean {
  return cachedStatement(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name='mnemo_tombstones'").get() !== undefined;
}

/** Journal rows `t:<hash>`: one tombstone. */
export const tombstoneTarget: JournalTarget = {
  ns: 't',
  snapshot(store, hash) {
    const db = connectionOf(store);
    return hasTable(db) ? ((cachedStatement(db, 'SELECT hash, memory_id, owner, ts, head FROM mnemo_tombstones WHERE hash = ?').get(hash) as Tombstone | undefined) ?? null) : null;
  },
  restore(store, hash, image) {
    if (image === null) cachedStatement(connectionOf(store), 'DELETE FROM mnemo_tombstones WHERE hash = ?').run(hash);
    else cachedStatement(connectionOf(store), 'INSERT OR REPLACE INTO mnemo_tombstones(hash, memory_id, owner, ts, head) VALUES (@hash, @memory_id, @owner, @ts, @head)').run(image as Tombstone);
  },
};
