/**
 * The journal's tables on PostgreSQL (sqlite-journal-sql.ts is SQLite's): the statements behind
 * the journal's JournalSql interface, so undo, redo, dependents and the owner check of an undo run
 * the same logic (journal.ts) on either backend. The images stay JSON text, byte for byte what the
 * journal wrote, so a journal copied between backends undoes the same.
 *
 * Attributing the change feed's rows to a change (pg-feed-ddl.ts) stamps the rows this transaction
 * wrote that name no change yet (the journal learns a change's id once its rows are written), and
 * sets `mnemo.change_id` for the rest of the transaction, which the triggers stamp later rows with.
 */
import { byBytes } from '../shared/byte-order.js';
import type { JournalSql, RawChangeRow, RawSummary } from '../shared/journal.js';
import { PG_FEED_TABLE } from './pg-feed-ddl.js';
import { pgJournalGuards } from './pg-journal-guards.js';
import { deletePgMeta } from './pg-meta.js';
import { intOf, intOrNull, jsonTexts, jsonTextsParam } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';

function summaryOf(r: Record<string, unknown>): RawSummary {
  return {
    id: intOf(r['id'], 'mnemo_journal.id'),
    ts: r['ts'] as number,
    label: r['label'] as string,
    kind: r['kind'] as string,
    counts: r['counts'] as string,
    state: r['state'] as RawSummary['state'],
    undone_at: r['undone_at'] as number | null,
    meta: r['meta'] as string | null,
    rows: intOf(r['rows'], 'count(*)'),
    credential_id: r['credential_id'] as string | null,
  };
}

/** Owners an image records: a memory's row owner, a tombstone's owner. */
function ownerIn(key: string, image: string | null): string | null {
  if (image === null) return null;
  const v = JSON.parse(image) as { row?: { owner?: unknown }; owner?: unknown };
  const owner = key.startsWith('m:') ? v.row?.owner : v.owner;
  return typeof owner === 'string' ? owner : null;
}

