/**
 * The PostgreSQL adapter's lighter whole-table reads: owner states (recall's owner and status
 * gate), review heads, near-duplicate candidates and titles, usage records, the session log of
 * access events, and the memories a change touched.
 * The SQLite adapter's are recall-reads.ts, review-heads.ts, duplicate-rows.ts and
 * session-events.ts, usage-rows.ts; the shapes and orders here are theirs.
 */
import type { DuplicateCandidateRow } from '../sqlite/duplicate-rows.js';
import type { OwnerState } from '../sqlite/recall-reads.js';
import type { MemoryHead } from '../sqlite/review-heads.js';
import type { SessionEvent } from '../sqlite/session-events.js';
import type { OwnerScope } from '../../model/owner.js';
import { ownerClause } from '../shared/owner-sql.js';
import { toUsage, USAGE_COLUMNS, type UsageRecord, type UsageRow } from '../sqlite/usage-rows.js';
import { documentOf, fieldOf } from './pg-json.js';
import { intOf, numbered } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';

/** Characters of content kept per review head (review-heads.ts). */
const CONTENT_PREFIX = 300;
const PAGE = 1000;
const DUPLICATE_COLS = 'id, type, owner, created_at, strength, archived, content';

function duplicateRow(r: Record<string, unknown>): DuplicateCandidateRow {
  return {
    id: r['id'] as string,
    type: r['type'] as string,
    owner: r['owner'] as string,
    created_at: r['created_at'] as number,
    strength: intOf(r['strength'], 'memories.strength'),
    archived: intOf(r['archived'], 'memories.archived'),
    content: r['content'] as string,
  };
}

function usageRow(r: Record<string, unknown>): UsageRow {
  return { ...(r as unknown as UsageRow), archived: intOf(r['archived'], 'memories.archived'), strength: intOf(r['strength'], 'memories.strength') };
}

export class PgMemoryQueries {
  constructor(
    private readonly conn: PgStoreConnection,
    private readonly pageRows = PAGE,
  ) {}

  private q(sql: string, params: readonly unknown[] = []): Record<string, unknown>[] {
    return this.conn.db().query(sql, params);
  }

  private get memories(): string {
    return this.conn.table('memories');
  }

  ownerStates(ids: readonly string[]): Map<string, OwnerState> {
    const out = new Map<string, OwnerState>();
    const unique = [...new Set(ids)];
    if (unique.length === 0) return out;
    for (const r of this.q(`SELECT id, owner, archived FROM ${this.memories} WHERE id = ANY($1::text[])`, [unique])) {
      out.set(r['id'] as string, { owner: r['owner'] as string, archived: intOf(r['archived'], 'memories.archived') !== 0 });
    }
    return out;
  }

  /** Every memory's head, a page per statement; the title read from `data` (pg-json.ts), the content's start by PostgreSQL (characters, as SQLite's substr). */
  memoryHeads(): Map<string, MemoryHead> {
    const out = new Map<string, MemoryHead>();
    let after = Number.MIN_SAFE_INTEGER;
    for (;;) {
      const rows = this.q(`SELECT rowid, id, type, owner, data, substr(content, 1, $3) AS content FROM ${this.memories} WHERE rowid > $1 ORDER BY rowid LIMIT $2`, [after, this.pageRows, CONTENT_PREFIX]);
      for (const r of rows) {
        const title = documentOf(r['data'] as string)?.['title'];
        out.set(r['id'] as string, { type: r['type'] as string, owner: (r['owner'] as string | null) ?? '', title: typeof title === 'string' ? title : null, content: (r['content'] as string | null) ?? '' });
      }
      if (rows.length < this.pageRows) return out;
      after = intOf(rows[rows.length - 1]!['rowid'], 'memories.rowid');
    }
  }

  *liveDuplicateCandidates(): Iterable<DuplicateCandidateRow> {
    let after = Number.MIN_SAFE_INTEGER;
    for (;;) {
      const rows = this.q(`SELECT rowid, ${DUPLICATE_COLS} FROM ${this.memories} WHERE archived = 0 AND rowid > $1 ORDER BY rowid LIMIT $2`, [after, this.pageRows]);
      for (const r of rows) yield duplicateRow(r);
      if (rows.length < this.pageRows) return;
      after = intOf(rows[rows.length - 1]!['rowid'], 'memories.rowid');
    }
  }

  duplicateCandidate(id: string): DuplicateCandidateRow | undefined {
    const [r] = this.q(`SELECT ${DUPLICATE_COLS} FROM ${this.memories} WHERE id = $1`, [id]);
    return r ? duplicateRow(r) : undefined;
  }

  titlesOf(ids: string[]): Map<string, string | null> {
    if (ids.length === 0) return new Map();
    const rows = this.q(`SELECT id, data FROM ${this.memories} WHERE id = ANY($1::text[])`, [ids]);
    return new Map(rows.map((r) => [r['id'] as string, fieldOf(documentOf(r['data'] as string), 'title')]));
  }

  /** Each memory's usage record in rowid order (usage-rows.ts decodes it), a page per statement. */
  *iterUsageRecords(scope: { owner?: OwnerScope; includeArchived?: boolean } = {}): Generator<UsageRecord> {
    const oc = ownerClause(scope.owner ?? null);
    const where = [scope.includeArchived ? 'TRUE' : 'archived = 0', oc.sql === '1' ? 'TRUE' : numbered(oc.sql, 3)].join(' AND ');
    let after = Number.MIN_SAFE_INTEGER;
    for (;;) {
      const rows = this.q(`SELECT rowid, ${USAGE_COLUMNS} FROM ${this.memories} WHERE ${where} AND rowid > $1 ORDER BY rowid LIMIT $2`, [after, this.pageRows, ...oc.params]);
      for (const r of rows) yield toUsage(usageRow(r));
      if (rows.length < this.pageRows) return;
      after = intOf(rows[rows.length - 1]!['rowid'], 'memories.rowid');
    }
  }

  usageRecords(ids: readonly string[]): Map<string, UsageRecord> {
    const out = new Map<string, UsageRecord>();
    const unique = [...new Set(ids)];
    if (unique.length === 0) return out;
    for (const r of this.q(`SELECT ${USAGE_COLUMNS} FROM ${this.memories} WHERE id = ANY($1::text[])`, [unique])) out.set(r['id'] as string, toUsage(usageRow(r)));
    return out;
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

  /** Up to `limit` ids of memories a change wrote, in the order the journal recorded them. */
  memoriesTouched(changeId: number, limit: number): string[] {
    return this.q(`SELECT substr(key, 3) AS id FROM ${this.conn.table('mnemo_journal_rows')} WHERE change_id = $1 AND substr(key, 1, 2) = 'm:' ORDER BY rowid LIMIT $2`, [changeId, limit]).map(
      (r) => r['id'] as string,
    );
  }

  latestAccessEventId(): number {
    const [r] = this.q(`SELECT max(id) AS id FROM ${this.conn.table('mnemo_access_events')}`);
    return r?.['id'] === null || r?.['id'] === undefined ? 0 : intOf(r['id'], 'max(id)');
  }
}
