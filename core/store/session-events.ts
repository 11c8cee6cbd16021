/**
 * The access events of sessions, oldest first, streamed: what `mnemo tune log` reads to pair each
 * recall with the dereferences and reinforcements that followed it in the same session. One pass
 * over the `ts` index (the audit's paged query would re-count and re-skip the table per page,
 * which at a million events costs minutes).
 */
import { connectionOf } from './connection.js';
import { hasEventTable, rowToEvent, type AccessEvent } from './access-events.js';
import type { StoreReader } from './port.js';

export function* sessionAccessEvents(store: StoreReader, channels: readonly string[]): Generator<AccessEvent> {
  const db = connectionOf(store);
  if (!hasEventTable(db) || channels.length === 0) return;
  const rows = db
    .prepare(`SELECT * FROM mnemo_access_events WHERE session_ref IS NOT NULL AND session_ref != '' AND channel IN (${channels.map(() => '?').join(',')}) ORDER BY ts, id`)
    .iterate(...channels) as Iterable<Parameters<typeof rowToEvent>[0]>;
  for (const row of rows) yield rowToEvent(row);
}

/**
 * The newest access event's id (0 when none): a cheap mark of whether the log grew, so a reader of
 * the whole session log (the Scorer lab's "used later" labels) can keep its pass until it does.
 */
export function latestAccessEventId(store: StoreReader): number {
  const db = connectionOf(store);
  if (!hasEventTable(db)) return 0;
  const row = db.prepare('SELECT MAX(id) AS id FROM mnemo_access_events').get() as { id: number | null };
  return row.id ?? 0;
}
