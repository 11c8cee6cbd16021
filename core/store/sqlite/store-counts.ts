/**
 * Whole-store counts for the doors that describe a store: `store.info` (rows per table and the
 * schema versions), `stats.basic` (memories per type, owner and status within an owner scope, edges
 * per type) and the fleet's per-store figures. Each is a plain count over one table; a table a
 * nooa file does not have yet counts as empty.
 */
import { connectionOf } from './connection.js';
import type { OwnerScope } from '../../model/owner.js';
import { countEvents } from './access-events.js';
import { readMnemoVersion } from './migrations.js';
import { ownerClause } from '../shared/owner-sql.js';
import type { RowSource, StoreHandle } from '../shared/store-handle.js';

export interface TableCounts {
  /** Memory rows, archived included. */
  memories: number;
  archived: number;
  edges: number;
  /** Rows of the access-event table (0 before mnemo's tables exist). */
  events: number;
  /** Journalled changes (0 before mnemo's tables exist). */
  changes: number;
}

export interface SchemaVersions {
  /** nooa's `PRAGMA user_version`. */
  nooa: number;
  /** mnemo's own schema version (0 before mnemo's tables exist). */
  mnemo: number;
}

/** Promoted columns `stats.basic` groups by. */
export type StatsColumn = 'type' | 'owner' | 'status';

export interface KeyCount {
  /** The column's value; null for a NULL status. */
  k: string | null;
  n: number;
}

const count = (source: RowSource, sql: string, ...params: unknown[]): number => (connectionOf(source).prepare(sql).get(...params) as { n: number }).n;

export function tableCounts(store: Pick<StoreHandle, 'path' | 'isClosed' | 'hasMnemo'>): TableCounts {
  return {
    memories: count(store, 'SELECT count(*) AS n FROM memories'),
    archived: count(store, 'SELECT count(*) AS n FROM memories WHERE archived = 1'),
    edges: count(store, 'SELECT count(*) AS n FROM memory_edges'),
    events: countEvents(connectionOf(store)),
    changes: store.hasMnemo() ? count(store, 'SELECT count(*) AS n FROM mnemo_journal') : 0,
  };
}

export function schemaVersions(source: RowSource): SchemaVersions {
  return { nooa: connectionOf(source).pragma('user_version', { simple: true }) as number, mnemo: readMnemoVersion(connectionOf(source)) };
}

/** Memories in the owner scope per value of `column` (archived included), most frequent first. */
export function countsByColumn(source: RowSource, column: StatsColumn, scope: OwnerScope): KeyCount[] {
  const oc = ownerClause(scope);
  return connectionOf(source).prepare(`SELECT ${column} AS k, count(*) AS n FROM memories WHERE ${oc.sql} GROUP BY ${column} ORDER BY n DESC`).all(...oc.params) as KeyCount[];
}

/** Archived memories in the owner scope. */
export function archivedCount(source: RowSource, scope: OwnerScope): number {
  const oc = ownerClause(scope);
  return count(source, `SELECT count(*) AS n FROM memories WHERE archived = 1 AND ${oc.sql}`, ...oc.params);
}

/** Edges per type (every edge, whatever its endpoints' owners), most frequent first. */
export function edgeCountsByType(source: RowSource): { k: string; n: number }[] {
  return connectionOf(source).prepare('SELECT type AS k, count(*) AS n FROM memory_edges GROUP BY type ORDER BY n DESC').all() as { k: string; n: number }[];
}

/** Rows of the access-event table (0 before it exists). */
export function accessEventCount(source: RowSource): number {
  return countEvents(connectionOf(source));
}

/** Belief dimensions (0 on a store whose belief tables do not exist yet). */
export function beliefDimensionCount(source: RowSource): number {
  const exists = connectionOf(source).prepare("SELECT 1 FROM sqlite_master WHERE type='table' AND name='mnemo_dimensions'").get() !== undefined;
  return exists ? count(source, 'SELECT count(*) AS n FROM mnemo_dimensions') : 0;
}
