/** `mnemo agents add|list|revoke`: output shapes (text and --json), validation errors, and the token shown once. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { verifyCredentialToken } from '../../core/agent/credentials.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';
import { runCli } from '../helpers/cli.js';

const NOW = '1750000000';
let db: string;
beforeEach(async () => {
  db = join(tempDir(), 'agents.sqlite');
  expect((await runCli(['init', db])).code).toBe(0);
});

function verify(token: string) {
  const store = MemoryStore.open(db, { readonly: true });
  try {
    return verifyCredentialToken(store, token);
  } finally {
    store.close();
  }
}

describe('mnemo agents add', () => {
  it('--json prints exactly owner and token; the id goes to stderr', async () => {
    const res = await runCli(['agents', 'add', db, 'coder@laptop', '--read-only', '--label', 'laptop', '--now', NOW, '--json']);
    expect(res.code).toBe(0);
    const out = res.json() as Record<string, string>;
    expect(Object.keys(out)).toEqual(['owner', 'token']);
    expect(out['owner']).toBe('coder@laptop');
    expect(out['token']).toMatch(/^mnemo_agt_[A-Za-z0-9_-]{43}$/);
    expect(res.stdout.split('\n')).toHaveLength(1);
    const credential = verify(out['token']!)!;
    expect(credential).toMatchObject({ owner: 'coder@laptop', scopes: ['read-only'], label: 'laptop', created_at: Number(NOW) });
    expect(res.stderr).toContain(`credential ${credential.id} for coder@laptop (scopes: read-only)`);
    expect(res.stderr).not.toContain(out['token']);
  });

  it('text prints the token alone on stdout and says it is shown once', async () => {
    const res = await runCli(['agents', 'add', db, 'coder@ci', '--no-reflect', '--now', NOW]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^mnemo_agt_[A-Za-z0-9_-]{43}$/);
    expect(verify(res.stdout)?.scopes).toEqual(['no-reflect']);
    expect(res.stderr).toMatch(/shown once/);
    expect(res.stderr).toMatch(/Authorization: Bearer/);
  });

  it('refuses an owner that is not role@instance, an empty label and a missing store, naming the input', async () => {
    const bare = await runCli(['agents', 'add', db, 'coder', '--json']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/owner: must be role@instance \(e\.g\. coder@laptop\)/);
    const label = await runCli(['agents', 'add', db, 'coder@x', '--label', '  ']);
    expect(label.code).toBe(2);
    expect(label.stderr).toMatch(/label: give a non-empty label/);
    const missing = await runCli(['agents', 'add', join(tempDir(), 'nope.sqlite'), 'coder@x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no store at/);
    const sub = await runCli(['agents', 'grant', db]);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toMatch(/unknown subcommand "grant"; use add, list or revoke/);
  });
});

describe('mnemo agents list and revoke', () => {
  it('lists credentials (never tokens), revokes by id and by owner', async () => {
    const a = (await runCli(['agents', 'add', db, 'coder@laptop', '--label', 'laptop', '--now', NOW, '--json'])).json().token as string;
    const b = (await runCli(['agents', 'add', db, 'planner@ci', '--read-only', '--now', NOW, '--json'])).json().token as string;
    const listed = await runCli(['agents', 'list', db, '--json']);
    expect(listed.code).toBe(0);
    const rows = listed.json() as { id: string; owner: string; scopes: string[]; label: string | null; created_at: number; revoked_at: number | null; last_used: number | null }[];
    expect(rows.map((r) => [r.owner, r.scopes, r.label, r.revoked_at, r.last_used])).toEqual([
      ['coder@laptop', [], 'laptop', null, null],
      ['planner@ci', ['read-only'], null, null, null],
    ]);
    expect(listed.stdout).not.toContain(a);
    expect(listed.stdout).not.toMatch(/token/);

    const text = await runCli(['agents', 'list', db]);
    expect(text.stdout.split('\n')[0]).toMatch(/^id\s+owner\s+scopes\s+label\s+created\s+revoked\s+last used\s+accesses\s+changes$/);
    expect(text.stdout).toMatch(/coder@laptop\s+full\s+laptop\s+2025-06-15T15:06:40Z/);

    const byId = await runCli(['agents', 'revoke', db, rows[0]!.id, '--now', String(Number(NOW) + 60), '--json']);
    expect(byId.code).toBe(0);
    expect(byId.json()).toEqual({ revoked: [{ id: rows[0]!.id, owner: 'coder@laptop', scopes: [], label: 'laptop', created_at: Number(NOW), revoked_at: Number(NOW) + 60 }] });
    expect(verify(a)).toBeNull();
    expect(verify(b)?.owner).toBe('planner@ci');

    const byOwner = await runCli(['agents', 'revoke', db, 'planner@ci', '--now', NOW]);
    expect(byOwner.code).toBe(0);
    expect(byOwner.stdout).toMatch(/^revoked credential [0-9a-f]{12} of planner@ci at 2025-06-15T15:06:40Z$/);
    expect(verify(b)).toBeNull();

    const again = await runCli(['agents', 'revoke', db, 'planner@ci']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/no live credential for planner@ci/);
    const bad = await runCli(['agents', 'revoke', db, 'not-an-id']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/target: give a credential id from "mnemo agents list"/);
  });

  it('the token is not in the store file', async () => {
    const token = (await runCli(['agents', 'add', db, 'coder@laptop', '--now', NOW, '--json'])).json().token as string;
    expect(readFileSync(db).includes(Buffer.from(token.slice(10)))).toBe(false);
  });
});
