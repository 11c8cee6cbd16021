/**
 * The Fleet view's rows per owner on PostgreSQL (owner-summaries.ts is SQLite's and holds the
 * statements and the fold both adapters share): the same statements, numbered, on this store's
 * tables; bigint counts turned back into numbers.
 */
import { foldOwnerSummaries, ownerSummarySql, type OwnerGroups, type OwnerSummaries } from '../sqlite/owner-summaries.js';
import { intOf, numbered } from './pg-sql.js';
import type { PgStoreConnection } from './pg-store-connection.js';

export function pgOwnerSummaries(conn: PgStoreConnection, limit: number): OwnerSummaries {
  const q = (sql: string, params: readonly unknown[]) => conn.db().query<Record<string, unknown>>(numbered(sql), params);
  const table = (name: string) => conn.table(name);
  const [first] = q(ownerSummarySql(table, false).firstLeftOut, [limit]);
  const bound = first ? (first['owner'] as string) : null;
  const sql = ownerSummarySql(table, bound !== null);
  const at = bound === null ? [] : [bound];
  const groups: OwnerGroups = {
    memories: q(sql.memories, at).map((r) => ({
      owner: r['owner'] as string,
      type: r['type'] as string,
      archived: Number(r['archived']),
      n: intOf(r['n'], 'count(*)'),
      last_created: r['last_created'] as number,
    })),
    edges: q(sql.edges, at).map((r) => ({ owner: r['owner'] as string, n: intOf(r['n'], 'count(*)') })),
    events: q(sql.events, [...at, ...at]).map((r) => ({
      memory_owner: r['memory_owner'] as string,
      reader_owner: r['reader_owner'] as string,
      n: intOf(r['n'], 'count(*)'),
      last_ts: r['last_ts'] as number,
    })),
  };
  return foldOwnerSummaries(groups, bound, limit);
}
