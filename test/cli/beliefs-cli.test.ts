import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../../support/fixture.js';

const T0 = 1_700_000_000;
const DAY = 86_400;
const line = (entity: string, attribute: string, value: string, day: number, reliability = 0.9) =>
  JSON.stringify({ entity, attribute, value, t: T0 + day * DAY, reliability, evidence: `${entity}'s ${attribute} is ${value}.` });

function files() {
  const dir = tempDir('mnemo-beliefs-cli-');
  const db = join(dir, 'store.sqlite');
  const observations = join(dir, 'observations.jsonl');
  writeFileSync(
    observations,
    [
      line('Viktor Osei', 'city', 'Lyon', 0),
      line('Viktor Osei', 'city', 'Lyon', 10),
      line('Viktor Osei', 'role', 'chef', 5),
      line('Viktor Osei', 'pet', 'goldfish', 7),
      line('Viktor Osei', 'hobby', 'chess', 9),
      line('Vik Osei', 'city', 'Lyon', 12),
      line('Vik Osei', 'role', 'chef', 14),
      line('Vik Osei', 'pet', 'goldfish', 15),
      line('Vik Osei', 'hobby', 'chess', 16),
      line('Viktor Osei', 'city', 'Porto', 60, 0.85),
    ].join('\n'),
  );
  const queries = join(dir, 'queries.jsonl');
  writeFileSync(
    queries,
    [
      JSON.stringify({ kind: 'current', entity: 'Vik Osei', attribute: 'city', at: T0 + 30 * DAY, id: 'q1' }),
      JSON.stringify({ kind: 'values', entity: 'Viktor Osei', attribute: 'hobby', at: T0 + 90 * DAY, id: 'q2' }),
      JSON.stringify({ kind: 'aliases', at: T0 + 90 * DAY, id: 'q3' }),
    ].join('\n'),
  );
  return { dir, db, observations, queries };
}

describe('mnemo beliefs', () => {
  it('ingest, aliases --apply, get --at --json, answer', async () => {
    const f = files();
    const ing = await runCli(['beliefs', 'ingest', f.db, f.observations, '--now', String(T0 + 90 * DAY)]);
    expect(ing.code).toBe(0);
    expect(ing.stdout).toMatch(/^ingested 10 observations into 8 dimensions/);
    const plan = await runCli(['beliefs', 'aliases', f.db, '--json', '--now', String(T0 + 90 * DAY)]);
    expect(plan.json().plan.proposals.map((p: { id: string }) => p.id)).toEqual(['Vik Osei → Viktor Osei']);
    expect(plan.json().applied).toBeNull();
    const applied = await runCli(['beliefs', 'aliases', f.db, '--apply', '--now', String(T0 + 90 * DAY)]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/applied 1 merge\(s\) as change #\d+/);
    const got = await runCli(['beliefs', 'get', f.db, 'Vik Osei', 'city', '--at', String(T0 + 30 * DAY), '--json']);
    expect(got.code).toBe(0);
    const g = got.json();
    expect(g.belief).toMatchObject({ entity: 'Viktor Osei', value: 'Lyon', deltas: 3 });
    expect(g.deltas.map((d: { observed_entity: string }) => d.observed_entity)).toEqual(['Viktor Osei', 'Viktor Osei', 'Vik Osei']);
    const text = await runCli(['beliefs', 'get', f.db, 'Viktor Osei', 'city', '--at', String(T0 + 90 * DAY)]);
    expect(text.stdout).toMatch(/^Viktor Osei\.city as-of .*: Porto/);
    const ans = await runCli(['beliefs', 'answer', f.db, f.queries]);
    expect(ans.code).toBe(0);
    const lines = ans.stdout.split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ id: 'q1', value: 'Lyon' });
    expect(lines[1]).toEqual({ id: 'q2', values: ['chess'] });
    expect(lines[2]).toEqual({ id: 'q3', aliases: [['Vik Osei', 'Viktor Osei']] });
  });

  it('observe with --t and --reliability, and retrieve', async () => {
    const f = files();
    const o = await runCli(['beliefs', 'observe', f.db, 'Ada Osei', 'city', 'Lyon', '--t', String(T0), '--reliability', '0.8', '--json']);
    expect(o.code).toBe(0);
    expect(o.json()).toMatchObject({ entity: 'Ada Osei', value: 'Lyon', reliability: 0.8, t: T0 });
    const r = await runCli(['beliefs', 'retrieve', f.db, 'Where is Ada?', '--at', String(T0)]);
    expect(r.stdout).toMatch(/^FACT Ada Osei city: Lyon \(80% belief/);
  });

  it('a bad line fails with exit 2, names the line, and writes nothing', async () => {
    const f = files();
    const bad = join(f.dir, 'bad.jsonl');
    writeFileSync(bad, [line('Ada Osei', 'city', 'Lyon', 0), JSON.stringify({ entity: 'Ada Osei', attribute: 'city', value: 'Porto', t: T0, reliability: 1.2 })].join('\n'));
    const res = await runCli(['beliefs', 'ingest', f.db, bad]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/line 2: reliability: reliability must be within \[0, 1\]; nothing was ingested/);
    expect(res.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(existsSync(f.db)).toBe(false);
    expect((await runCli(['beliefs', 'ingest', f.db, f.observations])).code).toBe(0);
    expect((await runCli(['beliefs', 'ingest', f.db, bad])).code).toBe(2);
    const got = await runCli(['beliefs', 'get', f.db, 'Viktor Osei', 'city', '--json']);
    expect(got.json().belief.deltas).toBe(3);
  });

  it('explains usage mistakes', async () => {
    const f = files();
    expect((await runCli(['beliefs'])).stderr).toMatch(/missing subcommand/);
    expect((await runCli(['beliefs', 'forget', f.db])).stderr).toMatch(/unknown subcommand "forget"/);
    expect((await runCli(['beliefs', 'ingest', f.db, f.observations, '--profile', 'best'])).code).toBe(2);
    expect((await runCli(['beliefs', 'aliases', f.db, '--reject', 'nobody'])).stderr).toMatch(/--reject takes "A=B"/);
  });
});
