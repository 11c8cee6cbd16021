/**
 * What the store's SQL spells differently on its two backends, and nothing else: each shared query
 * (core/store/queries/) is written once with these fragments. SQLite's JSON functions refuse a row
 * nested too deep and PostgreSQL's cast fails the statement, so each reads such a row as having no
 * field (json-sql.ts; on PostgreSQL two guarded functions each connection makes, pg/pg-json-sql.ts).
 */
import type { SqlDialectName, StoreSqlReads } from '../port/store-sql.js';
import { documentOf, fieldOf } from './json-fields.js';
import { jsonField, readableJsonOrNull } from './json-sql.js';
import type { LargerOf } from './retention-sql.js';

/** PostgreSQL's guarded JSON readers, made in the session's temporary schema (pg/pg-json-sql.ts). */
export const PG_JSON_FIELD_FN = 'pg_temp.mnemo_json_field';
export const PG_JSON_STRINGS_FN = 'pg_temp.mnemo_json_strings';

export interface SqlDialect {
  readonly name: SqlDialectName;
  /** A top-level field of a JSON text column as text (a string unquoted), NULL when absent or unreadable. */
  jsonField(column: string, field: string): string;
  /**
   * Reads top-level fields of a JSON text column as json_extract gives them (a scalar as itself, an
   * array or object as its JSON text, absent or unreadable as null): `select` goes in the select
   * list, `read` takes the fields from a row. SQLite reads them in SQL; PostgreSQL selects the
   * document and reads it in JS, since a cast would fail the statement on one unreadable row.
   */
  jsonFields<F extends string>(column: string, alias: string, fields: readonly F[]): { select: string; read(row: Record<string, unknown>): Record<F, unknown> };
  /** Inserts a row, replacing the one with the same key: SQLite's INSERT OR REPLACE, PostgreSQL's ON CONFLICT … DO UPDATE; one `?` per column. */
  upsert(table: string, columns: readonly string[], key: readonly string[]): string;
  /** "the array `field` of the JSON column holds the value of one `?`". */
  jsonArrayHas(column: string, field: string): string;
  /** "column is in this list", with one `?` taking `idsParam(ids)`. */
  inList(column: string): string;
  idsParam(ids: readonly string[]): unknown;
  /** The operator matching a %-pattern with ASCII letters case-folded: SQLite's LIKE does; on PostgreSQL's byte-order text, ILIKE. */
  like: 'LIKE' | 'ILIKE';
  /** The two-argument larger of two values. */
  larger: LargerOf;
  /** ` NULLS FIRST` where an ascending order would not already put NULL first (PostgreSQL puts it last). */
  nullsFirst: string;
}

const SQLITE: SqlDialect = {
  name: 'sqlite',
  jsonFields: (column, alias, fields) => ({
    select: fields.map((f) => `${jsonField(column, `$.${f}`)} AS ${alias}_${f}`).join(', '),
    read: (row) => Object.fromEntries(fields.map((f) => [f, row[`${alias}_${f}`] ?? null])) as Record<(typeof fields)[number], unknown>,
  }),
  jsonField: (column, field) => jsonField(column, `$.${field}`),
  jsonArrayHas: (column, field) => `EXISTS (SELECT 1 FROM json_each(${readableJsonOrNull(column)}, '$.${field}') t WHERE t.value = ?)`,
  upsert: (table, columns) => `INSERT OR REPLACE INTO ${table}(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  inList: (column) => `${column} IN (SELECT value FROM json_each(?))`,
  idsParam: (ids) => JSON.stringify(ids),
  like: 'LIKE',
  larger: 'max',
  nullsFirst: '',
};

const POSTGRES: SqlDialect = {
  name: 'postgres',
  jsonFields: (column, alias, fields) => ({
    select: `${column} AS ${alias}`,
    read: (row) => {
      const doc = documentOf(row[alias] as string | null);
      return Object.fromEntries(fields.map((f) => [f, fieldOf(doc, f)])) as Record<(typeof fields)[number], unknown>;
    },
  }),
  jsonField: (column, field) => `${PG_JSON_FIELD_FN}(${column}, '${field}')`,
  jsonArrayHas: (column, field) => `? = ANY(${PG_JSON_STRINGS_FN}(${column}, '${field}'))`,
  upsert: (table, columns, key) =>
    `INSERT INTO ${table}(${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${columns
      .filter((c) => !key.includes(c))
      .map((c) => `${c} = excluded.${c}`)
      .join(', ')}`,
  inList: (column) => `${column} = ANY(?::text[])`,
  // PostgreSQL text cannot hold NUL, and refuses a parameter with one: such an id names no row.
  idsParam: (ids) => ids.filter((id) => !id.includes('\u0000')),
  like: 'ILIKE',
  larger: 'greatest',
  nullsFirst: ' NULLS FIRST',
};

/** The dialect of the store's SQL. */
export function dialectOf(sql: Pick<StoreSqlReads, 'dialect'>): SqlDialect {
  return sql.dialect === 'postgres' ? POSTGRES : SQLITE;
}
