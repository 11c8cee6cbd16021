import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expected, fixtureCopy, tempDir } from '../../support/fixture.js';
import { runCli } from '../helpers/cli.js';

const NOW = String(expected().now);

describe('mnemo CLI', () => {
  it('prints help and exits 2 on an unknown command or missing arguments', async () => {
    expect((await runCli(['--help'])).code).toBe(0);
    const unknown = await runCli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
    const missing = await runCli(['show']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing <db>/);
    const badFlag = await runCli(['list', fixtureCopy(), '--bogus']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toMatch(/bogus/);
    const badNow = await runCli(['add', fixtureCopy(), 'x', '--now', 'yesterday']);
    expect(badNow.code).toBe(2);
    expect(badNow.stderr).toMatch(/--now must be epoch seconds/);
  });

  it('shows a rotated ring with 64 entries and counters above 64', async () => {
    const id = (expected().summary.rotated_rings as string[])[0]!;
    const res = await runCli(['show', fixtureCopy(), id.slice(0, 10), '--json']);
    expect(res.code).toBe(0);
    const m = res.json().memory;
    expect(m.id).toBe(id);
    expect(m.access_log).toHaveLength(64);
    expect(m.recalled_count + m.searched_count + m.injected_count + m.reinforced_count + m.deref_count).toBeGreaterThan(64);
  });

  it('init, add, list, link, archive round trip with --json', async () => {
    const db = join(tempDir(), 'cli.sqlite');
    expect((await runCli(['init', db, '--json'])).json()).toMatchObject({ profile: 'mnemo', counts: { memories: 0 } });
    const a = (await runCli(['add', db, 'Deploy billing with make deploy', '--type', 'skill', '--tag', 'deploy', '--importance', 'HIGH', '--now', NOW, '--json'])).json();
    const b = (await runCli(['add', db, '-', '--owner', 'Coder@c3', '--now', NOW, '--json'], 'Billing deploy failed on a stale lockfile\n')).json();
    expect(a).toMatchObject({ type: 'skill', importance: 8, created_at: Number(NOW), tags: ['deploy'] });
    expect(b.content).toBe('Billing deploy failed on a stale lockfile');
    const link = await runCli(['link', db, b.id, a.id, '--type', 'causes', '--weight', '0.9', '--json']);
    expect(link.json()).toMatchObject({ changed: true });
    const listed = (await runCli(['list', db, '--json', '--sort', 'created_at'])).json();
    expect(listed.total).toBe(2);
    expect((await runCli(['archive', db, a.id, '--json'])).json()).toMatchObject({ changed: [a.id] });
    expect((await runCli(['list', db, '--json'])).json().total).toBe(1);
    expect((await runCli(['list', db, '--archived', 'all', '--json'])).json().total).toBe(2);
    expect((await runCli(['archive', db, a.id, '--restore'])).code).toBe(0);
    const human = await runCli(['list', db]);
    expect(human.stdout).toMatch(/2 of 2/);
  });

  it('refuses bad input with exit 2 and a message naming it', async () => {
    const db = fixtureCopy();
    const cases: [string[], RegExp][] = [
      [['add', db, 'x', '--type', 'info', '--status', 'open'], /status/],
      [['add', db, 'x', '--owner', 'Plan_ner'], /owner/],
      [['add', db, 'x', '--owner', 'role@@x'], /owner/],
      [['add', db, 'x', '--importance', 'ENORMOUS'], /unknown importance label/],
      [['link', db, (expected().summary.chain as { a: string }).a, (expected().summary.chain as { b: string }).b, '--type', 'befriends'], /type/],
      [['show', db, 'abc'], /at least 6 characters/],
      [['show', db, '%%%%%%'], /literally/],
    ];
    for (const [argv, re] of cases) {
      const res = await runCli(argv);
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.stderr, argv.join(' ')).toMatch(re);
    }
    const notDb = join(tempDir(), 'x.sqlite');
    writeFileSync(notDb, 'hello');
    const res = await runCli(['list', notDb]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/not a SQLite database/);
  });

  it('exports and re-imports JSONL with edges and access logs', async () => {
    const src = fixtureCopy();
    const out = join(tempDir(), 'all.jsonl');
    expect((await runCli(['export', src, '--out', out])).code).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(160);
    const db = join(tempDir(), 'imported.sqlite');
    const res = await runCli(['import', db, out, '--json']);
    expect(res.json()).toMatchObject({ imported: 160 });
    const rotated = (expected().summary.rotated_rings as string[])[0]!;
    const shown = (await runCli(['show', db, rotated, '--json'])).json();
    const original = (await runCli(['show', src, rotated, '--json'])).json();
    expect(shown.memory).toEqual(original.memory);
    expect((await runCli(['list', db, '--archived', 'all', '--json'])).json().total).toBe(160);
  });

  it('rolls back a whole import when one line is invalid, naming the line', async () => {
    const db = join(tempDir(), 'i.sqlite');
    await runCli(['init', db]);
    const file = join(tempDir(), 'bad.jsonl');
    const ok = (id: string) => JSON.stringify({ id, content: `memory ${id}`, created_at: 1 });
    writeFileSync(file, [ok('aaaaaaaa01'), ok('aaaaaaaa02'), JSON.stringify({ id: 'aaaaaaaa03', content: 'x', created_at: 1, importance: 'high' }), ok('aaaaaaaa04')].join('\n'));
    const res = await runCli(['import', db, file]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/line 3: importance/);
    expect(res.stderr).toMatch(/nothing was imported/);
    expect((await runCli(['list', db, '--json'])).json().total).toBe(0);
    writeFileSync(file, [ok('bbbbbbbb01'), '{"id": "bbbbbbbb02", "content": ', ok('bbbbbbbb03')].join('\n'));
    const broken = await runCli(['import', db, file]);
    expect(broken.stderr).toMatch(/line 2: not valid JSON/);
    writeFileSync(file, [ok('cccccccc01'), JSON.stringify({ id: 'cccccccc02', content: 'x', created_at: 1, edges: [{ target_id: 'zzz', type: 'causes' }] })].join('\n'));
    expect((await runCli(['import', db, file])).stderr).toMatch(/line 2: edge to zzz/);
    expect((await runCli(['list', db, '--json'])).json().total).toBe(0);
  });
});
