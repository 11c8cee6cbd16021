/**
 * The port's one SQL seam. The store's whole-table queries and belief tables (core/store/queries/)
 * are written once, in SQL with `?` placeholders and the dialect's fragments (shared/sql-dialect.ts),
 * and each backend runs them through `store.sql`: SQLite from its statement cache, PostgreSQL over
 * its connection with the placeholders numbered. Only the store's own modules make a StoreQuery
 * (shared/store-query.ts); above the store nothing holds SQL (test/unit/sql-in-store.test.ts).
 */

/** Which SQL a backend speaks: how the shared queries spell what the two write differently. */
export type SqlDialectName = 'sqlite' | 'postgres';

/** One statement of the store's own, with its parameters. */
export interface StoreQuery {
  readonly sql: string;
  readonly params: readonly unknown[];
  /**
   * For a read of many rows (`iterate`): the unique column (or columns) the rows come in ascending
   * order of, which `sql` selects and does not order by, after a WHERE clause of its own. Where each read is a round trip (PostgreSQL) the rows
   * are read a page at a time after the last one's key; SQLite streams them in one statement.
   */
  readonly pageBy?: string | readonly string[];
  /**
   * Prepared for this call alone: its text holds values (a clock reading, bucket bounds) that make it
   * unlike any other, so keeping it in a statement cache would only grow the cache.
   */
  readonly fresh?: boolean;
}

/**
 * The rows a statement answers, as plain objects keyed by column. Integers may come back as decimal
 * text (PostgreSQL's bigint): the shared queries turn them into numbers (shared/sql-values.ts).
 */
export interface StoreSqlReads {
  readonly dialect: SqlDialectName;
  /** A table's name in SQL: the store's schema on PostgreSQL (or the view of a past instant that shadows it). */
  table(name: string): string;
  /** Whether the table exists: a nooa file, or one opened read-only before a migration made it, lacks Mnemo's. */
  hasTable(name: string): boolean;
  all(q: StoreQuery): Record<string, unknown>[];
  get(q: StoreQuery): Record<string, unknown> | undefined;
  iterate(q: StoreQuery): Iterable<Record<string, unknown>>;
}

export interface StoreSqlWrites extends StoreSqlReads {
  /** Runs a write; the rows it changed. */
  run(q: StoreQuery): number;
}
