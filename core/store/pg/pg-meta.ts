/**
 * The store's `mnemo_meta` values on PostgreSQL (the default profile, feed retention, …): one text
 * value per key, a write replacing the key's value. The markers of long changes and belief ingests
 * live apart, where agents cannot write them (pg-run-markers.ts).
 */
import { deleteRunMarker, isRunKey, readRunMarker, writeRunMarker } from './pg-run-markers.js';
import type { PgStoreConnection } from './pg-store-connection.js';

export function readPgMeta(conn: PgStoreConnection, key: string): string | null {
  if (isRunKey(key)) return readRunMarker(conn, key);
  const [r] = conn.db().query(`SELECT value FROM ${conn.table('mnemo_meta')} WHERE key = $1`, [key]);
  return r ? (r['value'] as string) : null;
}

export function writePgMeta(conn: PgStoreConnection, key: string, value: string): void {
  if (isRunKey(key)) return writeRunMarker(conn, key, value);
  conn.db().query(`INSERT INTO ${conn.table('mnemo_meta')}(key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [key, value]);
}

export function deletePgMeta(conn: PgStoreConnection, key: string): void {
  if (isRunKey(key)) return deleteRunMarker(conn, key);
  conn.db().query(`DELETE FROM ${conn.table('mnemo_meta')} WHERE key = $1`, [key]);
}
