/**
 * A store's reads over a list scope (port.ts ListScope: archived or not, an owner): how many
 * memories are in it, whether any is, and each of them in rowid order, nooa's iteration order.
 * Both adapters share it; each one's memory rows module runs the condition (`?` placeholders).
 */
import type { Edge, Memory } from '../../model/memory.js';
import type { MemoryRow } from '../port/codec.js';
import { ownerClause } from './owner-sql.js';
import type { ListScope } from '../port/port.js';

/** The statements over a condition on memories' columns, written with `?` placeholders. */
export interface ScopedRows {
  count(where: string, params: readonly unknown[]): number;
  /** Whether any row matches: stops at the first, where count() reads them all. */
  any(where: string, params: readonly unknown[]): boolean;
  /** Rows matching after rowid `after`, in rowid order, at most `batch`. */
  page(where: string, params: readonly unknown[], after: number, batch: number): MemoryRow[];
  edgesFrom(ids: readonly string[]): Map<string, Edge[]>;
}

/** The scope as a condition on memories' columns, with `?` placeholders ('1 = 1' reads the same on both backends). */
function scopeWhere(scope: ListScope): { sql: string; params: unknown[] } {
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

  count(scope: ListScope): number {
    const w = scopeWhere(scope);
    return this.rows.count(w.sql, w.params);
  }

  isEmpty(scope: ListScope): boolean {
    const w = scopeWhere(scope);
    return !this.rows.any(w.sql, w.params);
  }

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
