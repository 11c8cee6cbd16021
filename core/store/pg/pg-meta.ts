/**
 * The store's `mnemo_meta` values on PostgreSQL (the default profile, feed retention, run
 * markers…): one text value per key, a write replacing the key's value.
 */
import type { PgStoreConnection } from './pg-store-connection.js';

export function readPgMeta(conn: PgStoreConnection, key: string): string | null {
  const [r] = conn.read().query(`SELECT value FROM ${conn.table('mnemo_meta')} WHERE key = $1`, [key]);
  return r ? (r['value'] as string) : null;
}

export function writePgMeta(conn: PgStoreConnection, key: string, value: string): void {
  conn.db().query(`INSERT INTO ${conn.table('mnemo_meta')}(key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [key, value]);
}

export function deletePgMeta(conn: PgStoreConnection, key: string): void {
  conn.db().query(`DELETE FROM ${conn.table('mnemo_meta')} WHERE key = $1`, [key]);
}
