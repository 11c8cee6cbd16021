/**
 * The project's own configuration removes each test file's temporary folders when the file ends
 * (vitest.config.ts `setupFiles`, test/remove-temp-dirs.ts). Runs Vitest on one file that leaves
 * a folder behind on purpose and lists it, then looks for it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/temp-dirs.js';

const ROOT = join(import.meta.dirname, '..', '..');
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

describe('test runs leave no temporary folders', () => {
  it("removes a test file's folders when the file ends", () => {
    const probe = join(tempDir(), 'made.txt');
    const run = spawnSync(process.execPath, [VITEST, 'run', '--project', 'unit', 'test/unit/temp-dirs.test.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, MNEMO_TEMP_DIRS_PROBE: probe },
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const made = readFileSync(probe, 'utf8').split('\n').filter(Boolean);
    expect(made).toHaveLength(1);
    expect(made[0]).toContain('mnemo-file-probe-');
    expect(existsSync(made[0]!)).toBe(false);
  });
});
