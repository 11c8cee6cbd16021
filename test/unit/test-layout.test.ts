/**
 * Every test file sits in the folder of one Vitest project (vitest.config.ts). A test file left
 * anywhere else would match no project and silently never run, so this says where it is instead.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const TEST_DIR = join(import.meta.dirname, '..');
const PROJECT_FOLDERS = ['unit', 'store', 'cli', 'e2e'];

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : testFiles(path);
    return name.endsWith('.test.ts') ? [relative(TEST_DIR, path).split(sep).join('/')] : [];
  });
}

describe('the layout of the test suite', () => {
  it('puts every test file in a project folder (unit, store, cli or e2e), so each one runs', () => {
    const files = testFiles(TEST_DIR);
    expect(files.length).toBeGreaterThan(100);
    const outside = files.filter((f) => !PROJECT_FOLDERS.includes(f.split('/')[0]!));
    expect(outside, 'move these into test/unit, test/store, test/cli or test/e2e').toEqual([]);
  });
});
