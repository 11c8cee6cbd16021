/**
 * The owner scope as a SQL predicate: the same exact, case-sensitive rule as ownerMatches
 * (core/model/owner.ts). It never uses LIKE, which SQLite applies ASCII case-insensitively.
 * A role scope `r` matches `r` itself and every `r@…`: with the column's BINARY collation (byte
 * order) those are exactly the strings in [`r@`, `rA`), since 'A' is the byte after '@'; a range
 * also keeps idx_mem_owner usable.
 */
import type { OwnerScope } from '../../model/owner.js';

/** The column name is trusted (a literal of the caller); the scope is always bound. */
export function ownerClause(scope: OwnerScope, column = 'owner'): { sql: string; params: string[] } {
  if (scope === null) return { sql: '1', params: [] };
  if (scope.includes('@')) return { sql: `${column} IN (?, '')`, params: [scope] };
  return { sql: `(${column} = ? OR (${column} >= ? AND ${column} < ?) OR ${column} = '')`, params: [scope, `${scope}@`, `${scope}A`] };
}
