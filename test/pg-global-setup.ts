/**
 * Global setup of the `postgres` project (vitest.config.ts): one PostgreSQL server for the suites
 * that run again on PostgreSQL. A server named by MNEMO_TEST_PG_URL is used as it is; otherwise a
 * throwaway cluster is started here, named to the workers through the same variable, and stopped
 * when the run ends.
 */
import { PG_DATA_DIR_ENV, PG_URL_ENV, startPg, type PgServer } from '../support/pg-cluster.js';

let server: PgServer | null = null;

export function setup(): void {
  server = startPg();
  process.env[PG_URL_ENV] = server.url;
  // A cluster started here is this run's own: its files may be read (the erase canary's byte check).
  if (server.throwaway && server.dataDir) process.env[PG_DATA_DIR_ENV] = server.dataDir;
}

export function teardown(): void {
  server?.stop();
  server = null;
  delete process.env[PG_DATA_DIR_ENV];
}
