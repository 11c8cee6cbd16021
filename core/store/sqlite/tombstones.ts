/**
 * Value-level tombstones: forgetting a memory records a hash of its content in
 * `mnemo_tombstones`, so re-authoring the same text later is noticed instead of silently
 * re-creating what a curator removed. Tombstones are a journal target (`t:<hash>`), so undoing the
 * forget removes the tombstone with it.
 */
import { connectionOf, statementOf } from './connection.js';
import { contentHash } from '../../model/content-hash.js';
import type { JournalledStore, JournalTarget } from '../shared/journal.js';
import { cachedStatement, type DB } from './sqlite.js';
import type { StoreHandle } from '../shared/store-handle.js';

export interface Tombstone {
  hash: string;
  memory_id: string;
  owner: string;
  ts: number;
  head: string;
}

export { contentHash };

function hasTable(db: DB): boolean {
  return cachedStatement(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name='mnemo_tombstones'").get() !== undefined;
}

export function findTombstone(store: StoreHandle, content: string): Tombstone | null {
  if (!store.hasMnemo() || !hasTable(connectionOf(store))) return null;
  return (statementOf(store, 'SELECT hash, memory_id, owner, ts, head FROM mnemo_tombstones WHERE hash = ?').get(contentHash(content)) as Tombstone | undefined) ?? null;
}

export function listTombstones(store: StoreHandle, limit = 100): Tombstone[] {
  if (!store.hasMnemo() || !hasTable(connectionOf(store))) return [];
  return statementOf(store, 'SELECT hash, memory_id, owner, ts, head FROM mnemo_tombstones ORDER BY ts DESC LIMIT ?').all(limit) as Tombstone[];
}

/** Writes a tombstone inside the open change (journalled). */
export function writeTombstone(store: JournalledStore, t: Tombstone): void {
  store.ensureMnemo();
  store.journal.capture(`t:${t.hash}`);
  statementOf(store, 'INSERT OR REPLACE INTO mnemo_tombstones(hash, memory_id, owner, ts, head) VALUES (@hash, @memory_id, @owner, @ts, @head)').run(t);
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
