/**
 * The journal's statements for a connection that may not touch the journal's tables: an agent's
 * database role (pg-grant.ts). Such a role writes its changes through the functions of
 * pg-agent-journal-ddl.ts, which check every image's owner; it reads nothing of the journal, so
 * listing, undoing and redoing changes are an operator's (refused here with a typed error, before
 * anything is written). A role that may read the journal but not write it (a viewer an operator
 * granted SELECT) still reads it; only what writes is refused.
 *
 * A change is handed over whole: the journal asks for its id first (insertChange), then stamps the
 * change feed (attributeFeedTo), then gives its rows (insertRows). The id is drawn from the
 * journal's own sequence at once, so it orders among everyone's changes as an operator's would,
 * and the change is written, checked, with its rows.
 *
 * Which statements a connection gets is decided at its first journalled write, by whether the
 * connected role may insert into the journal: operators (the tables' owner, superusers, roles
 * granted the tables) keep pgJournalSql unchanged.
 */
import { MnemoError } from '../../errors.js';
import type { JournalSql } from '../shared/journal.js';
import { AGENT_FEED_ATTRIBUTE, AGENT_JOURNAL_WRITE } from './pg-agent-journal-ddl.js';
import { intOf } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';

type PendingChange = Parameters<JournalSql['insertChange']>[0] & { id: number };

function operatorsOnly(what: string): MnemoError {
  return new MnemoError('permission', `an agent's database role cannot ${what}: the journal is read and undone by an operator (the role that owns the store, or one granted its tables)`, {
    operation: what,
  });
}

/**
 * The journal's statements for a role that may not write the journal, over the operator's (kept
 * for what such a role may do: shared meta, and reads when `canRead`).
 */
export function agentJournalSql(conn: PgStoreConnection, operator: JournalSql, canRead: boolean): JournalSql {
  const q = (sql: string, params: readonly unknown[] = []) => conn.db().query(sql, params);
  let pending: PendingChange | null = null;
  const refuse = (what: string) => () => {
    throw operatorsOnly(what);
  };
  const read = <K extends keyof JournalSql>(name: K, what: string): JournalSql[K] => (canRead ? operator[name] : (refuse(what) as JournalSql[K]));
  return {
    insertChange(c) {
      const [r] = q(`SELECT nextval(pg_get_serial_sequence($1, 'id')) AS id`, [conn.table('mnemo_journal')]);
      pending = { ...c, id: intOf(r!['id'], 'mnemo_journal.id') };
      return pending.id;
    },
    insertRows(changeId, rows) {
      const change = pending;
      pending = null;
      // A change written in batches (change-run.ts) hands over rows more than once: not through this door.
      if (change === null || change.id !== changeId) throw operatorsOnly('write a change in batches');
      q(`SELECT ${conn.table(AGENT_JOURNAL_WRITE)}($1, $2, $3, $4, $5, $6, $7, $8::text[], $9::text[], $10::text[])`, [
        change.id,
        change.ts,
        change.label,
        change.kind,
        change.counts,
        change.meta,
        change.credentialId,
        rows.map((r) => r.key),
        rows.map((r) => r.before),
        rows.map((r) => r.after),
      ]);
    },
    attributeFeedTo(changeId) {
      q(`SELECT ${conn.table(AGENT_FEED_ATTRIBUTE)}($1)`, [changeId]);
      q(`SELECT set_config('mnemo.change_id', $1, true)`, [String(changeId)]);
    },
    history: read('history', 'list the journal'),
    summary: read('summary', 'read the journal'),
    rows: read('rows', 'read the journal'),
    blockerIds: read('blockerIds', 'undo or redo a change'),
    markUndone: refuse('undo a change'),
    lastUndoneId: read('lastUndoneId', 'redo a change'),
    undoneSeq: read('undoneSeq', 'redo a change'),
    markRedone: refuse('redo a change'),
    dependentIds: read('dependentIds', 'undo a change'),
    ownersTouched: read('ownersTouched', 'undo a change'),
    moveAfter: refuse('write a change in batches'),
    dropRow: refuse('write a change in batches'),
    deleteChange: refuse('write a change in batches'),
    closeChange: refuse('write a change in batches'),
    rowsPast: read('rowsPast', 'undo or redo a change in batches'),
    dropRowId: refuse('undo or redo a change in batches'),
    lockChanges: refuse('undo or redo a change'),
    lockTouched: refuse('undo or redo a change'),
    // An advisory lock needs no privilege on the row's table: an agent's change takes it as the operator's does.
    lockKey: (key) => operator.lockKey(key),
    // A run's marker is an operator's (pg-run-markers.ts): a long change (a reflection apply) is
    // refused here, before its first batch writes anything.
    claimMeta: refuse('write a change in batches'),
    deleteMeta: refuse('write a change in batches'),
    runCheckpoints: () => operator.runCheckpoints(),
  };
}

/** Whether the connected role may write the journal (an operator), or must go through the agents' door. */
export function mayWriteJournal(conn: PgStoreConnection): boolean {
  const [r] = conn.db().query(`SELECT has_table_privilege($1, 'INSERT') AS can_write`, [conn.table('mnemo_journal')]);
  return r!['can_write'] === true;
}

/**
 * The journal's statements for this connection: the operator's, or (for a role that may not
 * insert into the journal, such as an agent's) agentJournalSql. Decided once, at the first statement.
 */
export function pgJournalSqlFor(conn: PgStoreConnection, operator: JournalSql): JournalSql {
  let chosen: JournalSql | null = null;
  const pick = (): JournalSql => {
    if (chosen) return chosen;
    const [r] = conn.db().query(`SELECT has_table_privilege($1, 'INSERT') AS can_write, has_table_privilege($1, 'SELECT') AS can_read`, [conn.table('mnemo_journal')]);
    chosen = r!['can_write'] === true ? operator : agentJournalSql(conn, operator, r!['can_read'] === true);
    return chosen;
  };
  // Every member is a function: each call goes to the statements chosen for this connection.
  return new Proxy(operator, {
    get: (_target, name) => {
      const sql = pick();
      const member: unknown = Reflect.get(sql, name);
      return typeof member === 'function' ? (member as (...args: unknown[]) => unknown).bind(sql) : member;
    },
  });
}
