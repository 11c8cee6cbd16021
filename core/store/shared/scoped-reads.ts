/**
 * A store's reads over a list scope (port.ts ListScope: archived or not, an owner): each memory in
 * it in rowid order, nooa's iteration order, which both adapters share (each one's memory rows
 * module runs the condition, `?` placeholders); and how many memories it holds and whether it holds
 * any, one statement each over the port's SQL seam (port/store-sql.ts), which the engine reaches
 * through queries/memory-lookups.ts and the derived indexes here.
 */
import type { Edge, Memory } from '../../model/memory.js';
import type { MemoryRow } from '../port/codec.js';
import { ownerClause } from './owner-sql.js';
import type { ListScope, StoreReader } from '../port/port.js';
import { intOf } from './sql-values.js';
import { query } from './store-query.js';

/** The statements over a condition on memories' columns, written with `?` placeholders. */
export interface ScopedRows {
  /** Rows matching after rowid `after`, in rowid order, at most `batch`. */
  page(where: string, params: readonly unknown[], after: number, batch: number): MemoryRow[];
  edgesFrom(ids: readonly string[]): Map<string, Edge[]>;
}

/** The scope as a condition on memories' columns, with `?` placeholders ('1 = 1' reads the same on both backends). */
export function scopeWhere(scope: ListScope): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (!scope.includeArchived) parts.push('archived = 0');
  const oc = ownerClause(scope.owner ?? null);
  if (oc.sql !== '1') {
    parts.push(oc.sql);
    params.push(...oc.params);
  }
  return { sql: parts.length ? parts.join(' AND ') : '1 = 1', params };
}

export class ScopedReads {
  constructor(
    private readonly rows: ScopedRows,
    /** The store's decoding, which warns once of a row it cannot read whole. */
    private readonly decode: (row: MemoryRow, edges: Edge[]) => Memory,
  ) {}

  /** Memories in rowid order, edges attached, a page of `batch` at a time. */
  *iter(scope: ListScope, batch: number): Generator<Memory> {
    const w = scopeWhere(scope);
    let after = -1;
    for (;;) {
      const rows = this.rows.page(w.sql, w.params, after, batch);
      if (rows.length === 0) return;
      const edges = this.rows.edgesFrom(rows.map((r) => r.id));
      for (const row of rows) yield this.decode(row, edges.get(row.id) ?? []);
      after = rows[rows.length - 1]!.rowid!;
    }
  }
}

/** How many memories the scope holds (live ones only unless it includes the archived). */
export function countMemories(store: Pick<StoreReader, 'sql'>, scope: ListScope = {}): number {
  const w = scopeWhere(scope);
  return intOf(store.sql.get(query(`SELECT count(*) AS n FROM ${store.sql.table('memories')} WHERE ${w.sql}`, w.params))!['n'], 'count(*)');
}

/** Whether the scope holds no memory: stops at the first row, where countMemories reads them all. */
export function noMemories(store: Pick<StoreReader, 'sql'>, scope: ListScope = {}): boolean {
  const w = scopeWhere(scope);
  return store.sql.get(query(`SELECT 1 FROM ${store.sql.table('memories')} WHERE ${w.sql} LIMIT 1`, w.params)) === undefined;
}
