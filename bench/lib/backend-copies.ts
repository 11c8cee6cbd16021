/**
 * The same demo store on both backends, for `npm run bench -- backends`: a SQLite copy of the
 * cached demo store (bench/lib/demo-store.ts) and a PostgreSQL copy of that copy made by
 * `mnemo copy`'s copyStore, in its own schema of the given server (dropped first, so a run never
 * meets an earlier run's rows).
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { fixedClock } from '../../core/clock.js';
import { copyStore } from '../../core/store/copy/copy-stores.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { demoStoreCopy } from './demo-store.js';

export type Backend = 'sqlite' | 'postgres';
export const BACKENDS: readonly Backend[] = ['sqlite', 'postgres'];

export interface BackendCopies {
  size: number;
  /** Where each backend's copy is: a file path, a postgres://…?schema= URL. */
  sqlite: string;
  postgres: string;
  copy_s: number;
  copied_rows: number;
  /** Removes both copies (the SQLite file's folder, the PostgreSQL schema). */
  dispose(): void;
}

export function withSchema(serverUrl: string, schema: string): string {
  return `${serverUrl}${serverUrl.includes('?') ? '&' : '?'}schema=${schema}`;
}

export function dropSchema(serverUrl: string, schema: string): void {
  const admin = SyncPg.connect(serverUrl);
  try {
    admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    admin.close();
  }
}

/** A fresh copy of the cached demo store of `size` memories, opened writable once so its schema is current before anything copies it. */
export function currentDemoCopy(size: number, now: number, log: (line: string) => void): string {
  const sqlite = demoStoreCopy(size, now, log);
  // Both backends then hold the same tables.
  MemoryStore.open(sqlite, { clock: fixedClock(now) }).close();
  return sqlite;
}

export function backendCopies(serverUrl: string, size: number, now: number, log: (line: string) => void): BackendCopies {
  const sqlite = currentDemoCopy(size, now, log);
  // The process id keeps two runs against one shared server (MNEMO_TEST_PG_URL) out of each other's schema.
  const schema = `bench_backends_${size}_${process.pid}`;
  dropSchema(serverUrl, schema);
  const postgres = withSchema(serverUrl, schema);
  log(`copying the ${size.toLocaleString('en')}-memory demo store to PostgreSQL (schema ${schema})…`);
  const t0 = performance.now();
  const summary = copyStore(sqlite, postgres);
  const copy_s = (performance.now() - t0) / 1000;
  log(`  ${summary.rows.toLocaleString('en')} rows in ${copy_s.toFixed(1)} s`);
  const dispose = () => {
    rmSync(dirname(sqlite), { recursive: true, force: true });
    dropSchema(serverUrl, schema);
  };
  return { size, sqlite, postgres, copy_s: Number(copy_s.toFixed(1)), copied_rows: summary.rows, dispose };
}
