/**
 * Small helpers for the PostgreSQL adapter's SQL: `?` placeholders (the SQLite modules' style, so
 * a clause such as owner-sql.ts's serves both adapters) numbered as PostgreSQL's `$1, $2 …`.
 */

/**
 * Numbers each `?` in order. The adapter's SQL is written here, never taken from input, and holds
 * no `?` inside a literal; a quoted literal is still skipped, so such a `?` would stay as it is.
 */
export function numbered(sql: string, first = 1): string {
  let n = first;
  let quoted = false;
  let out = '';
  for (const ch of sql) {
    if (ch === "'") quoted = !quoted;
    out += ch === '?' && !quoted ? `$${n++}` : ch;
  }
  return out;
}

/** A bigint column as `pg` returns it (decimal text) as a number, for the adapter's own modules as for the shared queries. */
export { intOf, intOrNull } from '../shared/sql-values.js';

/**
 * Texts as one parameter for `jsonTexts`: JSON, which V8 writes natively. `pg` writes a text[]
 * parameter by escaping each element with two regular expressions in the bridge's worker; for a
 * reflection apply's journal images (hundreds of megabytes of JSON full of quotes) that escaping
 * and the garbage it made were a third of the worker's time. A null stays null.
 */
export function jsonTextsParam(texts: readonly (string | null)[]): string {
  // A lone surrogate becomes U+FFFD, as `pg` encoding a text parameter as UTF-8 makes it; JSON would
  // carry it as an escape the server refuses.
  return JSON.stringify(texts.map((t) => (t === null ? null : (t as string & { toWellFormed(): string }).toWellFormed())));
}

/** The SQL of a set of `jsonTextsParam` parameters, zipped by position, with their position `n` (from 1). */
export function jsonTexts(params: readonly string[], alias: string, names: readonly string[]): string {
  return `ROWS FROM (${params.map((p) => `json_array_elements_text(${p}::json)`).join(', ')}) WITH ORDINALITY AS ${alias}(${names.join(', ')}, n)`;
}
