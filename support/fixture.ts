/** Paths and copies of the nooa v0.0.9 fixture committed under test/fixtures (read-only; tests work on copies). */
import { copyFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { storeFrom } from './test-backend.js';
import { tempDir } from './temp-dirs.js';

export { tempDir } from './temp-dirs.js';

// Resolved from this file, not the working directory, so scripts and benchmarks find it from anywhere.
export const FIXTURE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'nooa-v009');
export const FIXTURE_STORE = join(FIXTURE_DIR, 'store.sqlite');
export const FIXTURE_AFTER = join(FIXTURE_DIR, 'store.after-reflection.sqlite');

let expectedCache: unknown;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function expected(): any {
  expectedCache ??= JSON.parse(readFileSync(join(FIXTURE_DIR, 'expected.json'), 'utf8'));
  return expectedCache;
}

/**
 * A writable copy of a fixture store (nooa stores are WAL files; never write the committed one): a
 * SQLite file, or with MNEMO_TEST_BACKEND=postgres a PostgreSQL schema (test-backend.ts).
 */
export function fixtureCopy(which: 'store' | 'after' = 'store'): string {
  return storeFrom(fixtureFileCopy(which));
}

/** A writable copy of a fixture store as a SQLite file, whichever backend the suite runs on. */
export function fixtureFileCopy(which: 'store' | 'after' = 'store'): string {
  const dir = tempDir();
  const dest = join(dir, which === 'store' ? 'store.sqlite' : 'after.sqlite');
  copyFileSync(which === 'store' ? FIXTURE_STORE : FIXTURE_AFTER, dest);
  return dest;
}
