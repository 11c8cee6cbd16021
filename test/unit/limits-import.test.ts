/**
 * Issue 13, item 1 (import door): `mnemo import` enforces the same limits as the API. Each hostile
 * line is refused with exit 2, naming the line and field; nothing is written; the store still
 * recalls. A legitimate export still imports (the limits do not refuse real records).
 */
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../core/model/limits.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../../support/fixture.js';

const NOW = 1_780_000_000;
const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const base = { type: 'info', content: 'deploy through the hostile importer', created_at: NOW };
const line = (over: Record<string, unknown>, raw?: (s: string) => string) => {
  const s = JSON.stringify({ ...base, ...over });
  return raw ? raw(s) : s;
};

let dir = '';
let store = '';

function rows(): number {
  const db = new Database(store, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM memories').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function importText(name: string, text: string) {
  const file = join(dir, `${name}.jsonl`);
  writeFileSync(file, text);
  return runCli(['import', store, file]);
}

beforeAll(async () => {
  dir = tempDir();
  store = join(dir, 's.sqlite');
  expect((await runCli(['demo', store, '--size', '40', '--seed', '7', '--now', String(NOW)])).code).toBe(0);
}, 60_000);

describe('import enforces the limits (issue 13 item 1)', () => {
  const cases: [name: string, text: () => string, message: RegExp][] = [
    ['trigger 1200 deep (the issue)', () => line({ id: 'deep-1200', trigger: { kind: 'cue', cue: 'z' } }, (s) => s.replace('"cue":"z"', `"cue":"z","deep":${nested(1200)}`)), /nested deeper than 64/],
    ['a line 100,000 deep', () => line({ id: 'deep-100k' }, (s) => s.replace(/\}$/, `,"x":${nested(100_000)}}`)), /nested deeper than 64/],
    ['importance 1e308', () => line({ id: 'imp-1e308', importance: 1e308 }), /importance must be within \[0, 10\]/],
    ['strength -5', () => line({ id: 'strength-neg', strength: -5 }), /strength must be within/],
    ['fire_at -1e300', () => line({ id: 'fire-neg', type: 'intent', trigger: { kind: 'time', fire_at: -1e300 } }), /trigger\.fire_at/],
    ['created_at 1e20', () => line({ id: 'created-far', created_at: 1e20 }), /created_at must be epoch seconds/],
    ['salience 1e999 (Infinity)', () => line({ id: 'sal-inf' }, (s) => s.replace(/\}$/, ',"salience":1e999}')), /numbers must be finite/],
    ['a __proto__ key', () => line({ id: 'proto-1' }, (s) => s.replace(/\}$/, ',"trigger":{"kind":"cue","cue":"z","__proto__":{"polluted":true}}}')), /__proto__: this key is not allowed/],
    ['content over the cap', () => line({ id: 'big-content', content: 'x'.repeat(LIMITS.maxContentChars + 1) }), /content is longer than/],
    ['a 50 MB line', () => line({ id: 'huge-line', content: 'y'.repeat(50_000_000) }), /line is longer than/],
    ['an access ring entry in the year 3e5', () => line({ id: 'ring-far', access_log: [{ ts: 1e13, channel: 'recalled' }] }), /access_log/],
    ['10,000 tags', () => line({ id: 'many-tags', tags: Array.from({ length: 10_000 }, (_, i) => `t${i}`) }), /tags/],
  ];

  for (const [name, text, message] of cases) {
    it(`refuses ${name}, writes nothing, and the store still recalls`, async () => {
      const before = rows();
      // The bad line comes second: the good first line must not be written either.
      const r = await importText(name.replace(/\W+/g, '-'), `${line({ id: `good-before-${name.length}` })}\n${text()}\n`);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/line 2/);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(rows()).toBe(before);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      const recall = await runCli(['recall', store, 'deploy', '--now', String(NOW)]);
      expect(recall.code).toBe(0);
    }, 60_000);
  }

  it('still imports what it exports (the limits refuse nothing real)', async () => {
    const exported = await runCli(['export', store]);
    expect(exported.code).toBe(0);
    const fresh = join(dir, 'fresh.sqlite');
    expect((await runCli(['init', fresh])).code).toBe(0);
    const file = join(dir, 'export.jsonl');
    writeFileSync(file, exported.stdout);
    const r = await runCli(['import', fresh, file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  }, 60_000);
});
