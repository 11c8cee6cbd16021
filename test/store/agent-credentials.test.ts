/**
 * Agent credentials: issued tokens verify to their owner and scopes, only a hash is stored, a
 * revoked or malformed token verifies to nothing, the session's owner is the credential's, scopes
 * are refused on the agent and service paths, and accesses and changes record the credential.
 */
import Database from 'better-sqlite3';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentMemory } from '../../core/agent/agent-memory.js';
import { issueCredential, listCredentials, revokeCredentials, verifyCredentialToken, type AgentCredential } from '../../core/agent/credentials.js';
import { invoke } from '../../core/api/service.js';
import { fixedClock } from '../../core/clock.js';
import { MnemoError } from '../../core/errors.js';
import { AgentApiSession } from '../../core/host/agent-session.js';
import { createMemory } from '../../core/model/memory.js';
import { auditEvents } from '../../core/store/sqlite/access-queries.js';
import { FEED_TRIGGERS } from '../../core/store/sqlite/feed-ddl.js';
import { MNEMO_SCHEMA_VERSION } from '../../core/store/sqlite/migrations.js';
import { MemoryStore } from '../../core/store/sqlite/sqlite-store.js';
import { tempDir } from '../../support/fixture.js';
import { connectionOf } from '../../core/store/sqlite/connection.js';
import { countMemories } from '../../core/store/queries/memory-lookups.js';

const NOW = 1_700_000_000;
const clock = fixedClock(NOW);
const closers: { close(): void }[] = [];
afterEach(() => {
  while (closers.length) closers.pop()!.close();
});

function newStore(): { path: string; store: MemoryStore } {
  const path = join(tempDir(), 'agents.sqlite');
  const store = MemoryStore.open(path, { create: true, clock });
  closers.push(store);
  return { path, store };
}

function agentFor(path: string, credential: AgentCredential): AgentMemory<AgentApiSession> {
  const session = new AgentApiSession({ clock, credential, reader: { session_ref: 'run-1' } });
  session.open(path);
  const agent = new AgentMemory(session, { workspaceRoot: null });
  closers.push(agent);
  return agent;
}

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<MnemoError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    expect(err).toBeInstanceOf(MnemoError);
    return err as MnemoError;
  }
  throw new Error('expected a refusal');
}

