/**
 * Redaction at the door (model/redaction.ts, engine/redaction.ts): secrets in what agents and
 * imports write are replaced by [redacted:<kind>] before anything is stored, counted per kind, and
 * said in the response. Tested at each door: the API (memory.add, memory.update, beliefs.observe),
 * MCP (remember), the CLI (add) and an import (mnemo import, with a ring entry's query too). On
 * by default; an operator turns it off, turns emails on, or adds a pattern of their own (RE2: a
 * pattern that backtracks catastrophically in JavaScript still runs in linear time here, and one
 * RE2 cannot compile is refused naming why). A store's existing rows are never rewritten.
 */
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiSession } from '../../core/api/context.js';
import { call } from '../../core/api/service.js';
import { MnemoError } from '../../core/errors.js';
import { BUILT_IN_PATTERNS, compileBuiltIn, redactText } from '../../core/model/redaction.js';
import { FIXTURE_STORE, fixtureCopy, tempDir } from '../../support/fixture.js';
import { agentOn, freshStorePath } from '../helpers/agents.js';
import { runCli } from '../helpers/cli.js';
import { connectInProcess, dataOf, textOf } from '../helpers/mcp.js';
import { requireMemory } from '../../core/store/queries/memory-lookups.js';

const NOW = 1_780_000_000;
const AWS = 'AKIAZ7QWERTYUIOPASDF';
const GITHUB = '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';
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

function session(path: string): ApiSession {
  const s = ApiSession.withFrozenClock(NOW);
  s.open(path, { create: true });
  cleanup.push(() => s.close());
  return s;
}

/** Every byte of the store file holding the text (the journal and the feed are in it too). */
const fileHolds = (path: string, text: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]).some((t) =>
      (db.prepare(`SELECT * FROM "${t}"`).raw().all() as unknown[][]).some((row) => row.some((v) => typeof v === 'string' && v.includes(text))),
    );
  } finally {
    db.close();
  }
};

