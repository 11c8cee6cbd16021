/**
 * The access events of sessions, oldest first, streamed: what `mnemo tune log` and the Scorer lab's
 * "used later" labels read to pair each recall with the dereferences and reinforcements that
 * followed it in the same session. Only the columns the pairing needs, read in table order and
 * sorted by SQLite: on the 100k demo store (918k session events) that takes about 5 s, against
 * 14 s walking the `ts` index (a random row fetch per event) and 44 s decoding whole events.
 */
import { connectionOf } from './connection.js';
import { hasEventTable } from './access-events.js';
import { jsonField } from '../shared/json-sql.js';
import { hasMigration } from './migrations.js';
import type { SessionEvent } from '../port/event-rows.js';

export function* sessionAccessEvents(store: object, channels: readonly string[]): Generator<SessionEvent> {
  const db = connectionOf(store);
  if (!hasEventTable(db) || channels.length === 0) return;
  const owner = hasMigration(db, '003-access-context') ? jsonField('context', '$.owner') : 'NULL';
  yield* db
    .prepare(
      `SELECT id AS event_id, ts, channel, reader_owner, session_ref, query, memory_id, ${owner} AS owner
       FROM mnemo_access_events NOT INDEXED
       WHERE session_ref IS NOT NULL AND session_ref != '' AND channel IN (${channels.map(() => '?').join(',')}) ORDER BY ts, id`,
    )
    .iterate(...channels) as Iterable<SessionEvent>;
}
