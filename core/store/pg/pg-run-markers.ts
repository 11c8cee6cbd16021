/**
 * Where a PostgreSQL store keeps the markers of long changes and belief ingests (`journal_run`,
 * `beliefs_ingest_run`): `mnemo_pg_runs`, which agents' roles can read but not write, with the role
 * that wrote each marker (pg-settings-ddl.ts). The store's meta reads and writes (pg-meta.ts) and the
 * journal's and ingest's own statements route these two keys here, so the code of change-run.ts and
 * ingest-run.ts is the same on both backends.
 *
 * A marker is seen only if its writer is trusted (an operator's kind of role): recovery rolls back
 * or completes a change from it. A marker of no trusted writer (one planted before the upgrade, or
 * written by a role an operator should not have granted the table) is left aside: not seen, and a
 * run claims its key over it.
 *
 * A store from before the table (opened read-only, so not upgraded) keeps its markers in
 * `mnemo_meta`, where they are read as before.
 */
import { INGEST_MARKER_KEY } from '../shared/ingest-run.js';
import { RUN_MARKER_KEY } from '../shared/journal.js';
import { RUNS_TABLE } from './pg-agent-privileges.js';
import type { PgStoreConnection } from './pg-store-connection.js';

export const RUN_KEYS: readonly string[] = [RUN_MARKER_KEY, INGEST_MARKER_KEY];

export const isRunKey = (key: string): boolean => RUN_KEYS.includes(key);

/** Whether each connection's store has the markers' table (asked once; a read-only open of an old store has not). */
const hasTable = new WeakMap<PgStoreConnection, boolean>();

/** The connection's store has the table now (its upgrade just made it). */
export function knowRunsTable(conn: PgStoreConnection): void {
  hasTable.set(conn, true);
}

function runsTable(conn: PgStoreConnection): string | null {
  let present = hasTable.get(conn);
  if (present === undefined) {
    present = conn.db().query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [conn.baseTable(RUNS_TABLE)])[0]!.ok;
    hasTable.set(conn, present);
  }
  return present ? conn.table(RUNS_TABLE) : null;
}

const meta = (conn: PgStoreConnection) => conn.table('mnemo_meta');

export function readRunMarker(conn: PgStoreConnection, key: string): string | null {
  const table = runsTable(conn);
  const [r] = table
    ? conn.db().query(`SELECT value FROM ${table} WHERE key = $1 AND ${conn.baseTable('mnemo_run_writer_trusted')}(writer)`, [key])
    : conn.db().query(`SELECT value FROM ${meta(conn)} WHERE key = $1`, [key]);
  return r ? (r['value'] as string) : null;
}

/**
 * The same read as readRunMarker, as a scalar subquery for another statement to carry (`param`
 * names the key's placeholder): the feed's check asks for it in its own round trip (pg-feed.ts).
 * Null until this connection knows whether the markers' table exists: finding out asks the
 * primary, and the check may be reading a replica while the primary is down (the first
 * readRunMarker finds out, as before).
 */
export function runMarkerSubquery(conn: PgStoreConnection, param: string): string | null {
  const present = hasTable.get(conn);
  if (present === undefined) return null;
  return present
    ? `(SELECT value FROM ${conn.table(RUNS_TABLE)} WHERE key = ${param} AND ${conn.baseTable('mnemo_run_writer_trusted')}(writer))`
    : `(SELECT value FROM ${meta(conn)} WHERE key = ${param})`;
}

export function writeRunMarker(conn: PgStoreConnection, key: string, value: string): void {
  const table = runsTable(conn);
  if (table) conn.db().query(`INSERT INTO ${table}(key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value, writer = current_user`, [key, value]);
  else conn.db().query(`INSERT INTO ${meta(conn)}(key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [key, value]);
}

/** Writes the marker unless a trusted writer's is there (committed, or being written by a transaction it waits for); false when one was. */
export function claimRunMarker(conn: PgStoreConnection, key: string, value: string): boolean {
  const table = runsTable(conn);
  const claimed = table
    ? conn.db().query(
        `INSERT INTO ${table} AS r (key, value) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, writer = current_user WHERE NOT ${conn.baseTable('mnemo_run_writer_trusted')}(r.writer)
         RETURNING key`,
        [key, value],
      )
    : conn.db().query(`INSERT INTO ${meta(conn)}(key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING key`, [key, value]);
  return claimed.length === 1;
}

export function deleteRunMarker(conn: PgStoreConnection, key: string): void {
  conn.db().query(`DELETE FROM ${runsTable(conn) ?? meta(conn)} WHERE key = $1`, [key]);
}
