/**
 * Which backend the suites' stores live on. `npm test` runs chosen suites twice: once on SQLite
 * files, once (the `postgres` project in vitest.config.ts) with MNEMO_TEST_BACKEND=postgres, where
 * every store a test makes from a SQLite file (`storeFrom`, and the fixture copies of fixture.ts) is
 * copied into a fresh schema of one PostgreSQL server and named by its postgres:// URL instead. The
 * server is the one MNEMO_TEST_PG_URL names; the project's global setup (test/pg-global-setup.ts)
 * starts a throwaway one and sets it when none is given.
 */
import { copyStore } from '../core/store/copy/copy-stores.js';
import { freshSchemaUrl, PG_URL_ENV } from './pg-cluster.js';

export const BACKEND_ENV = 'MNEMO_TEST_BACKEND';

export type TestBackend = 'sqlite' | 'postgres';

export function testBackend(): TestBackend {
  return process.env[BACKEND_ENV] === 'postgres' ? 'postgres' : 'sqlite';
}

let made = 0;

/** A fresh, empty schema's store URL on the test server (its name unique to this process and call). */
export function freshPgLocation(): string {
  const server = process.env[PG_URL_ENV];
  if (!server) throw new Error(`${BACKEND_ENV}=postgres needs a server: set ${PG_URL_ENV}, or run the suite through vitest's postgres project, whose global setup starts one`);
  return freshSchemaUrl(server, `t${process.pid}_${++made}_${Date.now().toString(36)}`);
}

/** The store a test works on, made from a SQLite store file: the file itself, or on PostgreSQL a copy of it. */
export function storeFrom(sqlitePath: string): string {
  if (testBackend() === 'sqlite') return sqlitePath;
  const url = freshPgLocation();
  copyStore(sqlitePath, url);
  return url;
}
