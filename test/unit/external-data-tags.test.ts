/**
 * CI runs the whole suite once on a fresh clone, where nothing lies beside the repository, and then,
 * beside the data, only the tests tagged `external-data` (.ci/run). A test that reads such data
 * without the tag would run in neither with its data: it would skip on the clone and be left out
 * beside the data. So every test file that reaches for that data must tag its tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** What a test calls to find data the repository cannot hold, from the environment (test/helpers/nooa-reference.ts, optional-data.ts, support/history-writers.ts). */
const REACHES_FOR_DATA = /\b(nooaReference|nooaAvailable|locomoData|beliefStreamDev)\(\)/;
const TAG = 'external-data';
/** The tag as a test gives it, written in two pieces so this file does not carry it (.ci/run greps for it). */
const TAGGED = `tags: ['${TAG}']`;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : testFiles(path);
    return e.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('tests that read data the repository cannot hold', () => {
  const files = testFiles(join(ROOT, 'test'));
  const reaching = files.filter((f) => REACHES_FOR_DATA.test(readFileSync(f, 'utf8')));

  it('are found: the interop, LoCoMo and belief-stream tests', () => {
    expect(reaching.length).toBeGreaterThanOrEqual(6);
  });

  it("carry the 'external-data' tag, so CI runs them beside the data", () => {
    const untagged = reaching.filter((f) => !readFileSync(f, 'utf8').includes(TAGGED)).map((f) => relative(ROOT, f));
    expect(untagged).toEqual([]);
  });

  it('are what .ci/run runs beside the data, by that tag', () => {
    expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).toContain(`--tags-filter ${TAG}`);
  });
});
