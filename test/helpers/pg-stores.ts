/**
 * The PostgreSQL store tests' common frame: a server (MNEMO_TEST_PG_URL, or a throwaway cluster)
 * started before a file's tests, with the schemas they use emptied first (a rerun against the same
 * server starts clean), an operator connection for raw SQL, and every store the tests open closed
 * after them, before the server stops.
 */
import type { Clock } from '../../core/clock.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { pgServer } from './pg-server.js';

export interface PgStores {
  /** Why the tests cannot run here (no server binaries and no MNEMO_TEST_PG_URL), or null. */
  readonly unavailable: string | null;
  /** The operator's connection to the server (a superuser on the throwaway cluster). */
  readonly admin: SyncPg;
  /** The server's URL (no schema): for connections of a test's own. */
  readonly url: string;
  /** The URL of the store in `schema`. */
  storeUrl(schema: string): string;
  /** A writable connection to the store in `schema` (made on first use), closed after the tests. */
  connect(schema: string, clock: Clock): PgStore;
  /** Closes `store` (any store or connection) after the tests. */
  track<T extends { close(): void }>(store: T): T;
}

/** Registers the file's beforeAll / afterAll; `setup` runs once the schemas are emptied (roles to drop, …). */
export function pgStores(schemas: readonly string[], setup?: (admin: SyncPg) => void): PgStores {
  let admin: SyncPg | null = null;
  const open: { close(): void }[] = [];
  const server = pgServer({
    started: (url) => {
      admin = SyncPg.connect(url);
      for (const schema of schemas) admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      setup?.(admin);
    },
    stopping: () => {
      for (const s of open.reverse()) s.close();
      admin?.close();
    },
  });
  const track = <T extends { close(): void }>(store: T): T => {
    open.push(store);
    return store;
  };
  const storeUrl = (schema: string) => `${server.url}${server.url.includes('?') ? '&' : '?'}schema=${schema}`;
  return {
    unavailable: server.unavailable,
    get admin() {
      return admin!;
    },
    get url() {
      return server.url;
    },
    storeUrl,
    connect: (schema, clock) => track(PgStore.open(storeUrl(schema), { create: true, clock })),
    track,
  };
}
