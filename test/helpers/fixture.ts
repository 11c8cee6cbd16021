/** Paths and copies of the shared nooa v0.0.9 fixture (read-only; tests work on copies). */
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const SHARED = resolve(process.cwd(), '..', 'shared');
export const FIXTURE_DIR = join(SHARED, 'fixtures', 'nooa-v009');
export const FIXTURE_STORE = join(FIXTURE_DIR, 'store.sqlite');
export const FIXTURE_AFTER = join(FIXTURE_DIR, 'store.after-reflection.sqlite');

let expectedCache: unknown;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function expected(): any {
  expectedCache ??= JSON.parse(readFileSync(join(FIXTURE_DIR, 'expected.json'), 'utf8'));
  return expectedCache;
}

export function tempDir(prefix = 'mnemo-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A writable copy of a fixture store (nooa stores are WAL files; never write the shared one). */
export function fixtureCopy(which: 'store' | 'after' = 'store'): string {
  const dir = tempDir();
  const dest = join(dir, which === 'store' ? 'store.sqlite' : 'after.sqlite');
  copyFileSync(which === 'store' ? FIXTURE_STORE : FIXTURE_AFTER, dest);
  return dest;
}
