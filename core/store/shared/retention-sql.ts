/**
 * Retention and idle time as SQL expressions over the promoted columns (`strength`,
 * `last_accessed`), the same formula as core/forget/policy.ts:
 *   R = exp(−max(now − last_accessed, 0)/3600 / (half_life · (1 + ln(1 + max(strength, 0)))))
 * so the Overview's retention facets, its scatter and the Memories list filter all count the same
 * rows, and none of them parses a memory's JSON (a 100k store is filtered in one indexed scan).
 */

/**
 * The SQL function giving the larger of two values: SQLite's two-argument `max`, PostgreSQL's
 * `greatest` (PostgreSQL's `max` is only the aggregate).
 */
export type LargerOf = 'max' | 'greatest';

/** SQL for retention at `now` (a number inlined after a finiteness check, so no parameter order to keep). */
export function retentionSql(now: number, halfLifeHours: number, table = 'memories', larger: LargerOf = 'max'): string {
  if (!Number.isFinite(now) || !Number.isFinite(halfLifeHours)) throw new Error('retentionSql: now and halfLifeHours must be finite');
  const t = table ? `${table}.` : '';
  return `exp(-(${larger}(${now} - ${t}last_accessed, 0) / 3600.0) / (${halfLifeHours} * (1 + ln(1 + ${larger}(${t}strength, 0)))))`;
}

/** SQL for seconds since the last access at `now` (never negative). */
export function idleSql(now: number, table = 'memories', larger: LargerOf = 'max'): string {
  if (!Number.isFinite(now)) throw new Error('idleSql: now must be finite');
  const t = table ? `${table}.` : '';
  return `${larger}(${now} - ${t}last_accessed, 0)`;
}

/** A half-open numeric range [min, max); either end may be absent. */
export interface NumRange {
  min?: number | null | undefined;
  max?: number | null | undefined;
}

/** `expr >= min AND expr < max` (or `<= max` when `closed`), with the bounds as parameters. */
export function rangeClause(expr: string, r: NumRange, closed = false): { sql: string[]; params: number[] } {
  const sql: string[] = [];
  const params: number[] = [];
  if (r.min !== undefined && r.min !== null) {
    sql.push(`${expr} >= ?`);
    params.push(r.min);
  }
  if (r.max !== undefined && r.max !== null) {
    sql.push(`${expr} ${closed ? '<=' : '<'} ?`);
    params.push(r.max);
  }
  return { sql, params };
}
