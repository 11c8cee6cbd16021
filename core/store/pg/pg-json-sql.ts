/**
 * Fields of a memory's JSON `data` read by SQL on PostgreSQL, for the filters that must run in the
 * database (the memory list's tag and text filters, the tag facet). A `text::json` cast fails the
 * whole statement on one row it cannot parse, and PostgreSQL 15 has no test for valid JSON that
 * does not raise; so two small functions catch the error and read such a row as having no field,
 * as the SQLite adapter's guard does (json-sql.ts) and as the fields this adapter reads in JS do
 * (pg-json.ts: what JSON.parse refuses, NaN included, reads as unreadable).
 *
 * They are made in the session's own temporary schema when the adapter connects: a read-only
 * connection and an agent's role can make them (every role may create temporary objects unless an
 * operator revoked it), and the store's schema stays exactly what `mnemo copy` makes.
 */
import { PG_JSON_FIELD_FN as FIELD_FN, PG_JSON_STRINGS_FN as STRINGS_FN } from '../shared/sql-dialect.js';
import type { SyncPg } from './sync-pg.js';
import { ident } from './pg-url.js';

/**
 * A read replica (a hot standby) cannot make temporary functions: the feed's DDL (pg-feed-ddl.ts)
 * makes the same two in the store's schema, and a statement sent to a replica names those instead
 * (pg-replicas.ts rewrites this prefix).
 */
export const PG_TEMP_JSON_PREFIX = 'pg_temp.mnemo_json_';

/** The two functions' definitions under a schema (`pg_temp`, or the store's quoted name). */
export function pgJsonFunctionsDdl(schema: string): string[] {
  return [
    `CREATE OR REPLACE FUNCTION ${schema}.mnemo_json_field(doc text, field text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
     BEGIN
       RETURN doc::json ->> field;
     EXCEPTION WHEN others THEN
       RETURN NULL;
     END $$`,
    `CREATE OR REPLACE FUNCTION ${schema}.mnemo_json_strings(doc text, field text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE AS $$
     DECLARE v json;
     BEGIN
       v := doc::json -> field;
       IF json_typeof(v) = 'array' THEN
         RETURN ARRAY(SELECT json_array_elements_text(v));
       END IF;
       RETURN NULL;
     EXCEPTION WHEN others THEN
       RETURN NULL;
     END $$`,
  ];
}

/** A statement's text with the store's own JSON functions named instead of the temporary ones (a hot standby's connection). */
export function jsonFunctionsOf(schema: string): (sql: string) => string {
  const own = `${ident(schema)}.mnemo_json_`;
  return (sql) => (sql.includes(PG_TEMP_JSON_PREFIX) ? sql.split(PG_TEMP_JSON_PREFIX).join(own) : sql);
}

/** Makes the functions on this connection; before the session is set read-only. */
export function definePgJsonFunctions(db: SyncPg): void {
  for (const sql of pgJsonFunctionsDdl('pg_temp')) db.query(sql);
}

/** A top-level field of a JSON text column as text (a string unquoted), NULL when absent, null or unreadable. */
export function pgJsonField(column: string, field: string): string {
  return `${FIELD_FN}(${column}, '${field}')`;
}

/** The elements of a top-level array field as text[], NULL when it is not an array or unreadable. */
export function pgJsonStrings(column: string, field: string): string {
  return `${STRINGS_FN}(${column}, '${field}')`;
}
