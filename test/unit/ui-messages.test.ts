/**
 * Issue 14 part 6, "messages are for people": engine errors shown as sentences without code
 * prefixes, counts with agreeing nouns, and advice that only names commands `mnemo` really has.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_LIST } from '../../cli/commands/index.js';
import { asSentence, describeError, plural } from '../../renderer/api/errors.js';
import { ApiError } from '../../renderer/api/client.js';

const ROOT = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const rel = join(dir, name);
    if (statSync(join(ROOT, rel)).isDirectory()) return sources(rel);
    return /\.(ts|tsx)$/.test(name) ? [rel] : [];
  });
}

describe('error messages for people', () => {
  it('maps every engine error code to words and never shows the code as a prefix', () => {
    for (const code of ['bad_input', 'not_found', 'schema', 'permission', 'conflict', 'busy', 'unsupported', 'internal']) {
      const m = describeError(new ApiError(code, `${code}: no memory with id abc`));
      expect(m.heading).not.toMatch(/_|^(schema|permission|conflict|busy|unsupported|internal)$/);
      expect(m.sentence).toBe('No memory with id abc.');
    }
    expect(describeError({ code: 'not_found', message: 'no change #4 in the journal' })).toEqual({ heading: 'Not found', sentence: 'No change #4 in the journal.' });
    expect(describeError('plain text').sentence).toBe('Plain text.');
  });

  it('keeps a sentence that already ends in punctuation', () => {
    expect(asSentence('is "mnemo serve" still running?')).toBe('Is "mnemo serve" still running?');
  });
});

describe('plural', () => {
  it('agrees with the count and groups digits', () => {
    expect(plural(1, 'memory', 'memories')).toBe('1 memory');
    expect(plural(0, 'memory', 'memories')).toBe('0 memories');
    expect(plural(12345, 'access', 'accesses')).toBe('12,345 accesses');
    expect(plural(1, 'store')).toBe('1 store');
  });

  it('no view writes a bare count before a plural noun (it would read "1 memories")', () => {
    const offenders: string[] = [];
    // A count rendered straight before one of these nouns; a line that handles the count of 1 itself is fine.
    const bare = /(\.length|toLocaleString\(\)|\btotal)\}? (memories|accesses|entities|stores|intents|rows|reads)\b/;
    for (const file of sources('renderer/views').filter((f) => /(memories|memory|overview|audit|beliefs|fleet|prospective)\//.test(f))) {
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (bare.test(line) && !line.includes('=== 1')) offenders.push(`${file}:${i + 1}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});

describe('advice names commands that exist', () => {
  it('every "mnemo <command>" in a message is a real subcommand', () => {
    const known = new Set(COMMAND_LIST.map((c) => c.name));
    const bad: string[] = [];
    for (const file of [...sources('core'), ...sources('server'), ...sources('renderer'), ...sources('cli')]) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      // Quoted advice only ("mnemo init <path>", 'mnemo list'): prose in comments may name the program.
      for (const m of text.matchAll(/["'`(]mnemo ([a-z][a-z-]*)/g)) {
        if (!known.has(m[1]!)) bad.push(`${file}: mnemo ${m[1]}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
