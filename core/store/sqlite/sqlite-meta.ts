/**
 * The store's `mnemo_meta` values on SQLite (the default profile, feed retention, run markers…):
 * one text value per key, a write replacing the key's value. The SQLite side of pg/pg-meta.ts;
 * the caller checks the table is there (a nooa-only file has none).
 */
import type { StatementCache } from './sqlite.js';

export function readSqliteMeta(st: StatementCache, key: string): string | null {
  const row = st.get('SELECT value FROM mnemo_meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

export function writeSqliteMeta(st: StatementCache, key: string, value: string): void {
  st.get('INSERT OR REPLACE INTO mnemo_meta(key, value) VALUES (?, ?)').run(key, value);
}
