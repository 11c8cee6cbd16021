/**
 * A PostgreSQL server for one test file: MNEMO_TEST_PG_URL's, or a throwaway cluster started
 * before the file's tests and stopped after them (support/pg-cluster.ts). pg-stores.ts builds the
 * store tests' frame on it.
 */
import { afterAll, beforeAll } from 'vitest';
import { pgUnavailable, startPg, type PgServer } from '../../support/pg-cluster.js';

export interface PgTestServer {
  /** Why the tests cannot run here (no server binaries and no MNEMO_TEST_PG_URL), or null. */
  readonly unavailable: string | null;
  /** postgres://… for the `postgres` database, once the file's tests have started. */
  readonly url: string;
}

/**
 * Registers the file's beforeAll / afterAll: `started` runs once the server is up, `stopping`
 * before it stops (the connections the file opened are closed there, while the server still answers).
 */
export function pgServer(hooks: { started?: (url: string) => void; stopping?: () => void } = {}): PgTestServer {
  const unavailable = pgUnavailable();
  let server: PgServer | null = null;
  beforeAll(() => {
    if (unavailable) return;
    server = startPg();
    hooks.started?.(server.url);
  }, 120_000);
  afterAll(() => {
    try {
      hooks.stopping?.();
    } finally {
      server?.stop();
    }
  });
  return {
    unavailable,
    get url() {
      if (!server) throw new Error('the PostgreSQL server is not started (used outside the tests, or unavailable)');
      return server.url;
    },
  };
}
