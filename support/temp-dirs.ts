/**
 * Temporary folders for tests, benchmarks and scripts, removed when their user is done with them.
 *
 * Why: every test file makes a few stores in folders of its own, and a whole run makes thousands.
 * Left behind, one CI run filled about 6 GB of the system temp directory, and many runs filled the
 * disk until the suite itself failed. A test file's folders go when the file ends
 * (test/remove-temp-dirs.ts, an afterAll every project runs); a benchmark's or a script's go when
 * its process exits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();
let removeOnExit = false;

/** A new empty folder in the system temp directory, removed by `removeTempDirs` or at exit. */
export function tempDir(prefix = 'mnemo-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  if (!removeOnExit) {
    removeOnExit = true;
    // Synchronous on purpose: an 'exit' listener cannot wait for promises.
    process.once('exit', () => removeTempDirs());
  }
  return dir;
}

/** The folders `tempDir` made in this process that are still there to remove. */
export function tempDirsMade(): string[] {
  return [...made];
}

/**
 * Removes every folder `tempDir` made in this process. A folder that cannot go (a child process
 * still writing into it) is left where it is rather than failing the caller's run; the count of
 * those is returned so a caller can say so.
 */
export function removeTempDirs(): number {
  let left = 0;
  for (const dir of made) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
      made.delete(dir);
    } catch {
      left += 1;
    }
  }
  return left;
}
