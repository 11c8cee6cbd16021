/**
 * SQL over the JSON `data` column that survives a row SQLite cannot parse. SQLite's JSON functions
 * refuse a document nested deeper than 1000 levels ("malformed JSON"), and one such row, written by
 * another writer, would fail every statement that reads JSON from `memories.data`: recall, list,
 * graph, facets and intents for every caller. Guarded, that row reads as NULL fields (no title, no
 * tags) and is reported by the reader that notices it; the rest of the store reads as before.
 *
 * `json_valid(x, 2)` accepts exactly what json_extract accepts (JSON5 too: Python writes NaN), and
 * the parse it does is cached for the json_extract that follows, so the guard costs little.
 */

/** True when SQLite's JSON functions can read the column's value. */
export function jsonReadable(column: string): string {
  return `json_valid(${column}, 2)`;
}

/** json_extract(column, path), or NULL when the column cannot be read as JSON. */
export function jsonField(column: string, path: string): string {
  return `CASE WHEN ${jsonReadable(column)} THEN json_extract(${column}, '${path}') END`;
}

/** The column when SQLite can read it as JSON, else NULL (json_each over NULL yields no rows). */
export function readableJsonOrNull(column: string): string {
  return `CASE WHEN ${jsonReadable(column)} THEN ${column} END`;
}
