/**
 * Makes the statements the store's query modules run through the port (port/store-sql.ts): SQL
 * written once, with `?` placeholders, for either backend.
 */
import type { StoreQuery } from '../port/store-sql.js';

/** A statement and its parameters. */
export function query(sql: string, params: readonly unknown[] = []): StoreQuery {
  return { sql, params };
}

/** A long read, in ascending order of the unique key (a column, or columns), which `sql` selects after a WHERE clause and does not order by. */
export function paged(sql: string, params: readonly unknown[], key: string | readonly string[]): StoreQuery {
  return { sql, params, pageBy: key };
}

/** A statement whose text holds values of this call (inlined after a check): not kept in a statement cache. */
export function oneOff(sql: string, params: readonly unknown[] = []): StoreQuery {
  return { sql, params, fresh: true };
}
