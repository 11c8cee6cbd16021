/**
 * Audit queries over the uncapped access-event table, joined to the memory each access read
 * (its current owner, type and head), with the filters the Access audit view offers.
 */
import { connectionOf } from './connection.js';
import { hasEventTable, rowToEvent, type AccessEvent } from './access-events.js';
import { hasMigration } from './migrations.js';
import type { RowSource } from '../shared/store-handle.js';
import { jsonField } from './json-sql.js';
import { auditWhere, type AuditFilter } from '../shared/audit-filter.js';

export type { AuditFilter } from '../shared/audit-filter.js';

export interface AuditEvent extends AccessEvent {
  memory_owner: string | null;
  memory_type: string | null;
  title: string | null;
  content: string | null;
}

const role = (col: string) => `(CASE WHEN instr(${col}, '@') > 0 THEN substr(${col}, 1, instr(${col}, '@') - 1) ELSE ${col} END)`;

export function auditEvents(store: RowSource, f: AuditFilter): { total: number; events: AuditEvent[] } | null {
  if (!hasEventTable(connectionOf(store))) return null;
  const { where, params } = auditWhere(f, {
    role,
    like: 'LIKE',
    // A store opened read-only keeps its older schema: without the column, every access was local.
    hasCredentialColumn: hasMigration(connectionOf(store), '006-agent-credentials'),
  });
  const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const from = 'FROM mnemo_access_events e LEFT JOIN memories m ON m.id = e.memory_id';
  const total = (connectionOf(store).prepare(`SELECT count(*) AS n ${from} ${w}`).get(...params) as { n: number }).n;
  const dir = f.order === 'asc' ? 'ASC' : 'DESC';
  const rows = connectionOf(store)
    .prepare(
      `SELECT e.*, m.owner AS memory_owner, m.type AS memory_type, ${jsonField('m.data', '$.title')} AS title, substr(m.content, 1, 400) AS content
       ${from} ${w} ORDER BY e.ts ${dir}, e.id ${dir} LIMIT ? OFFSET ?`,
    )
    .all(...params, f.limit ?? 100, f.offset ?? 0) as (Parameters<typeof rowToEvent>[0] & { memory_owner: string | null; memory_type: string | null; title: string | null; content: string | null })[];
  return {
    total,
    events: rows.map((r) => ({ ...rowToEvent(r), memory_owner: r.memory_owner, memory_type: r.memory_type, title: typeof r.title === 'string' ? r.title : null, content: r.content })),
  };
}
