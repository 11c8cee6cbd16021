/**
 * Fields of a JSON text column read in JS rather than by SQL, as the PostgreSQL side of the shared
 * queries reads them (sql-dialect.ts jsonFields): SQLite's json_extract reads what its JSON
 * functions accept and is guarded (json-sql.ts); PostgreSQL's json and jsonb casts would fail a
 * whole statement on one unreadable row. A value JSON.parse cannot read (SQLite's
 * JSON5 extensions such as NaN included) reads as unreadable: no fields.
 */

/** The text's JSON document when it reads as an object, else null. */
export function documentOf(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A top-level field as json_extract gives it: a scalar as itself, an array or object as its JSON text, absent or null as null. */
export function fieldOf(doc: Record<string, unknown> | null, key: string): string | null {
  const v = doc?.[key];
  if (v === undefined || v === null) return null;
  return typeof v === 'object' ? JSON.stringify(v) : (v as string);
}
