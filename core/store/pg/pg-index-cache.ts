/**
 * Where a PostgreSQL store's index sidecar lives (index-sidecar.ts): in this machine's cache
 * folder, one file per store and per view of it. A SQLite store's sidecar sits beside its file; a
 * PostgreSQL store has no file, and its engines may run on many machines with no common folder, so
 * each machine keeps its own snapshots and catches them up from the store's change feed.
 *
 * The file is named by a hash of what decides which rows an engine sees: the server and database,
 * the schema, and the role the session reads as, with whether row-level security holds it to its
 * owner's rows (pg-grant.ts). An agent's engine, which sees its own and shared rows, and an
 * operator's, which sees every row, never read each other's snapshots. No password goes into the
 * hash or the file. The store's feed epoch is not part of the name: every snapshot records the
 * epoch it was taken at and is loaded only at the same epoch (derived-snapshot.ts), so a dropped
 * and re-created schema rebuilds and then writes over the same file instead of leaving one behind.
 */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { IndexSidecarLocation } from '../port/port.js';
import type { PgStoreConnection } from './pg-store-connection.js';
import { serverOf } from './pg-url.js';
import { sidecarPath } from '../derived/sidecar-name.js';

/** The cache folder: MNEMO_INDEX_CACHE_DIR, else the user's cache ($XDG_CACHE_HOME or ~/.cache) under mnemo/pg-index. */
export function pgIndexCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env.MNEMO_INDEX_CACHE_DIR?.trim();
  if (chosen) return chosen;
  const cache = env.XDG_CACHE_HOME?.trim() || join(homedir(), '.cache');
  return join(cache, 'mnemo', 'pg-index');
}

/** What an engine on this connection sees of the store; each part changes which rows it reads. */
export interface PgStoreView {
  /** The server and database as the URL names them, without user or password. */
  server: string;
  database: string;
  schema: string;
  /** The role the session reads as (row-level security is checked against it). */
  role: string;
  /** Whether row-level security filters this role's reads (an agent), or not (the tables' owner, a superuser, BYPASSRLS). */
  filtered: boolean;
}

/** Asks the server who this session reads as, and whether row-level security applies to it. */
export function pgStoreView(conn: PgStoreConnection): PgStoreView {
  const [r] = conn.db().query<{ role: string; database: string; filtered: boolean }>(
    `SELECT current_user AS role, current_database() AS database,
       coalesce(c.relrowsecurity AND NOT (r.rolsuper OR r.rolbypassrls OR pg_has_role(current_user, c.relowner, 'USAGE')), false) AS filtered
     FROM pg_roles r LEFT JOIN pg_class c ON c.oid = to_regclass($1)
     WHERE r.rolname = current_user`,
    [conn.table('memories')],
  );
  return { server: serverOf(conn.url), database: r!.database, schema: conn.url.schema, role: r!.role, filtered: r!.filtered };
}

/** The sidecar file of one view of a store, in `dir`. */
export function pgIndexCachePath(view: PgStoreView, dir: string): string {
  const key = createHash('sha256').update(JSON.stringify([view.server, view.database, view.schema, view.role, view.filtered])).digest('hex').slice(0, 32);
  return join(dir, sidecarPath(key));
}

/**
 * This machine's cache of the store's index snapshots for what this connection's role sees; written
 * even on a read-only connection, since it is no part of the store. Null (and `warn` told why) when
 * the server cannot say who the session is: the indexes are then built in memory.
 */
export function pgIndexSidecarLocation(conn: PgStoreConnection, warn: (message: string) => void): IndexSidecarLocation | null {
  try {
    return { path: pgIndexCachePath(pgStoreView(conn), pgIndexCacheDir()), writable: true };
  } catch (err) {
    warn(`cannot tell which index cache belongs to ${conn.shown} (${(err as Error).message}); indexes are built in memory instead`);
    return null;
  }
}
