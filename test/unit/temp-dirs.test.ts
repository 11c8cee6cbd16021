/**
 * Temporary folders go when their user is done (support/temp-dirs.ts): the registry, the exit
 * hook of a benchmark's or a script's process, and (through test/cli/temp-dirs-cleanup.test.ts,
 * which runs this file under Vitest) the afterAll every test file gets from the config.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir, tempDirsMade } from '../../support/temp-dirs.js';

const MODULE = join(import.meta.dirname, '..', '..', 'support', 'temp-dirs.ts');

describe('temporary folders', () => {
  it('removes the folders it made, contents and all, and nothing else', () => {
    const stranger = mkdtempSync(join(tmpdir(), 'mnemo-not-ours-'));
    try {
      const a = tempDir('mnemo-temp-a-');
      const b = tempDir('mnemo-temp-b-');
      mkdirSync(join(a, 'deep', 'er'), { recursive: true });
      writeFileSync(join(a, 'deep', 'er', 'store.sqlite'), 'x');
      writeFileSync(join(b, 'store.sqlite-wal'), 'y');
      expect(tempDirsMade()).toEqual(expect.arrayContaining([a, b]));

      expect(removeTempDirs()).toBe(0);
      expect(existsSync(a)).toBe(false);
      expect(existsSync(b)).toBe(false);
      expect(tempDirsMade()).not.toContain(a);
      expect(existsSync(stranger)).toBe(true);
    } finally {
      rmSync(stranger, { recursive: true, force: true });
    }
  });

  it("a benchmark's or a script's folders go when its process exits", () => {
    const script = join(tempDir(), 'make.mjs');
    writeFileSync(
      script,
      `import { writeFileSync } from 'node:fs';\n` +
        `const { tempDir } = await import(${JSON.stringify(pathToFileURL(MODULE).href)});\n` +
        `const dir = tempDir('mnemo-exit-probe-');\n` +
        `writeFileSync(dir + '/store.sqlite', 'x');\n` +
        `console.log(dir);\n`,
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const made = run.stdout.trim();
    expect(made).toContain('mnemo-exit-probe-');
    expect(existsSync(made)).toBe(false);
  });

  // test/cli/temp-dirs-cleanup.test.ts runs this file alone with MNEMO_TEMP_DIRS_PROBE set, then
  // checks that the folders listed there are gone once Vitest has finished the file.
  it('leaves a folder for the end of the file to remove', () => {
    const dir = tempDir('mnemo-file-probe-');
    writeFileSync(join(dir, 'store.sqlite'), 'x');
    const probe = process.env.MNEMO_TEMP_DIRS_PROBE;
    if (probe) appendFileSync(probe, `${dir}\n`);
    expect(existsSync(dir)).toBe(true);
  });
});
