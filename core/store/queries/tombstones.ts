/**
 * Value-level tombstones, read and written once above the port for both backends
 * (port/store-sql.ts): forgetting a memory records a hash of its content in `mnemo_tombstones`, so
 * re-authoring the same text later is noticed instead of silently re-creating what a curator
 * removed. A tombstone is a journal target (`t:<hash>`, each adapter restores its rows), so undoing
 * the forget removes the tombstone with it.
 */
import { contentHash } from '../../model/content-hash.js';
import type { StoreReader, StoreWriter } from '../port/port.js';
import type { Tombstone } from '../port/store-rows.js';
import { dialectOf } from '../shared/sql-dialect.js';
import { query } from '../shared/store-query.js';

const TABLE = 'mnemo_tombstones';
const COLS = ['hash', 'memory_id', 'owner', 'ts', 'head'] as const;

/** The tombstone left by forgetting this content, if any. */
export function tombstoneFor(store: Pick<StoreReader, 'sql' | 'hasMnemo'>, content: string): Tombstone | null {
  if (!store.hasMnemo() || !store.sql.hasTable(TABLE)) return null;
  const r = store.sql.get(query(`SELECT ${COLS.join(', ')} FROM ${store.sql.table(TABLE)} WHERE hash = ?`, [contentHash(content)]));
  return r ? { hash: r['hash'] as string, memory_id: r['memory_id'] as string, owner: r['owner'] as string, ts: r['ts'] as number, head: r['head'] as string } : null;
}

/** Inserts or replaces a tombstone, journalled: undoing the forget removes it again. */
export function putTombstone(store: Pick<StoreWriter, 'transaction' | 'ensureMnemo' | 'journal' | 'sql'>, t: Tombstone): void {
  store.transaction(() => {
    store.ensureMnemo();
    store.journal.capture(`t:${t.hash}`);
    store.sql.run(query(dialectOf(store.sql).upsert(store.sql.table(TABLE), COLS, ['hash']), COLS.map((c) => t[c])));
  });
}
