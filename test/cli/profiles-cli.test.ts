/** `mnemo profiles`: save a profile file, name it from explain, set it as the default, undo, refuse bad files. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { expected, fixtureCopy, tempDir } from '../../support/fixture.js';

const now = String(expected().now);
let db: string;
let dir: string;
beforeEach(() => {
  db = fixtureCopy();
  dir = tempDir();
});

function file(name: string, body: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof body === 'string' ? body : JSON.stringify(body));
  return path;
}

describe('mnemo profiles', () => {
  it('save --file (the profile file shape) then explain --profile, default, history and undo', async () => {
    const path = file('profile.json', { name: 'fitted', base: 'mnemo', knobs: { weights: { recency: 0.1, importance: 1.5 } }, features: {} });
    const saved = await runCli(['profiles', 'save', db, 'fitted', '--file', path, '--now', now, '--json']);
    expect(saved.code).toBe(0);
    expect(saved.json().diff).toEqual([
      { key: 'knobs.weights.recency', a: 0.5, b: 0.1 },
      { key: 'knobs.weights.importance', a: 0.5, b: 1.5 },
    ]);
    const list = await runCli(['profiles', 'list', db, '--json']);
    expect(list.json().map((p: { name: string }) => p.name)).toEqual(['nooa-0.0.9', 'mnemo', 'fitted']);
    const text = await runCli(['profiles', 'list', db]);
    expect(text.stdout).toMatch(/fitted\s+saved\s+mnemo/);
    const ex = await runCli(['explain', db, 'deploy notifier to staging', '--profile', 'fitted', '--now', now, '--json']);
    expect(ex.code).toBe(0);
    const diff = await runCli(['profiles', 'diff', db, 'mnemo', 'fitted']);
    expect(diff.stdout).toMatch(/knobs\.weights\.importance\s+0\.5\s+1\.5/);
    const def = await runCli(['profiles', 'default', db, 'fitted', '--now', now, '--json']);
    expect(def.json()).toMatchObject({ name: 'fitted', previous: 'nooa-0.0.9' });
    const show = await runCli(['profiles', 'show', db, 'fitted', '--json']);
    expect(show.json()).toMatchObject({ name: 'fitted', is_default: true, base: 'mnemo' });
    const refused = await runCli(['profiles', 'delete', db, 'fitted']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/default profile; set another default first/);
    await runCli(['undo', db, String(def.json().change_id)]);
    expect((await runCli(['profiles', 'show', db, 'fitted', '--json'])).json().is_default).toBe(false);
    const del = await runCli(['profiles', 'delete', db, 'fitted', '--json']);
    expect(del.code).toBe(0);
    const unknown = await runCli(['explain', db, 'deploy', '--profile', 'fitted']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown profile "fitted"; the profiles of this store are nooa-0.0.9, mnemo/);
  });

  it.each([
    ['not JSON', '{"knobs": '],
    ['an unknown key', { knobs: { weights: { recency: 0.1 } }, fetures: {} }],
    ['a string for a number', { knobs: { top_k: '5' } }],
    ['too big', 'x'.repeat(70_000)],
  ])('refuses a bad profile file (%s) with exit 2 and writes nothing', async (_what, body) => {
    const res = await runCli(['profiles', 'save', db, 'bad', '--file', file('bad.json', body)]);
    expect(res.code).toBe(2);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect((await runCli(['history', db, '--json'])).json()).toEqual([]);
  });

  it('refuses a built-in name, and an unknown subcommand', async () => {
    const res = await runCli(['profiles', 'save', db, 'mnemo', '--file', file('p.json', { knobs: { top_k: 3 } })]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/built-in profile/);
    expect((await runCli(['profiles', 'rename', db])).code).toBe(2);
  });
});
