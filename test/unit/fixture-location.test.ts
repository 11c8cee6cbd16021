import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FIXTURE_AFTER, FIXTURE_DIR, FIXTURE_STORE } from '../../support/fixture.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('the nooa conformance fixture', () => {
  it('is read from the repository itself, so a clone with nothing beside it runs the suite', () => {
    for (const path of [FIXTURE_DIR, FIXTURE_STORE, FIXTURE_AFTER, join(FIXTURE_DIR, 'expected.json'), join(FIXTURE_DIR, 'README.md')]) {
      const inRepo = relative(repoRoot, path);
      expect(inRepo.startsWith('..'), `${path} is outside the repository`).toBe(false);
      expect(existsSync(path), `${inRepo} is missing`).toBe(true);
    }
  });
});
