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

/** Makes the functions on this connection; before the session is set read-only. */
export function definePgJsonFunctions(db: SyncPg): void {
  db.query(
    `CREATE OR REPLACE FUNCTION ${FIELD_FN}(doc text, field text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
     BEGIN
       RETURN doc::json ->> field;
     EXCEPTION WHEN others THEN
       RETURN NULL;
     END $$`,
  );
  db.query(
    `CREATE OR REPLACE FUNCTION ${STRINGS_FN}(doc text, field text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE AS $$
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
  );
}

/** A top-level field of a JSON text column as text (a string unquoted), NULL when absent, null or unreadable. */
export function pgJsonField(column: string, field: string): string {
  return `${FIELD_FN}(${column}, '${field}')`;
}

/** The elements of a top-level array field as text[], NULL when it is not an array or unreadable. */
export function pgJsonStrings(column: string, field: string): string {
  return `${STRINGS_FN}(${column}, '${field}')`;
}
