/**
 * The SQL behind "undo this and the changes that depend on it". A later change depends on change C
 * when it is still applied and touched a row C touched, or a row one of C's dependants touched
 * (transitively). Each step looks only at changes later than the one it came from: that is exactly
 * the rule by which `Journal.checkUndo` refuses, so undoing the group newest first never meets a
 * refusal, and a change that is later than C but earlier than the dependant it shares a row with
 * (it does not block that dependant's undo) is left alone.
 */
import { statementOf } from './connection.js';
import type { RowSource, StoreHandle } from '../shared/store-handle.js';

/** Ids of the still-applied changes that depend on `changeId`, newest first. */
export function dependentChangeIds(store: StoreHandle, changeId: number): number[] {
  return statementOf(store,
      `WITH RECURSIVE dep(id) AS (
         SELECT @id
         UNION
         SELECT later.change_id
           FROM dep
           JOIN mnemo_journal_rows mine ON mine.change_id = dep.id
           JOIN mnemo_journal_rows later ON later.key = mine.key AND later.change_id > dep.id
           JOIN mnemo_journal j ON j.id = later.change_id AND j.state = 'applied'
       )
       SELECT id FROM dep WHERE id != @id ORDER BY id DESC`,
    )
    .pluck()
    .all({ id: changeId }) as number[];
}

/**
 * The owners of the memories (before or after the change) and tombstones these changes touched,
 * for the owner policy of an undo. Unowned rows come back as "" (everyone may write them).
 */
export function ownersTouched(store: StoreHandle, changeIds: number[]): string[] {
  return statementOf(store,
      `SELECT DISTINCT owner FROM (
         SELECT json_extract(before, '$.row.owner') AS owner FROM mnemo_journal_rows
          WHERE change_id IN (SELECT value FROM json_each(@ids)) AND substr(key, 1, 2) = 'm:'
         UNION ALL
         SELECT json_extract(after, '$.row.owner') FROM mnemo_journal_rows
          WHERE change_id IN (SELECT value FROM json_each(@ids)) AND substr(key, 1, 2) = 'm:'
         UNION ALL
         SELECT json_extract(coalesce(before, after), '$.owner') FROM mnemo_journal_rows
          WHERE change_id IN (SELECT value FROM json_each(@ids)) AND substr(key, 1, 2) = 't:'
       ) WHERE owner IS NOT NULL ORDER BY owner`,
    )
    .pluck()
    .all({ ids: JSON.stringify(changeIds) }) as string[];
}

/** The first `limit` memories a change touched, so a list of changes can name them by title. */
export function memoriesTouched(store: RowSource, changeId: number, limit: number): string[] {
  return statementOf(store, "SELECT substr(key, 3) FROM mnemo_journal_rows WHERE change_id = ? AND substr(key, 1, 2) = 'm:' ORDER BY rowid LIMIT ?")
    .pluck()
    .all(changeId, limit) as string[];
}
