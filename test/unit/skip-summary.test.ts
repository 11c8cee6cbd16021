import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { locomoData, LOCOMO_ENV } from '../helpers/optional-data.js';
import { tempDir } from '../../support/fixture.js';
import { formatSkipSummary, skippedTests } from '../reporters/skip-summary.js';

describe('tests that need data the repository cannot hold', () => {
  it('are skipped with a reason naming the data and the variable that supplies it', () => {
    const none = locomoData({});
    expect(none.path).toBeNull();
    expect(none.missing).toContain('CC BY-NC');
    expect(none.missing).toContain(LOCOMO_ENV);
    const wrong = locomoData({ [LOCOMO_ENV]: join(tempDir(), 'absent.json') });
    expect(wrong.path).toBeNull();
    expect(wrong.missing).toContain('does not exist');
  });

  it('npm test ends with the list of what was skipped and why', () => {
    const text = formatSkipSummary([{ file: 'test/a.test.ts', name: 'suite > reads the real file', reason: 'LoCoMo is not part of the repository' }]);
    expect(text).toBe(['Skipped: 1 test', '  test/a.test.ts > suite > reads the real file', '      why: LoCoMo is not part of the repository'].join('\n'));
    expect(formatSkipSummary([])).toBe('Skipped: nothing.');
  });

  it('a run narrowed by a tag or a name lists the tests that skipped themselves, not the ones it left out', () => {
    const test = (name: string, mode: string, note?: string) => ({ fullName: name, options: { mode }, result: () => ({ state: 'skipped', note }) });
    const modules = [{ moduleId: '/repo/test/a.test.ts', children: { allTests: () => [test('left out', 'skip'), test('reads the real file', 'run', 'LoCoMo is not here')] } }];
    expect(skippedTests(modules as never, '/repo', true)).toEqual([{ file: 'test/a.test.ts', name: 'reads the real file', reason: 'LoCoMo is not here' }]);
    expect(skippedTests(modules as never, '/repo').map((t) => [t.name, t.reason])).toEqual([
      ['left out', 'no reason given'],
      ['reads the real file', 'LoCoMo is not here'],
    ]);
  });
});
