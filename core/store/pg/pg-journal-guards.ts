/**
 * What keeps the journal's checks true on PostgreSQL while other connections write (issue #17).
 * SQLite runs one writer at a time, so an undo's checks and its writes cannot be separated there;
 * here transactions are READ COMMITTED and run side by side, so each check first locks what it
 * reads, in the row, never the store:
 *
 * - An undo or redo locks the change's own journal row (FOR UPDATE) before it reads its state: a
 *   second undo of the same change waits, then reads "undone" and is refused (`conflict`).
 * - It then locks the memory and tombstone rows the change touched, before looking for later
 *   changes that touched them: a writer that got there first has committed by the time the lock
 *   is held (so its change is found, and the undo is refused as blocked); a writer that comes
 *   later waits until the undo commits, and then writes on top of it. Rows that do not exist
 *   (the undo of a delete recreates them) cannot be locked; a writer creating the same id at the
 *   same moment fails on the key instead.
 * - Marking a change undone takes a transaction lock on the undo order alone (an advisory lock on
 *   this store's journal): the next undo order (max + 1) is read after the previous undo that
 *   took it has committed, so two undos never share one. The lock is the last thing an undo
 *   takes and is held only until its commit; memory writes never wait for it.
 * - The other journalled rows (saved profiles, meta values, belief aliases and rejections) are
 *   often inserted by a change rather than updated, so there may be no row to lock. Each is held
 *   by a transaction advisory lock on its journal key instead: a change takes it as it captures
 *   the row's before-image (so the image stays true until the write commits; without it, a second
 *   change could commit between the first one's capture and write, and undoing the first would
 *   put back an image that erases the second), and an undo or redo takes those of every such row
 *   it restores, in key order, with the row locks.
 * - A long run's marker is claimed by inserting it only if the key has no row: of two connections
 *   starting runs, the second waits for the first's insert to commit and then finds it there.
 *
 * Locks are taken in key order, so two undos of overlapping changes wait for each other rather
 * than deadlock; a deadlock the server breaks anyway (40P01), a serialization failure (40001) or a
 * lock timeout (55P03) reach the caller as a `busy` error, the transaction rolled back whole.
 */
import type { JournalSql } from '../shared/journal.js';
import { claimRunMarker, isRunKey } from './pg-run-markers.js';
import type { PgStoreConnection } from './pg-store-connection.js';

export type PgJournalGuards = Pick<JournalSql, 'lockChanges' | 'lockTouched' | 'lockKey' | 'claimMeta'> & {
  /** Waits until no other transaction can be giving out an undo order, then holds it until commit. */
  lockUndoOrder(): void;
};

export function pgJournalGuards(conn: PgStoreConnection): PgJournalGuards {
  const q = (sql: string, params: readonly unknown[] = []) => conn.db().query(sql, params);
  const touchedKeys = (ns: 'm' | 't') => `SELECT substr(key, 3) FROM ${conn.table('mnemo_journal_rows')} WHERE change_id = ANY($1::bigint[]) AND substr(key, 1, 2) = '${ns}:'`;
  // Memories and tombstones are locked as rows; every other journal key by an advisory lock on its name.
  const rowLocked = (key: string) => key.startsWith('m:') || key.startsWith('t:');
  // The store's own journal table in the name: another store's key of the same spelling is another lock.
  const lockPrefix = `${conn.table('mnemo_journal')}:`;
  return {
    lockChanges(changeIds) {
      if (changeIds.length === 0) return;
      q(`SELECT id FROM ${conn.table('mnemo_journal')} WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE`, [changeIds]);
    },
    lockTouched(changeIds) {
      if (changeIds.length === 0) return;
      q(`SELECT id FROM ${conn.table('memories')} WHERE id IN (${touchedKeys('m')}) ORDER BY id FOR UPDATE`, [changeIds]);
      q(`SELECT hash FROM ${conn.table('mnemo_tombstones')} WHERE hash IN (${touchedKeys('t')}) ORDER BY hash FOR UPDATE`, [changeIds]);
      // In key order (the ordered subquery), so two undos of overlapping changes queue rather than deadlock.
      q(
        `SELECT pg_advisory_xact_lock(hashtext($2 || k.key)) FROM (SELECT key FROM ${conn.table('mnemo_journal_rows')}
           WHERE change_id = ANY($1::bigint[]) AND substr(key, 1, 2) NOT IN ('m:', 't:') ORDER BY key) k`,
        [changeIds, lockPrefix],
      );
    },
    lockKey(key) {
      if (rowLocked(key)) return;
      // Sent ahead of the snapshot's read, in the same request (a bulk alias merge captures thousands).
      conn.db().defer('SELECT pg_advisory_xact_lock(hashtext($1))', [lockPrefix + key]);
    },
    claimMeta(key, value) {
      if (isRunKey(key)) return claimRunMarker(conn, key, value);
      return q(`INSERT INTO ${conn.table('mnemo_meta')}(key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING key`, [key, value]).length === 1;
    },
    lockUndoOrder() {
      q('SELECT pg_advisory_xact_lock(hashtext($1))', [`${conn.table('mnemo_journal')}.undo_order`]);
    },
  };
}