describe('the built-in patterns', () => {
  const all = BUILT_IN_PATTERNS.map(compileBuiltIn);
  const cases: [string, string, string][] = [
    ['aws_access_key', `aws ${AWS} here`, 'aws [redacted:aws_access_key] here'],
    ['aws_secret_key', 'aws_secret_access_key = "q8Zr3kLmN0pQ1sT2uV3wX4yZ5aB6cD7eF8gH9iJ0"', 'aws_secret_access_key = "[redacted:aws_secret_key]"'],
    ['github_token', `token ${GITHUB}.`, 'token [redacted:github_token].'],
    ['openai_key', `key sk-proj-${'aB3dE5fG7h'.repeat(8)}`, 'key [redacted:openai_key]'],
    ['anthropic_key', `sk-ant-api03-${'a'.repeat(90)}`, '[redacted:anthropic_key]'],
    ['slack_token', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', '[redacted:slack_token]'],
    ['stripe_key', `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`, '[redacted:stripe_key]'],
    ['google_api_key', 'AIzaSyA1234567890abcdefghijklmnopqrstuv', '[redacted:google_api_key]'],
    ['jwt', `bearer ${JWT}`, 'bearer [redacted:jwt]'],
    ['url_password', 'see postgres://bob:s3cr3t@db:5432/app', 'see postgres://bob:[redacted:url_password]@db:5432/app'],
    ['private_key', `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\nafter`, '[redacted:private_key]\nafter'],
  ];
  it.each(cases)('%s', (kind, text, expected) => {
    const counts: Record<string, number> = {};
    expect(redactText(text, all.filter((p) => !BUILT_IN_PATTERNS.find((b) => b.kind === p.kind)!.optional), counts)).toBe(expected);
    expect(counts).toEqual({ [kind]: 1 });
  });

  it('leave ordinary text alone: words, ids, URLs without a password, an email while emails are off', () => {
    const counts: Record<string, number> = {};
    const text = 'deploy 3f2a9c1e at https://example.com/a:b@c, mail ops@example.com, version 1.2.3, AKIA is a prefix, eyJ alone';
    expect(redactText(text, all.filter((p) => p.kind !== 'email' && p.kind !== 'phone'), counts)).toBe(text);
    expect(counts).toEqual({});
  });
});

describe('redaction at each door', () => {
  it('API: memory.add and memory.update replace secrets, count them, say so; the store keeps no byte of them', async () => {
    const path = join(tempDir('mnemo-redact-'), 'store.sqlite');
    const s = session(path);
    const added = await call(s, 'memory.add', { content: `the deploy user is ops with key ${AWS}`, title: `bearer ${JWT}` });
    expect(added.content).toBe('the deploy user is ops with key [redacted:aws_access_key]');
    expect(added.title).toBe('bearer [redacted:jwt]');
    expect(added.redacted).toEqual({ aws_access_key: 1, jwt: 1 });
    const updated = await call(s, 'memory.update', { id: added.id, patch: { content: `rotated to ${GITHUB}` } });
    expect(updated.redacted).toEqual({ github_token: 1 });
    expect(updated.memory.content).toBe('rotated to [redacted:github_token]');
    const view = await call(s, 'store.redaction', {});
    expect(view).toMatchObject({ enabled: true, counts: { aws_access_key: 1, jwt: 1, github_token: 1 }, total: 3 });
    expect(view.patterns.find((p) => p.kind === 'email')).toMatchObject({ optional: true, on: false });
    const delta = (await call(s, 'beliefs.observe', { observation: { entity: 'ci', attribute: 'token', value: GITHUB, t: NOW, evidence: `pasted ${AWS}` } })) as { value: string; redacted?: Record<string, number> };
    expect(delta.value).toBe('[redacted:github_token]');
    expect(delta.redacted).toEqual({ github_token: 1, aws_access_key: 1 });
    s.close();
    for (const secret of [AWS, JWT, GITHUB]) expect(fileHolds(path, secret), secret).toBe(false);
  });

  it("API: the operator turns the policy off, turns emails on, adds a pattern of their own; one RE2 cannot compile is refused", async () => {
    const s = session(join(tempDir('mnemo-redact-'), 'store.sqlite'));
    await call(s, 'store.setRedaction', { optional: ['email'], custom: [{ kind: 'ticket', pattern: 'TICKET-[0-9]{4}' }] });
    const a = await call(s, 'memory.add', { content: 'mail ops@example.com about TICKET-1234 and TICKET-9876' });
    expect(a.content).toBe('mail [redacted:email] about [redacted:ticket] and [redacted:ticket]');
    expect(a.redacted).toEqual({ email: 1, ticket: 2 });
    // A pattern a backtracking engine would take ages on runs in linear time under RE2.
    await call(s, 'store.setRedaction', { custom: [{ kind: 'nested', pattern: '(a+)+$' }] });
    const long = await call(s, 'memory.add', { content: `${'a'.repeat(20_000)}!` });
    expect(long.redacted).toBeUndefined();
    const refused = await call(s, 'store.setRedaction', { custom: [{ kind: 'lookbehind', pattern: '(?<=x)y' }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MnemoError);
    expect((refused as MnemoError).message).toMatch(/RE2/);
    await expect(call(s, 'store.setRedaction', { custom: [{ kind: 'jwt', pattern: 'x' }] })).rejects.toMatchObject({ code: 'bad_input' });
    await call(s, 'store.setRedaction', { enabled: false });
    const kept = await call(s, 'memory.add', { content: `off: ${AWS}` });
    expect(kept.content).toBe(`off: ${AWS}`);
    expect((await call(s, 'store.redaction', {})).patterns.every((p) => !p.on)).toBe(true);
  });

  it('MCP: remember stores [redacted:<kind>] and tells the agent what it replaced', async () => {
    const path = freshStorePath();
    const agent = agentOn(path, 'alice@1');
    const mcp = await connectInProcess(agent);
    cleanup.push(() => agent.close(), () => mcp.close());
    const r = await mcp.call('remember', { content: `the staging db is postgres://app:pa55word@db:5432/app and the key ${AWS}` });
    expect(dataOf(r)).toMatchObject({ redacted: { url_password: 1, aws_access_key: 1 } });
    expect(textOf(r)).toMatch(/redacted before storing .*(aws_access_key, url_password|url_password, aws_access_key)/);
    expect(requireMemory(agent.engine.store, dataOf(r).id).content).toBe('the staging db is postgres://app:[redacted:url_password]@db:5432/app and the key [redacted:aws_access_key]');
  });

  it('CLI: mnemo add says what it redacted; mnemo import redacts content and the queries of imported rings', async () => {
    const dir = tempDir('mnemo-redact-cli-');
    const path = join(dir, 'store.sqlite');
    expect((await runCli(['init', path])).code).toBe(0);
    const add = await runCli(['add', path, `the api key is ${GITHUB}`, '--now', String(NOW)]);
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/redacted before storing: github_token ×1/);
    const line = {
      id: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
      type: 'info',
      content: `imported with ${JWT}`,
      created_at: NOW,
      access_log: [{ ts: NOW, channel: 'recalled', reader_owner: '', session_ref: null, trace_ref: null, query: `what is ${AWS}`, score: 1, rank: 0, components: null }],
    };
    const file = join(dir, 'in.jsonl');
    writeFileSync(file, `${JSON.stringify(line)}\n`);
    const imp = await runCli(['import', path, file, '--json', '--now', String(NOW)]);
    expect(imp.code, imp.stderr).toBe(0);
    expect(imp.json()).toMatchObject({ imported: 1, redacted: { jwt: 1, aws_access_key: 1 } });
    for (const secret of [GITHUB, JWT, AWS]) expect(fileHolds(path, secret), secret).toBe(false);
  });

  it("leaves what a store already holds as it is: opening and recalling the nooa fixture writes nothing of its rows", async () => {
    const path = fixtureCopy();
    const before = new Database(FIXTURE_STORE, { readonly: true }).prepare('SELECT id, content, data FROM memories ORDER BY id').all();
    const s = session(path);
    await call(s, 'recall.explain', { query: 'deploy', k: 5 });
    s.close();
    expect(new Database(path, { readonly: true }).prepare('SELECT id, content, data FROM memories ORDER BY id').all()).toEqual(before);
  });
});