export function pgJournalSql(conn: PgStoreConnection): JournalSql {
  const q = (sql: string, params: readonly unknown[] = []) => conn.db().query(sql, params);
  const journal = () => conn.table('mnemo_journal');
  const rowsTable = () => conn.table('mnemo_journal_rows');
  const summarySql = (where: string, tail: string) =>
    `SELECT j.id, j.ts, j.label, j.kind, j.counts, j.state, j.undone_at, j.meta, j.credential_id,
            (SELECT count(*) FROM ${rowsTable()} r WHERE r.change_id = j.id) AS rows
     FROM ${journal()} j ${where}${tail}`;
  const ids = (rows: Record<string, unknown>[], column: string) => rows.map((r) => intOf(r[column], column));
  const { lockUndoOrder, ...guards } = pgJournalGuards(conn);
  return {
    ...guards,
    insertChange(c) {
      const [r] = q(`INSERT INTO ${journal()}(ts, label, kind, counts, state, meta, credential_id) VALUES ($1, $2, $3, $4, 'applied', $5, $6) RETURNING id`, [
        c.ts,
        c.label,
        c.kind,
        c.counts,
        c.meta,
        c.credentialId,
      ]);
      return intOf(r!['id'], 'mnemo_journal.id');
    },
    insertRows(changeId, rows) {
      if (rows.length === 0) return;
      // Nothing reads its result: it goes with the transaction's next statement (pg-store-connection.ts, later).
      // One row (a remember, an edit) as plain parameters: the worker's escaping of a big image into an array literal costs more than the statement.
      if (rows.length === 1) {
        const [r] = rows;
        conn.later(`INSERT INTO ${rowsTable()}(change_id, key, before, after) VALUES ($1, $2, $3, $4)`, [changeId, r!.key, r!.before, r!.after]);
        return;
      }
      // One statement; rowids in the rows' order, which rows() reads them back in.
      conn.later(
        `INSERT INTO ${rowsTable()}(change_id, key, before, after)
         SELECT $1, key, before, after FROM ${jsonTexts(['$2', '$3', '$4'], 'r', ['key', 'before', 'after'])} ORDER BY n`,
        [changeId, jsonTextsParam(rows.map((r) => r.key)), jsonTextsParam(rows.map((r) => r.before)), jsonTextsParam(rows.map((r) => r.after))],
      );
    },
    history(limit, offset, credentialId) {
      const where = credentialId === undefined ? '' : credentialId === null ? 'WHERE j.credential_id IS NULL' : 'WHERE j.credential_id = $3';
      const params = credentialId === undefined || credentialId === null ? [limit, offset] : [limit, offset, credentialId];
      return q(summarySql(where, ' ORDER BY j.id DESC LIMIT $1 OFFSET $2'), params).map(summaryOf);
    },
    summary(changeId) {
      const [r] = q(summarySql('WHERE j.id = $1', ''), [changeId]);
      return r ? summaryOf(r) : null;
    },
    rows(changeId) {
      return q(`SELECT key, before, after FROM ${rowsTable()} WHERE change_id = $1 ORDER BY rowid`, [changeId]) as unknown as RawChangeRow[];
    },
    blockerIds(changeId, sinceSeq) {
      return ids(
        q(
          `SELECT DISTINCT r.change_id FROM ${rowsTable()} r JOIN ${journal()} j ON j.id = r.change_id
           WHERE r.change_id > $1 AND r.change_id != $2 AND j.state = 'applied'
             AND EXISTS (SELECT 1 FROM ${rowsTable()} mine WHERE mine.change_id = $2 AND mine.key = r.key)
           ORDER BY r.change_id`,
          [sinceSeq, changeId],
        ),
        'change_id',
      );
    },
    markUndone(changeId, now) {
      lockUndoOrder();
      q(
        `UPDATE ${journal()} SET state = 'undone', undone_at = $1,
           undone_seq = (SELECT coalesce(max(id), 0) FROM ${journal()}),
           undo_order = (SELECT coalesce(max(undo_order), 0) + 1 FROM ${journal()})
         WHERE id = $2`,
        [now, changeId],
      );
    },
    lastUndoneId() {
      const [r] = q(`SELECT id FROM ${journal()} WHERE state = 'undone' ORDER BY undo_order DESC LIMIT 1`);
      return r ? intOf(r['id'], 'mnemo_journal.id') : null;
    },
    undoneSeq(changeId) {
      const [r] = q(`SELECT undone_seq FROM ${journal()} WHERE id = $1`, [changeId]);
      return intOrNull(r?.['undone_seq'], 'mnemo_journal.undone_seq');
    },
    markRedone(changeId) {
      q(`UPDATE ${journal()} SET state = 'applied', undone_at = NULL, undone_seq = NULL, undo_order = NULL WHERE id = $1`, [changeId]);
    },
    dependentIds(changeId) {
      // journal-dependents.ts states the rule; the same recursive query.
      return ids(
        q(
          `WITH RECURSIVE dep(id) AS (
             SELECT $1::bigint
             UNION
             SELECT later.change_id
               FROM dep
               JOIN ${rowsTable()} mine ON mine.change_id = dep.id
               JOIN ${rowsTable()} later ON later.key = mine.key AND later.change_id > dep.id
               JOIN ${journal()} j ON j.id = later.change_id AND j.state = 'applied'
           )
           SELECT id FROM dep WHERE id != $1 ORDER BY id DESC`,
          [changeId],
        ),
        'id',
      );
    },
    ownersTouched(changeIds) {
      const rows = q(`SELECT key, before, after FROM ${rowsTable()} WHERE change_id = ANY($1::bigint[]) AND (substr(key, 1, 2) = 'm:' OR substr(key, 1, 2) = 't:')`, [changeIds]);
      const owners = new Set<string>();
      for (const r of rows) {
        const key = r['key'] as string;
        const before = r['before'] as string | null;
        const after = r['after'] as string | null;
        // A memory's owner before and after the change; a tombstone's as it stood (either image).
        const found = key.startsWith('m:') ? [ownerIn(key, before), ownerIn(key, after)] : [ownerIn(key, before ?? after)];
        for (const o of found) if (o !== null) owners.add(o);
      }
      return [...owners].sort(byBytes);
    },
    attributeFeedTo(changeId) {
      // Nothing reads it: deferred, as one text (the id is an integer, written as a literal), so one statement to the server.
      const id = String(Math.trunc(changeId));
      conn.later(
        `UPDATE ${conn.table(PG_FEED_TABLE)} SET change_id = ${id} WHERE xid = pg_current_xact_id() AND change_id IS NULL; SELECT set_config('mnemo.change_id', '${id}', true)`,
      );
    },
    moveAfter(changeId, rows) {
      if (rows.length === 0) return;
      conn.later(`UPDATE ${rowsTable()} AS r SET after = m.after FROM ${jsonTexts(['$2', '$3'], 'm', ['key', 'after'])} WHERE r.change_id = $1 AND r.key = m.key`, [
        changeId,
        jsonTextsParam(rows.map((m) => m.key)),
        jsonTextsParam(rows.map((m) => m.after)),
      ]);
    },
    dropRow(changeId, key) {
      q(`DELETE FROM ${rowsTable()} WHERE change_id = $1 AND key = $2`, [changeId, key]);
    },
    deleteChange(changeId) {
      q(`DELETE FROM ${journal()} WHERE id = $1`, [changeId]);
    },
    closeChange(changeId, counts, meta) {
      q(`UPDATE ${journal()} SET counts = $1, meta = $2 WHERE id = $3`, [counts, meta, changeId]);
    },
    rowsPast(changeId, direction, cursor, limit) {
      const [op, order] = direction === 'down' ? ['<', 'DESC'] : ['>', 'ASC'];
      return q(`SELECT rowid, key, before, after FROM ${rowsTable()} WHERE change_id = $1 AND rowid ${op} $2 ORDER BY rowid ${order} LIMIT $3`, [changeId, cursor, limit]).map((r) => ({
        rowid: intOf(r['rowid'], 'mnemo_journal_rows.rowid'),
        key: r['key'] as string,
        before: r['before'] as string | null,
        after: r['after'] as string | null,
      }));
    },
    dropRowId(rowid) {
      q(`DELETE FROM ${rowsTable()} WHERE rowid = $1`, [rowid]);
    },
    deleteMeta: (key) => deletePgMeta(conn, key),
    // PostgreSQL's checkpoints are the server's; a run only pauses.
    runCheckpoints: () => null,
  };
}
