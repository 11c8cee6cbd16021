/**
 * The PostgreSQL driver, loaded when a connection is first made. Imported at the top of the
 * store's modules it was loaded by every command, SQLite ones included: about 0.1 s of a
 * one-shot `mnemo explain`. The driver is a CommonJS package, so it can be required on demand
 * from the synchronous code that opens a client.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';

const requireHere = createRequire(import.meta.url);
let driver: typeof pg | null = null;

export function pgDriver(): typeof pg {
  return (driver ??= requireHere('pg') as typeof pg);
}
