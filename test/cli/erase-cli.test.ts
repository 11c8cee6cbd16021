/**
 * `mnemo erase`: the dry run lists what would go and writes nothing; the erase prints the receipt
 * (counts per place, when, by whom, how the bytes went, what no store reaches); exactly one of
 * --id, --match or --owner, or a usage error naming them.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/fixture.js';
import { runCli } from '../helpers/cli.js';

const NOW = '1780000000';

describe('mnemo erase', () => {
  it('dry run, then the erase with its receipt; usage errors name the choices', async () => {
    const path = join(tempDir('mnemo-erase-cli-'), 'store.sqlite');
    expect((await runCli(['init', path])).code).toBe(0);
    const added = await runCli(['add', path, 'the vault combination is 31-17-42', '--owner', 'ops@1', '--json', '--now', NOW]);
    const id = added.json().id as string;
    await runCli(['add', path, 'a memory that stays', '--json', '--now', NOW]);
    const dry = await runCli(['erase', path, '--match', 'VAULT combination', '--dry-run', '--json', '--now', NOW]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json()).toMatchObject({ dry_run: true, memories: { total: 1, live: 1, gone: 0 }, counts: { memories: 1 } });
    expect((await runCli(['show', path, id, '--json'])).code).toBe(0);
    const text = await runCli(['erase', path, '--id', id.slice(0, 8), '--dry-run', '--now', NOW]);
    expect(text.stdout).toMatch(/^would erase 1 memory \(1 live, 0 already gone/);
    const erased = await runCli(['erase', path, '--id', id, '--now', NOW]);
    expect(erased.code, erased.stderr).toBe(0);
    expect(erased.stdout).toMatch(/^erased 1 memory at .* by operator \(journal change #\d+, which cannot be undone\):/);
    expect(erased.stdout).toMatch(/the files: VACUUM of .*store\.sqlite/);
    expect(erased.stdout).toMatch(/not reached by any store:/);
    expect(erased.stdout).not.toMatch(/31-17-42/);
    expect((await runCli(['show', path, id])).code).not.toBe(0);
    const both = await runCli(['erase', path, '--id', id, '--owner', 'ops@1']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/exactly one of --id \(repeatable\), --match or --owner/);
    const short = await runCli(['erase', path, '--match', 'ab']);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/at least 3/);
  });
});
