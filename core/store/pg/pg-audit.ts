/**
 * The access log's audit reads on PostgreSQL (access-queries.ts and logged-recalls.ts are
 * SQLite's): the audit view's filtered events joined to the memory each read, and the logged
 * recalls the Scorer lab uses as a query set. Same filters, orders and shapes; the query text is
 * matched as SQLite's LIKE (ILIKE on byte-order text), and JSON fields (a memory's title, a
 * recall's owner scope) are read in JS (pg-json.ts).
 */
import type { AuditFilter } from '../port/event-rows.js';
import { auditWhere } from '../shared/audit-filter.js';
import { rowToEvent } from '../sqlite/access-events.js';
import { byBytes } from '../shared/byte-order.js';
import { eventColumns, eventRow } from './pg-access-events.js';
import { documentOf } from '../shared/json-fields.js';
import { intOf, numbered } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';
import type { AuditEvent, LoggedRecall } from '../port/event-rows.js';

const RECALL_CHANNELS = "('recalled', 'searched')";

/** The role part of an owner (`coder` of `coder@1`), as access-queries.ts computes it. */
const role = (col: string) => `(CASE WHEN strpos(${col}, '@') > 0 THEN substr(${col}, 1, strpos(${col}, '@') - 1) ELSE ${col} END)`;


export class PgAudit {
  constructor(private readonly conn: PgStoreConnection) {}

  private q(sql: string, params: readonly unknown[] = []): Record<string, unknown>[] {
    return this.conn.read().query(sql, params);
  }

  private get events(): string {
    return this.conn.table('mnemo_access_events');
  }

  auditEvents(f: AuditFilter): { total: number; events: AuditEvent[] } {
    const { where, params } = auditWhere(f, { role, like: 'ILIKE', hasCredentialColumn: true });
    const w = where.length ? numbered(`WHERE ${where.join(' AND ')}`) : '';
    const from = `FROM ${this.events} e LEFT JOIN ${this.conn.table('memories')} m ON m.id = e.memory_id`;
    const total = intOf(this.q(`SELECT count(*) AS n ${from} ${w}`, params)[0]!['n'], 'count(*)');
    const dir = f.order === 'asc' ? 'ASC' : 'DESC';
    const n = params.length;
    const rows = this.q(
      `SELECT ${eventColumns('e')}, m.owner AS memory_owner, m.type AS memory_type, m.data AS memory_data, substr(m.content, 1, 400) AS memory_content
       ${from} ${w} ORDER BY e.ts ${dir}, e.id ${dir} LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...params, f.limit ?? 100, f.offset ?? 0],
    );
    return {
      total,
      events: rows.map((r) => {
        const title = documentOf(r['memory_data'] as string | null)?.['title'];
        return {
          ...rowToEvent(eventRow(r)),
          memory_owner: r['memory_owner'] as string | null,
          memory_type: r['memory_type'] as string | null,
          title: typeof title === 'string' ? title : null,
          content: r['memory_content'] as string | null,
        };
      }),
    };
  }

  /** Distinct logged recall queries, most recent first; each one's scope is the largest owner its recalls' contexts name. */
  loggedRecalls(limit: number): LoggedRecall[] {
    const groups = this.q(
      `SELECT query, reader_owner, count(*) AS accesses, min(ts) AS first_ts, max(ts) AS last_ts FROM ${this.events}
       WHERE channel IN ${RECALL_CHANNELS} AND query IS NOT NULL AND query != ''
       GROUP BY query, reader_owner ORDER BY last_ts DESC LIMIT $1`,
      [limit],
    );
    if (groups.length === 0) return [];
    const scopes = new Map<string, string>();
    const keyOf = (query: string, reader: string) => JSON.stringify([query, reader]);
    const contexts = this.q(
      `SELECT query, reader_owner, context FROM ${this.events}
       WHERE channel IN ${RECALL_CHANNELS} AND context IS NOT NULL AND (query, reader_owner) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
      [groups.map((g) => g['query']), groups.map((g) => g['reader_owner'])],
    );
    for (const c of contexts) {
      const owner = documentOf(c['context'] as string)?.['owner'];
      if (typeof owner !== 'string') continue;
      const key = keyOf(c['query'] as string, c['reader_owner'] as string);
      const seen = scopes.get(key);
      if (seen === undefined || byBytes(owner, seen) > 0) scopes.set(key, owner);
    }
    return groups.map((g) => ({
      query: g['query'] as string,
      reader_owner: g['reader_owner'] as string,
      scope: scopes.get(keyOf(g['query'] as string, g['reader_owner'] as string)) ?? null,
      accesses: intOf(g['accesses'], 'count(*)'),
      first_ts: g['first_ts'] as number,
      last_ts: g['last_ts'] as number,
    }));
  }
}
