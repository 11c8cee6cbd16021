/**
 * The SQLite adapter's journal tables (mnemo_journal, mnemo_journal_rows): the statements the
 * journal (journal.ts) runs, behind its JournalSql interface, so the same journal logic runs on
 * another backend's tables.
 */
import { connectionOf, statementOf } from './connection.js';
import { attributeFeedTo } from './feed-stamp.js';
import type { JournalSql, RawChangeRow, RawSummary, RunCheckpoints } from '../shared/journal.js';
import { dependentChangeIds, ownersTouched } from './journal-dependents.js';
import { hasMigration } from './migrations.js';
import type { StoreHandle } from '../shared/store-handle.js';

export function sqliteJournalSql(store: StoreHandle): JournalSql {
  /** A store opened read-only keeps its older schema: a journal from before credentials has no such column. */
  const hasCredentialColumn = () => hasMigration(connectionOf(store), '006-agent-credentials');
  const credentialColumn = () => (hasCredentialColumn() ? 'j.credential_id' : 'NULL AS credential_id');
  const summarySql = (where: string, tail: string) =>
    `SELECT j.id, j.ts, j.label, j.kind, j.counts, j.state, j.undone_at, j.meta, ${credentialColumn()},
            (SELECT count(*) FROM mnemo_journal_rows r WHERE r.change_id = j.id) AS rows
     FROM mnemo_journal j ${where}${tail}`;
  return {
    insertChange(c) {
      const info = statementOf(store, 'INSERT INTO mnemo_journal(ts, label, kind, counts, state, meta, credential_id) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
        c.ts,
        c.label,
        c.kind,
        c.counts,
        'applied',
        c.meta,
        c.credentialId,
      );
      return Number(info.lastInsertRowid);
    },
    insertRows(changeId, rows) {
      const ins = statementOf(store, 'INSERT INTO mnemo_journal_rows(change_id, key, before, after) VALUES (?, ?, ?, ?)');
      for (const r of rows) ins.run(changeId, r.key, r.before, r.after);
    },
    history(limit, offset, credentialId) {
      // Without the column (an older store opened read-only) every change was made without a credential.
      const hasColumn = hasCredentialColumn();
      if (typeof credentialId === 'string' && !hasColumn) return [];
      const filtered = credentialId !== undefined && hasColumn;
      const where = !filtered ? '' : credentialId === null ? 'WHERE j.credential_id IS NULL' : 'WHERE j.credential_id = ?';
      const params = filtered && credentialId !== null ? [credentialId] : [];
      return statementOf(store, summarySql(where, ' ORDER BY j.id DESC LIMIT ? OFFSET ?')).all(...params, limit, offset) as RawSummary[];
    },
    summary(changeId) {
      return (statementOf(store, summarySql('WHERE j.id = ?', '')).get(changeId) as RawSummary | undefined) ?? null;
    },
    rows(changeId) {
      return statementOf(store, 'SELECT key, before, after FROM mnemo_journal_rows WHERE change_id = ? ORDER BY rowid').all(changeId) as RawChangeRow[];
    },
    blockerIds(changeId, sinceSeq) {
      return statementOf(
        store,
        `SELECT DISTINCT r.change_id FROM mnemo_journal_rows r JOIN mnemo_journal j ON j.id = r.change_id
         WHERE r.change_id > ? AND r.change_id != ? AND j.state = 'applied'
           AND EXISTS (SELECT 1 FROM mnemo_journal_rows mine WHERE mine.change_id = ? AND mine.key = r.key)
         ORDER BY r.change_id`,
      )
        .pluck()
        .all(sinceSeq, changeId, changeId) as number[];
    },
    markUndone(changeId, now) {
      const seq = (statementOf(store, 'SELECT coalesce(max(id), 0) AS n FROM mnemo_journal').get() as { n: number }).n;
      const order = (statementOf(store, 'SELECT coalesce(max(undo_order), 0) + 1 AS n FROM mnemo_journal').get() as { n: number }).n;
      statementOf(store, "UPDATE mnemo_journal SET state = 'undone', undone_at = ?, undone_seq = ?, undo_order = ? WHERE id = ?").run(now, seq, order, changeId);
    },
    lastUndoneId() {
      const row = statementOf(store, "SELECT id FROM mnemo_journal WHERE state = 'undone' ORDER BY undo_order DESC LIMIT 1").get() as { id: number } | undefined;
      return row?.id ?? null;
    },
    undoneSeq(changeId) {
      return (statementOf(store, 'SELECT undone_seq FROM mnemo_journal WHERE id = ?').get(changeId) as { undone_seq: number | null }).undone_seq;
    },
    markRedone(changeId) {
      statementOf(store, "UPDATE mnemo_journal SET state = 'applied', undone_at = NULL, undone_seq = NULL, undo_order = NULL WHERE id = ?").run(changeId);
    },
    dependentIds: (changeId) => dependentChangeIds(store, changeId),
    ownersTouched: (changeIds) => ownersTouched(store, changeIds),
    attributeFeedTo: (changeId) => attributeFeedTo(store, changeId),
    moveAfter(changeId, rows) {
      const move = statementOf(store, 'UPDATE mnemo_journal_rows SET after = ? WHERE change_id = ? AND key = ?');
      for (const r of rows) move.run(r.after, changeId, r.key);
    },
    dropRow(changeId, key) {
      statementOf(store, 'DELETE FROM mnemo_journal_rows WHERE change_id = ? AND key = ?').run(changeId, key);
    },
    deleteChange(changeId) {
      statementOf(store, 'DELETE FROM mnemo_journal WHERE id = ?').run(changeId);
    },
    closeChange(changeId, counts, meta) {
      statementOf(store, 'UPDATE mnemo_journal SET counts = ?, meta = ? WHERE id = ?').run(counts, meta, changeId);
    },
    rowsPast(changeId, direction, cursor, limit) {
      const sql =
        direction === 'down'
          ? 'SELECT rowid, key, before, after FROM mnemo_journal_rows WHERE change_id = ? AND rowid < ? ORDER BY rowid DESC LIMIT ?'
          : 'SELECT rowid, key, before, after FROM mnemo_journal_rows WHERE change_id = ? AND rowid > ? ORDER BY rowid LIMIT ?';
      return statementOf(store, sql).all(changeId, cursor, limit) as (RawChangeRow & { rowid: number })[];
    },
    dropRowId(rowid) {
      statementOf(store, 'DELETE FROM mnemo_journal_rows WHERE rowid = ?').run(rowid);
    },
    deleteMeta(key) {
      statementOf(store, 'DELETE FROM mnemo_meta WHERE key = ?').run(key);
    },
    // One writer at a time: what the checks read cannot change before the transaction ends.
    lockChanges() {},
    lockTouched() {},
    lockKey() {},
    claimMeta(key, value) {
      return statementOf(store, 'INSERT INTO mnemo_meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING').run(key, value).changes === 1;
    },
    runCheckpoints: () => walCheckpoints(store),
  };
}

/**
 * A long run's WAL checkpoints: SQLite would otherwise copy the WAL back inside a COMMIT each time
 * it passes 1,000 pages, which with a long change's large journal images was most commits, and the
 * run held the thread there instead of pausing. So the automatic copy is off during the run and the
 * pauses make it (change-run.ts, Pacer). None for an in-memory or read-only store.
 */
function walCheckpoints(store: StoreHandle): RunCheckpoints | null {
  if (store.path === ':memory:' || store.readonly) return null;
  let saved: number | null = null;
  return {
    suspend() {
      saved = connectionOf(store).pragma('wal_autocheckpoint', { simple: true }) as number;
      connectionOf(store).pragma('wal_autocheckpoint = 0');
    },
    checkpoint() {
      connectionOf(store).pragma('wal_checkpoint(PASSIVE)');
    },
    resume() {
      if (saved === null || store.isClosed) return;
      connectionOf(store).pragma(`wal_autocheckpoint = ${saved}`);
      saved = null;
    },
  };
}
