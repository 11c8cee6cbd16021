import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProfileFile } from '../../core/tune/profile-file.js';
import { tempDir } from '../../support/fixture.js';
import { runCli } from '../helpers/cli.js';
import { writeSyntheticLocomo } from '../helpers/locomo.js';
import { locomoData } from '../helpers/optional-data.js';
import { loggedStore } from '../helpers/tune-store.js';

describe('mnemo tune log', () => {
  it('fits from the store’s own log and writes profile.json and fit-report.json', async () => {
    const { path } = loggedStore(6);
    const out = join(tempDir(), 'fit');
    const res = await runCli(['tune', 'log', path, '--out', out, '--max-evals', '4', '--k', '1', '--json']);
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(res.stderr).toMatch(/6 labelled sessions; 4 train and 2 held-out queries/);
    expect(res.stderr).toMatch(/evaluation 4\/4/);
    const profile = parseProfileFile(readFileSync(join(out, 'profile.json'), 'utf8'), 'profile.json');
    expect(profile.name).toBe('mnemo-tuned');
    const report = JSON.parse(readFileSync(join(out, 'fit-report.json'), 'utf8'));
    expect(report.source.kind).toBe('access-log');
    expect(report.held_out.queries).toBe(2);
    expect(report.objective).toHaveLength(4);
    expect(res.json().evaluations).toBe(4);
  });

  it('says how many labelled sessions the log has and how many it needs', async () => {
    const { path } = loggedStore(3);
    const res = await runCli(['tune', 'log', path, '--out', join(tempDir(), 'x')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/3 session\(s\) with a labelled recall .* needs at least 5/);
    expect(existsSync(join(tempDir(), 'x'))).toBe(false);
  });

  it('validates its options', async () => {
    const { path } = loggedStore(1);
    for (const [args, msg] of [
      [['--metric', 'map'], /--metric must be one of recall, mrr, ndcg/],
      [['--max-evals', '0'], /--max-evals must be within/],
      [['--name', 'nooa-0.0.9'], /frozen/],
      [['--knobs', 'knobs.top_k'], /unknown or untunable knob "knobs.top_k"/],
      [['--knobs', ','], /--knobs takes 1 to 40/],
    ] as const) {
      const res = await runCli(['tune', 'log', path, '--out', join(tempDir(), 'y'), '--min-sessions', '2', ...args]);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(msg);
    }
  });
});

describe('mnemo tune locomo, and bench --profile-file', () => {
  it('fits on the tuning conversation of a synthetic file; bench runs the fitted profile', async () => {
    const data = writeSyntheticLocomo();
    const out = join(tempDir(), 'tune');
    const res = await runCli(['tune', 'locomo', '--data', data, '--out', out, '--max-evals', '3', '--seed', '2']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/held out \(\d+ queries, %\)/);
    expect(res.stdout).toMatch(/R@10 +\d/);
    const bench = join(tempDir(), 'bench');
    const b = await runCli(['bench', 'locomo', '--data', data, '--out', bench, '--profile-file', join(out, 'profile.json'), '--json']);
    expect(b.code, b.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(bench, 'summary.json'), 'utf8'));
    expect(summary.profile).toBe('mnemo-tuned');
    expect(readFileSync(join(bench, 'retrieved.jsonl'), 'utf8').trim().split('\n').length).toBe(6);
  });

  it('refuses a bad profile file, naming the file and the field', async () => {
    const data = writeSyntheticLocomo();
    const file = join(tempDir(), 'bad.json');
    writeFileSync(file, JSON.stringify({ name: 'x', knobs: {}, features: {} }));
    const res = await runCli(['bench', 'locomo', '--data', data, '--out', join(tempDir(), 'b'), '--profile-file', file]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${file}: knobs.top_k:`);
    const missing = await runCli(['bench', 'locomo', '--data', data, '--out', join(tempDir(), 'b'), '--profile-file', join(tempDir(), 'none.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/none\.json: no such file/);
  });

  const real = locomoData();
  it('runs on LoCoMo with a tiny budget', { timeout: 600_000, tags: ['external-data'] }, async (ctx) => {
    if (!real.path) return ctx.skip(real.missing);
    const out = join(tempDir(), 'real');
    const res = await runCli(['tune', 'locomo', '--data', real.path!, '--out', out, '--max-evals', '2', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const r = res.json();
    expect(r.train.queries).toBeGreaterThan(700);
    expect(r.held_out.queries).toBeGreaterThan(700);
    // The starting profile is the hand-tuned mnemo (with its parent spread): held-out R@10 75.5, docs/tuning.md.
    expect(r.held_out.base.recall).toBeCloseTo(0.755, 3);
  });
});
