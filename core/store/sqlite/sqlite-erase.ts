/**
 * The SQLite adapter's side of an erase (shared/erase-run.ts): its row primitives, with
 * `secure_delete` on for the erase's transactions (what they delete is overwritten with zeros as
 * it goes, in its page and in the pages it frees), and its reclaim: the free pages rewritten with
 * zeros and the WAL truncated, in short transactions in a worker thread (reclaim-worker.ts), so
 * other writers get the lock between them. No VACUUM: it holds the write lock for the whole file.
 */
import { cachedStatement } from './sqlite.js';
import { connectionOf, sqliteBindingOf } from './connection.js';
import type { EraseBackend } from '../shared/erase-run.js';
import type { EraseDb } from '../shared/erase-db.js';
import type { EraseReclaim } from '../port/erase.js';
import type { StoreHandle } from '../shared/store-handle.js';
import { reclaimInWorker } from './reclaim-worker.js';

export function sqliteEraseBackend(store: StoreHandle): EraseBackend {
  const conn = () => connectionOf(store);
  let secureBefore: number | null = null;
  const db: EraseDb = {
    backend: 'sqlite',
    all: <R>(sql: string, params: readonly unknown[] = []) => cachedStatement(conn(), sql).all(...params) as R[],
    run: (sql, params = []) => {
      cachedStatement(conn(), sql).run(...params);
    },
    t: (name) => name,
    has: (table) => cachedStatement(conn(), "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined,
    inJson: (col) => `${col} IN (SELECT value FROM json_each(?))`,
    holds: (col) => `instr(lower(${col}), ?) > 0`,
    jsonText: (col, path) => `(CASE WHEN json_valid(${col}) THEN json_extract(${col}, '$.${path.join('.')}') END)`,
    accessMarker: (col) => `(CASE WHEN json_valid(${col}) THEN json_object('added', 0, 'dropped', json('[]'), 'counts', json_extract(${col}, '$.counts')) ELSE NULL END)`,
  };
  return {
    db,
    begin() {
      secureBefore = conn().pragma('secure_delete', { simple: true }) as number;
      conn().pragma('secure_delete = ON');
    },
    end() {
      if (secureBefore !== null && !store.isClosed) conn().pragma(`secure_delete = ${secureBefore}`);
      secureBefore = null;
    },
    async reclaim(): Promise<EraseReclaim> {
      if (store.path === ':memory:') return { method: 'none', rewrote: [], seconds: 0, bytes_before: null, bytes_after: null, problems: ['an in-memory store has no file to rewrite'] };
      const r = await reclaimInWorker(store.path, sqliteBindingOf(store));
      return { method: 'zeroed', rewrote: [store.path], seconds: Math.round(r.seconds * 1000) / 1000, bytes_before: r.bytes_before, bytes_after: r.bytes_after, longest_lock_ms: r.longest_transaction_ms, problems: r.problems };
    },
  };
}
