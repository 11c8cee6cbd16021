/** The reflection, journal and curation commands of the CLI, end to end on a fixture copy. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expected, fixtureCopy, tempDir } from '../../support/fixture.js';
import { runCli } from '../helpers/cli.js';

const NOW = String(expected().now);

describe('mnemo reflect / history / undo / redo / merge / forget', () => {
  it('plans, steps, applies an accepted subset, lists history, undoes and redoes', async () => {
    const db = fixtureCopy();
    const planFile = join(tempDir(), 'plan.json');
    const dry = await runCli(['reflect', db, '--dry-run', '--now', NOW, '--out', planFile, '--json']);
    expect(dry.code).toBe(0);
    const plan = dry.json();
    expect(plan.report).toMatchObject({ merged: 10, edges_added: 57, rescored: 132, pruned: 9 });

    const step = await runCli(['reflect', db, '--dry-run', '--until', 'link', '--now', NOW, '--json']);
    expect(step.json().groups.map((g: { op: string }) => g.op)).toEqual(['merge', 'link']);

    const human = await runCli(['reflect', db, '--dry-run', '--now', NOW]);
    expect(human.stdout).toMatch(/merge_duplicates\s+10 ops/);

    const accept = ['m1', 'm2', 'r1', 'p1'].join(',');
    const applied = await runCli(['reflect', db, '--apply', planFile, '--accept', accept, '--now', NOW, '--json']);
    expect(applied.code).toBe(0);
    const out = applied.json();
    expect(out.change_id).toBeGreaterThan(0);
    expect(out.report).toMatchObject({ merged: 2, rescored: 1, pruned: 1, edges_added: 0 });

    const stale = await runCli(['reflect', db, '--apply', planFile, '--now', NOW, '--json']);
    expect(stale.code).toBe(1);
    expect(stale.json().error.code).toBe('conflict');
    expect(stale.stderr).toMatch(/Re-plan/);

    const hist = await runCli(['history', db, '--json']);
    expect(hist.json()[0]).toMatchObject({ id: out.change_id, kind: 'reflect.apply', state: 'applied' });
    const undo = await runCli(['undo', db, String(out.change_id), '--json']);
    expect(undo.json().state).toBe('undone');
    // After the undo the store is as planned again, so the same plan applies in full.
    const full = await runCli(['reflect', db, '--apply', planFile, '--now', NOW, '--json']);
    expect(full.json().report).toMatchObject({ merged: 10, edges_added: 57, rescored: 132, pruned: 9 });
    const redo = await runCli(['redo', db, '--json']);
    expect(redo.code).toBe(1); // the full apply touched the same rows after the undo
    expect(redo.stderr).toMatch(/cannot redo/);
  });

  it('merges into a survivor and forgets, with clear usage errors', async () => {
    const db = fixtureCopy();
    const list = await runCli(['list', db, '--json', '--limit', '3']);
    const [a, b] = list.json().rows as { id: string; owner: string }[];
    // The first two fixture rows belong to different owners: refused until the curator says so.
    expect(a!.owner).not.toBe(b!.owner);
    const refused = await runCli(['merge', db, b!.id, '--survivor', a!.id, '--now', NOW, '--json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/different owners/);
    const merged = await runCli(['merge', db, b!.id, '--survivor', a!.id, '--title', 'merged by hand', '--allow-cross-owner', '--now', NOW, '--json']);
    expect(merged.code).toBe(0);
    expect(merged.json()).toMatchObject({ archived: [b!.id], survivor: { id: a!.id, title: 'merged by hand' } });
    const noSurvivor = await runCli(['merge', db, b!.id]);
    expect(noSurvivor.code).toBe(2);
    expect(noSurvivor.stderr).toMatch(/--survivor/);
    const forgot = await runCli(['forget', db, a!.id, '--now', NOW, '--json']);
    expect(forgot.json().forgotten[0].id).toBe(a!.id);
    const both = await runCli(['reflect', db, '--dry-run', '--apply', 'x.json']);
    expect(both.code).toBe(2);
    const bad = join(tempDir(), 'bad.json');
    writeFileSync(bad, JSON.stringify({ kind: 'something else' }));
    const badPlan = await runCli(['reflect', db, '--apply', bad]);
    expect(badPlan.code).toBe(2);
    expect(badPlan.stderr).toMatch(/not a reflection plan/);
    const badUndo = await runCli(['undo', db, 'abc']);
    expect(badUndo.code).toBe(2);
  });
});
