/**
 * The PostgreSQL adapter's reads of the session log of access events and of the newest event's id
 * (session-events.ts is SQLite's; the shapes and orders here are its).
 */
import { documentOf, fieldOf } from '../shared/json-fields.js';
import { intOf } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';
import type { SessionEvent } from '../port/event-rows.js';

const PAGE = 1000;

export class PgMemoryQueries {
  constructor(
    private readonly conn: PgStoreConnection,
    private readonly pageRows = PAGE,
  ) {}

  private q(sql: string, params: readonly unknown[] = []): Record<string, unknown>[] {
    return this.conn.read().query(sql, params);
  }

  /** Events of the given channels that carry a session, oldest first (ts, then id), a page per statement. */
  *sessionAccessEvents(channels: readonly string[]): Generator<SessionEvent> {
    if (channels.length === 0) return;
    const table = this.conn.table('mnemo_access_events');
    let after: [number, number] = [-Infinity, Number.MIN_SAFE_INTEGER];
    for (;;) {
      const rows = this.q(
        `SELECT id, ts, channel, reader_owner, session_ref, query, memory_id, context FROM ${table}
         WHERE session_ref IS NOT NULL AND session_ref != '' AND channel = ANY($1::text[]) AND (ts, id) > ($2, $3)
         ORDER BY ts, id LIMIT $4`,
        [channels, after[0], after[1], this.pageRows],
      );
      for (const r of rows) {
        yield {
          event_id: intOf(r['id'], 'mnemo_access_events.id'),
          ts: r['ts'] as number,
          channel: r['channel'] as string,
          reader_owner: r['reader_owner'] as string,
          session_ref: r['session_ref'] as string,
          query: r['query'] as string | null,
          memory_id: r['memory_id'] as string,
          owner: fieldOf(documentOf(r['context'] as string | null), 'owner'),
        };
      }
      if (rows.length < this.pageRows) return;
      const last = rows[rows.length - 1]!;
      after = [last['ts'] as number, intOf(last['id'], 'mnemo_access_events.id')];
    }
  }
}
