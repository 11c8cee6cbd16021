/**
 * The few row primitives an erase runs its places through (erase-targets.ts, erase-memories.ts, erase-scrubs.ts), one set per adapter:
 * SQLite's (sqlite/sqlite-erase.ts) and PostgreSQL's (pg/pg-erase.ts). The places' SQL is written
 * once, with `?` placeholders, and these say how each dialect tests a list of ids, finds a text,
 * rewrites a compact feed image, and names a table.
 */

export interface EraseDb {
  readonly backend: 'sqlite' | 'postgres';
  /** Rows of a statement (`?` placeholders). */
  all<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): R[];
  /** Runs a statement that returns nothing. */
  run(sql: string, params?: readonly unknown[]): void;
  /** A table's name in SQL. */
  t(name: string): string;
  /** Whether the store has this table (PostgreSQL's own feed; SQLite's FTS index over evidence). */
  has(table: string): boolean;
  /** "`col` is one of the texts of the JSON array bound to one `?`". */
  inJson(col: string): string;
  /** "the folded text bound to one `?` occurs in `col`, ASCII letters folded" (model/erase-text.ts). */
  holds(col: string): string;
  /** A JSON text column's value at a path of keys, as text (NULL when absent or not JSON). */
  jsonText(col: string, path: readonly string[]): string;
  /** A compact access image (`{"added", "dropped", "counts"}`) with its ring entries dropped: only the counters are left. */
  accessMarker(col: string): string;
}

/** A count as either driver returns it (PostgreSQL's bigint arrives as text). */
export const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));

/** Up to `n` items at a time. */
export function chunked<T>(xs: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}