describe('issuing and verifying', () => {
  it('verifies a token to its owner, scopes and label', () => {
    const { store } = newStore();
    const { credential, token } = issueCredential(store, { owner: 'coder@laptop', scopes: ['no-reflect', 'read-only', 'read-only'], label: 'CI runner' }, clock);
    expect(token).toMatch(/^mnemo_agt_[A-Za-z0-9_-]{43}$/);
    expect(credential).toMatchObject({ owner: 'coder@laptop', scopes: ['read-only', 'no-reflect'], label: 'CI runner', created_at: NOW, revoked_at: null });
    expect(verifyCredentialToken(store, token)).toEqual(credential);
    expect(verifyCredentialToken({ store }, token)).toEqual(credential);
  });

  it('two tokens for one owner are different credentials', () => {
    const { store } = newStore();
    const a = issueCredential(store, { owner: 'coder@laptop' }, clock);
    const b = issueCredential(store, { owner: 'coder@laptop' }, clock);
    expect(a.token).not.toBe(b.token);
    expect(a.credential.id).not.toBe(b.credential.id);
    expect(verifyCredentialToken(store, b.token)?.id).toBe(b.credential.id);
  });

  it('malformed, unknown and revoked tokens verify to null', () => {
    const { store } = newStore();
    const { credential, token } = issueCredential(store, { owner: 'coder@laptop' }, clock);
    expect(verifyCredentialToken(store, '')).toBeNull();
    expect(verifyCredentialToken(store, 'Bearer ' + token)).toBeNull();
    expect(verifyCredentialToken(store, token.slice(0, -1))).toBeNull();
    expect(verifyCredentialToken(store, token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'))).toBeNull();
    expect(verifyCredentialToken(store, 'mnemo_agt_' + 'x'.repeat(43))).toBeNull();
    const revoked = revokeCredentials(store, credential.id, fixedClock(NOW + 60));
    expect(revoked).toEqual([{ ...credential, revoked_at: NOW + 60 }]);
    expect(verifyCredentialToken(store, token)).toBeNull();
    // Revoking again keeps the first time.
    expect(revokeCredentials(store, credential.id, fixedClock(NOW + 120))[0]!.revoked_at).toBe(NOW + 60);
  });

  it('a store without credentials verifies nothing, even read-only', () => {
    const { path, store } = newStore();
    store.close();
    const ro = MemoryStore.open(path, { readonly: true });
    closers.push(ro);
    expect(verifyCredentialToken(ro, 'mnemo_agt_' + 'a'.repeat(43))).toBeNull();
    expect(listCredentials(ro)).toEqual([]);
  });

  it('revokes every live credential of an owner by role@instance, and names a missing one', async () => {
    const { store } = newStore();
    const a = issueCredential(store, { owner: 'coder@laptop' }, clock);
    const b = issueCredential(store, { owner: 'coder@laptop' }, clock);
    const other = issueCredential(store, { owner: 'coder@ci' }, clock);
    expect(revokeCredentials(store, 'coder@laptop', clock).map((c) => c.id).sort()).toEqual([a.credential.id, b.credential.id].sort());
    expect(verifyCredentialToken(store, other.token)?.owner).toBe('coder@ci');
    expect((await refusal(() => revokeCredentials(store, 'coder@laptop', clock))).message).toMatch(/no live credential for coder@laptop/);
    expect((await refusal(() => revokeCredentials(store, 'feedbeef0000', clock))).code).toBe('not_found');
  });

  it('refuses an owner that is not role@instance and an unknown scope', async () => {
    const { store } = newStore();
    expect((await refusal(() => issueCredential(store, { owner: 'coder' }, clock))).message).toMatch(/must be role@instance/);
    expect((await refusal(() => issueCredential(store, { owner: '' }, clock))).message).toMatch(/must be role@instance/);
    expect((await refusal(() => issueCredential(store, { owner: 'co%der@x' }, clock))).code).toBe('bad_input');
    expect((await refusal(() => issueCredential(store, { owner: 'coder@x', scopes: ['admin' as never] }, clock))).message).toMatch(/unknown scope "admin"/);
  });

  it('stores only a hash: the token appears in no file of the store', () => {
    const { path, store } = newStore();
    const { token } = issueCredential(store, { owner: 'coder@laptop', label: 'laptop' }, clock);
    store.close();
    const files = readdirSync(dirname(path)).map((f) => join(dirname(path), f));
    const secret = token.slice('mnemo_agt_'.length);
    for (const f of files) {
      const bytes = readFileSync(f);
      expect(bytes.includes(Buffer.from(secret)), f).toBe(false);
      expect(bytes.includes(Buffer.from(token)), f).toBe(false);
    }
    const raw = new Database(path, { readonly: true });
    const row = raw.prepare('SELECT * FROM mnemo_agent_credentials').get() as Record<string, unknown>;
    raw.close();
    expect(Object.values(row)).not.toContain(token);
    expect(row['token_hash']).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('a session serving a credential', () => {
  it('acts as the credential owner, and refuses another owner', async () => {
    const { path, store } = newStore();
    const { credential } = issueCredential(store, { owner: 'coder@laptop' }, clock);
    const agent = agentFor(path, credential);
    expect(agent.owner).toBe('coder@laptop');
    const err = await refusal(() => new AgentApiSession({ credential, reader: { owner: 'planner@x' } }));
    expect(err.code).toBe('permission');
    expect(err.message).toMatch(/cannot act as "planner@x"/);
  });

  it('read-only: every write tool is refused naming the scope, reads still work', async () => {
    const { path, store } = newStore();
    const writer = agentFor(path, issueCredential(store, { owner: 'coder@laptop' }, clock).credential);
    const { id } = await writer.remember({ content: 'deploys go through the deploy script' });
    const reader = agentFor(path, issueCredential(store, { owner: 'coder@laptop', scopes: ['read-only'], label: 'viewer' }, clock).credential);
    const attempts: [string, () => unknown][] = [
      ['remember', () => reader.remember({ content: 'x' })],
      ['update_memory', () => reader.updateMemory(id, { title: 't' })],
      ['forget', () => reader.forget(id)],
      ['associate', () => reader.associate(id, id)],
      ['todo_open', () => reader.todoOpen({ content: 'a todo' })],
      ['todo_close', () => reader.todoClose(id)],
      ['intent_add', () => reader.intentAdd({ content: 'remind', trigger: { kind: 'cue', cue: 'deploy' } as never })],
      ['intents_due', () => reader.intentsDue({})],
      ['reflect', () => reader.reflect()],
    ];
    for (const [name, attempt] of attempts) {
      const err = await refusal(attempt);
      expect(err.code, name).toBe('permission');
      expect(err.message, name).toContain(`${name} is refused`);
      expect(err.message, name).toContain('read-only scope');
      expect(err.message, name).toContain('viewer');
    }
    expect((await reader.recall('deploy script')).map((r) => r.id)).toContain(id);
    expect(store.get(id)!.title).toBeNull();
  });

  it('no-reflect: reflection is refused, writes are not', async () => {
    const { path, store } = newStore();
    const agent = agentFor(path, issueCredential(store, { owner: 'coder@laptop', scopes: ['no-reflect'] }, clock).credential);
    await agent.remember({ content: 'a fact worth keeping' });
    const err = await refusal(agent.reflect());
    expect(err.code).toBe('permission');
    expect(err.message).toMatch(/no-reflect scope, so reflect is refused/);
  });

  it('the service refuses a credential session everything but the agent reads, naming the scope', async () => {
    const { path, store } = newStore();
    const readOnly = issueCredential(store, { owner: 'coder@laptop', scopes: ['read-only'] }, clock).credential;
    const noReflect = issueCredential(store, { owner: 'coder@laptop', scopes: ['no-reflect'] }, clock).credential;
    const full = issueCredential(store, { owner: 'coder@laptop' }, clock).credential;
    const session = (c: AgentCredential) => {
      const s = new AgentApiSession({ clock, credential: c });
      s.open(path);
      closers.push(s);
      return s;
    };
    const ro = session(readOnly);
    const add = await invoke(ro, 'memory.add', { content: 'x' });
    expect(add).toMatchObject({ ok: false, error: { code: 'permission' } });
    expect(!add.ok && add.error.message).toMatch(/read-only scope, so memory\.add is refused/);
    const reflect = await invoke(session(noReflect), 'reflect.apply', { plan_id: 'p' });
    expect(!reflect.ok && reflect.error.message).toMatch(/no-reflect scope/);
    const fullAdd = await invoke(session(full), 'memory.add', { content: 'x' });
    expect(!fullAdd.ok && fullAdd.error.message).toMatch(/agent tools only; memory\.add is not one of them/);
    expect(await invoke(ro, 'recall.run', { query: 'x' })).toMatchObject({ ok: true });
    expect(countMemories(store)).toBe(0);
  });
});

describe('attribution', () => {
  it('every access and change made with a credential records its id; local ones record none', async () => {
    const { path, store } = newStore();
    const { credential } = issueCredential(store, { owner: 'coder@laptop', label: 'laptop' }, clock);
    const agent = agentFor(path, credential);
    const { id } = await agent.remember({ content: 'the staging database is at db.staging' });
    await agent.updateMemory(id, { title: 'staging db' });
    await agent.recall('staging database');
    agent.deref(`memory:${id}`);
    agent.todoList({ status: 'all' });
    const before = { changes: store.journal.history(100).length, events: (connectionOf(store).prepare('SELECT count(*) AS n FROM mnemo_access_events').get() as { n: number }).n };
    const local = new AgentApiSession({ clock, reader: { owner: 'coder@desk' } });
    local.open(path);
    const localAgent = new AgentMemory(local, { workspaceRoot: null });
    closers.push(localAgent);
    await localAgent.remember({ content: 'a note written locally, without a credential' });
    await localAgent.recall('staging database');

    const raw = new Database(path, { readonly: true });
    const changes = raw.prepare('SELECT kind, credential_id FROM mnemo_journal ORDER BY id').all() as { kind: string; credential_id: string | null }[];
    const events = raw.prepare('SELECT channel, reader_owner, credential_id FROM mnemo_access_events ORDER BY id').all() as { channel: string; reader_owner: string; credential_id: string | null }[];
    raw.close();
    expect(before.changes).toBeGreaterThanOrEqual(2);
    expect(changes.length).toBeGreaterThan(before.changes);
    changes.forEach((c, i) => expect(c.credential_id, `change ${i} ${c.kind}`).toBe(i < before.changes ? credential.id : null));
    expect(events.filter((e) => e.channel === 'recalled' && e.credential_id === credential.id).length).toBeGreaterThanOrEqual(1);
    expect(events.filter((e) => e.channel === 'deref' && e.credential_id === credential.id)).toHaveLength(1);
    expect(events.length).toBeGreaterThan(before.events);
    events.forEach((e, i) => expect(e.credential_id, `event ${i} ${e.channel} by ${e.reader_owner}`).toBe(i < before.events ? credential.id : null));

    expect(store.journal.history(10).map((h) => h.credential_id)).toEqual(changes.map((c) => c.credential_id).reverse());
    const [listed] = listCredentials(store);
    expect(listed).toMatchObject({ id: credential.id, changes: before.changes, accesses: before.events, last_used: NOW });
  });
});

describe('migration 006', () => {
  /** A store as schema v5 left it: no credential table, no credential columns (and no change feed, which came after). */
  function v5Store(): string {
    const { path, store } = newStore();
    const m = createMemory({ content: 'written before credentials existed' }, NOW);
    store.change('add one', 'memory.add', () => store.add(m, null));
    const read = { ts: NOW, channel: 'recalled', reader_owner: 'coder', session_ref: null, trace_ref: null, query: 'credentials', score: 1, rank: 0, components: null } as const;
    store.recordAccessEvents(m.id, [read], null);
    store.close();
    const raw = new Database(path);
    raw.exec(`
      ${FEED_TRIGGERS.map((t) => `DROP TRIGGER ${t};`).join('\n')}
      DROP TABLE mnemo_feed;
      DELETE FROM mnemo_meta WHERE key LIKE 'feed_%';
      DROP TABLE mnemo_agent_credentials;
      DROP INDEX idx_mnemo_events_credential;
      DROP INDEX idx_mnemo_journal_credential;
      ALTER TABLE mnemo_access_events DROP COLUMN credential_id;
      ALTER TABLE mnemo_journal DROP COLUMN credential_id;
      DROP TABLE mnemo_profiles;
      UPDATE mnemo_meta SET value = '5' WHERE key = 'schema_version';
    `);
    raw.close();
    return path;
  }

  it('a v5 store opened read-only lists its history and credentials without the new columns', () => {
    const ro = MemoryStore.open(v5Store(), { readonly: true });
    closers.push(ro);
    expect(ro.journal.history(5).map((c) => c.credential_id)).toEqual([null]);
    expect(listCredentials(ro)).toEqual([]);
    // Filtering by credential: everything in it was made without one.
    expect(ro.journal.history(5, 0, null)).toHaveLength(1);
    expect(ro.journal.history(5, 0, 'abcdef123456')).toEqual([]);
    const all = auditEvents(ro, {})!.total;
    expect(all).toBeGreaterThan(0);
    expect(auditEvents(ro, { credentialId: null })!.total).toBe(all);
    expect(auditEvents(ro, { credentialId: 'abcdef123456' })!.total).toBe(0);
  });

  it('a v5 store opened writable gains the table and columns, and older rows stay unattributed', () => {
    const store = MemoryStore.open(v5Store(), { clock });
    closers.push(store);
    expect(store.getMeta('schema_version')).toBe(String(MNEMO_SCHEMA_VERSION));
    const { token } = issueCredential(store, { owner: 'coder@laptop' }, clock);
    expect(verifyCredentialToken(store, token)?.owner).toBe('coder@laptop');
    expect(store.journal.history(5).map((c) => c.credential_id)).toEqual([null]);
  });
});
