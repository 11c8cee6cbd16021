/**
 * `mnemo demo <db> --simulated-log`: the store behind the recovery check (tune-recovery.test.ts),
 * made from the command line. What could go wrong: the weights not validated at the door, a
 * refused or failed run leaving a half-made store (or its sidecar) behind, an existing store
 * written over, or a log whose sessions `mnemo tune log` cannot find.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../core/engine/engine.js';
import { loggedSessions } from '../../core/tune/log-labels.js';
import { tempDir } from '../../support/fixture.js';
import { runCli } from '../helpers/cli.js';
import { NOW } from '../helpers/recall-store.js';
import { countMemories } from '../../core/store/queries/memory-lookups.js';

describe('mnemo demo --simulated-log', () => {
  it('writes a new store with one labelled session per group, and nothing else beside it', async () => {
    const dir = tempDir('mnemo-simlog-');
    const path = join(dir, 'sim.sqlite');
    const res = await runCli(['demo', path, '--simulated-log', '--weight', 'recency=3', '--weight', 'importance=0.75', '--groups', '6', '--members', '3', '--seed', '2', '--now', String(NOW), '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json()).toMatchObject({ path, sessions: 6, groups: 6, members: 3, seed: 2, truth: { recency: 3, importance: 0.75 }, start: NOW });
    expect(readdirSync(dir)).toEqual(['sim.sqlite']);
    const reader = Engine.open(path, { readonly: true });
    try {
      expect(countMemories(reader.store, { includeArchived: true })).toBe(18);
      const sessions = loggedSessions(reader.store);
      expect(sessions).toHaveLength(6);
    } finally {
      reader.close();
    }
  }, 60_000);

  it.each([
    ['recency=1e309', /recency: must be a number within \[0, 100\]/],
    ['recency=-1', /recency: must be a number within \[0, 100\]/],
    ['recency=', /recency: must be a number within \[0, 100\]/],
    ['lambda_embed=2', /lambda_embed: must be a number within \[0, 1\]/],
    ['__proto__=1', /the weights are relevance, recency/],
    ['Recency=2', /the weights are relevance, recency/],
    ['recency', /recency: must be a number/],
  ])('refuses --weight %s with a typed error and writes nothing', async (weight, message) => {
    const dir = tempDir('mnemo-simlog-');
    const res = await runCli(['demo', join(dir, 'sim.sqlite'), '--simulated-log', '--weight', weight, '--groups', '2', '--members', '2', '--json']);
    expect(res.code).toBe(2);
    expect(res.json().error.code).toBe('bad_input');
    expect(res.json().error.message).toMatch(message);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a weight given twice, sizes out of range, and an existing file, which it leaves as it was', async () => {
    const dir = tempDir('mnemo-simlog-');
    const path = join(dir, 'taken.sqlite');
    writeFileSync(path, 'not mine');
    const digest = () => createHash('sha256').update(readFileSync(path)).digest('hex');
    const before = digest();
    for (const argv of [
      ['--weight', 'recency=2', '--weight', 'recency=3'],
      ['--groups', '1'],
      ['--members', '51'],
      [],
    ]) {
      const res = await runCli(['demo', path, '--simulated-log', ...argv, '--json']);
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.json().error.code).toBe('bad_input');
    }
    expect(digest()).toBe(before);
    expect(readdirSync(dir)).toEqual(['taken.sqlite']);
  });
});
