/**
 * `mnemo pg grant`: an agent's database role is held to the owner rule by PostgreSQL itself, so
 * raw SQL over the agent's own credentials cannot reach another role's rows. Against a real server
 * (MNEMO_TEST_PG_URL, or a throwaway cluster; the cluster trusts local connections, so the test
 * connects as the role without its password: what is tested is the policies, not authentication).
 *
 * What could go wrong: a policy missing on a table that carries another owner's content, a case
 * variant (`CODER@9`) or a prefix (`coderx@1`) counted as the agent's role, an UPDATE moving a row to
 * another owner, an INSERT of a foreign row, the operator losing sight of rows.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MnemoError } from '../../core/errors.js';
import { copyStore } from '../../core/store/copy/copy-stores.js';
import { fixedClock } from '../../core/clock.js';
import { openStore } from '../../core/index.js';
import { createMemory } from '../../core/model/memory.js';
import { grantAgent, type GrantResult } from '../../core/store/pg/pg-grant.js';
import { PgStore } from '../../core/store/pg/pg-store.js';
import { parsePgStoreUrl } from '../../core/store/pg/pg-url.js';
import { SyncPg } from '../../core/store/pg/sync-pg.js';
import { FIXTURE_STORE } from '../../support/fixture.js';
import { pgUnavailable, startPg, type PgServer } from '../../support/pg-cluster.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SCHEMA = 'grant_rls';

const unavailable = pgUnavailable();

/** Owners given to the fixture's memories, in turn: A's role, B, shared, and names that only look like A's role. */
const OWNERS = ['coder@1', 'coder@2', 'writer@1', '', 'CODER@9', 'coderx@1', 'coder'];

function refusal(fn: () => unknown): MnemoError | null {
  try {
    fn();
  } catch (err) {
    return err as MnemoError;
  }
  return null;
}

describe('mnemo pg grant: a role per agent, held to its owner by row-level security', () => {
  let server: PgServer | null = null;
  let operator: SyncPg;
  let agentA: SyncPg;
  let storeUrl = '';
  let granted: GrantResult;
  const t = (name: string) => `${SCHEMA}.${name}`;

  beforeAll(() => {
    if (unavailable) return;
    server = startPg();
    storeUrl = `${server.url}${server.url.includes('?') ? '&' : '?'}schema=${SCHEMA}`;
    operator = SyncPg.connect(server.url);
    operator.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    copyStore(FIXTURE_STORE, storeUrl);
    operator.query(`UPDATE ${t('memories')} m SET owner = ($1::text[])[1 + (o.n % $2)] FROM (SELECT id, row_number() OVER (ORDER BY rowid) AS n FROM ${t('memories')}) o WHERE o.id = m.id`, [OWNERS, OWNERS.length]);
    granted = grantAgent(storeUrl, 'coder@1');
    expect(granted.password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    agentA = SyncPg.connect(parsePgStoreUrl(granted.url).connection);
  }, 120_000);

  afterAll(() => {
    agentA?.close();
    operator?.close();
    server?.stop();
  });

  const owners = (conn: SyncPg) => conn.query<{ owner: string }>(`SELECT owner FROM ${t('memories')} GROUP BY owner ORDER BY owner COLLATE "C"`).map((r) => r.owner);
  const someIdOf = (owner: string) => operator.query<{ id: string }>(`SELECT id FROM ${t('memories')} WHERE owner = $1 ORDER BY rowid LIMIT 1`, [owner])[0]!.id;

  it("lets the agent see only its role's rows and shared ones, exactly (not CODER@9, not coderx@1)", (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    expect(owners(operator)).toEqual(['', 'CODER@9', 'coder', 'coder@1', 'coder@2', 'coderx@1', 'writer@1']);
    expect(owners(agentA)).toEqual(['', 'coder', 'coder@1', 'coder@2']);
    const foreign = someIdOf('writer@1');
    expect(agentA.query(`SELECT * FROM ${t('memories')} WHERE id = $1`, [foreign])).toEqual([]);
    // Edges, access events and tombstones follow the memory they belong to.
    const foreignEdges = operator.query<{ n: string }>(`SELECT count(*) AS n FROM ${t('memory_edges')} e JOIN ${t('memories')} m ON m.id = e.src WHERE m.owner NOT IN ('', 'coder', 'coder@1', 'coder@2')`)[0]!.n;
    expect(Number(foreignEdges)).toBeGreaterThan(0);
    expect(agentA.query(`SELECT e.* FROM ${t('memory_edges')} e WHERE NOT EXISTS (SELECT 1 FROM ${t('memories')} m WHERE m.id = e.src)`)).toEqual([]);
    // What the agent has no privilege on at all: the journal's images and the credentials.
    for (const table of ['mnemo_journal', 'mnemo_journal_rows', 'mnemo_agent_credentials']) {
      expect(refusal(() => agentA.query(`SELECT * FROM ${t(table)}`))?.details).toMatchObject({ sqlstate: '42501' });
    }
  });

  it("changes nothing of another role's rows: UPDATE and DELETE touch no row, an INSERT owned by them is refused", (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const foreign = someIdOf('writer@1');
    const before = operator.query(`SELECT content, owner FROM ${t('memories')} WHERE id = $1`, [foreign]);
    expect(agentA.query(`UPDATE ${t('memories')} SET content = 'taken' WHERE id = $1 RETURNING id`, [foreign])).toEqual([]);
    expect(agentA.query(`UPDATE ${t('memories')} SET content = 'taken' WHERE owner = 'CODER@9' RETURNING id`)).toEqual([]);
    expect(agentA.query(`DELETE FROM ${t('memories')} WHERE id = $1 RETURNING id`, [foreign])).toEqual([]);
    expect(agentA.query(`DELETE FROM ${t('memory_edges')} WHERE src = $1 RETURNING src`, [foreign])).toEqual([]);
    expect(operator.query(`SELECT content, owner FROM ${t('memories')} WHERE id = $1`, [foreign])).toEqual(before);
    const insert = `INSERT INTO ${t('memories')}(id, type, content, created_at, last_accessed, data, owner) VALUES ($1, 'info', 'x', 1, 1, '{}', $2)`;
    for (const owner of ['writer@1', 'CODER@9', 'coderx@1']) {
      expect(refusal(() => agentA.query(insert, [`planted-${owner}`, owner]))?.message, owner).toMatch(/row-level security/);
    }
    // Nor can it hand one of its own rows to another role.
    const own = someIdOf('coder@1');
    expect(refusal(() => agentA.query(`UPDATE ${t('memories')} SET owner = 'writer@1' WHERE id = $1`, [own]))?.message).toMatch(/row-level security/);
    expect(operator.query(`SELECT owner FROM ${t('memories')} WHERE id = $1`, [own])).toEqual([{ owner: 'coder@1' }]);
  });

  it('writes its own rows and shared ones through the engine, journalled; a raw write of them is refused at commit', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const own = someIdOf('coder@2');
    const shared = someIdOf('');
    // Raw SQL: row-level security lets the statement through, the commit check refuses it (no journal entry).
    for (const id of [own, shared]) {
      const raw = refusal(() => agentA.transaction(() => agentA.query(`UPDATE ${t('memories')} SET content = 'edited by coder@1, raw' WHERE id = $1 RETURNING id`, [id])));
      expect(raw?.message, id).toMatch(/with no journal entry/);
      expect(raw?.code).toBe('permission');
    }
    expect(operator.query(`SELECT count(*)::int AS n FROM ${t('memories')} WHERE content = 'edited by coder@1, raw'`)).toEqual([{ n: 0 }]);
    // Through the engine (a journalled change) the same edit, an insert and a delete go in.
    const store = PgStore.open(granted.url, { onWarning: () => {} });
    try {
      const edit = (id: string, content: string) => store.change(`edit ${id}`, 'memory.update', () => store.save({ ...store.get(id)!, content }));
      edit(own, 'edited by coder@1');
      edit(shared, 'shared, edited by coder@1');
      store.change('add mine', 'memory.add', () => store.add(createMemory({ id: 'mine', content: 'x', owner: 'coder@1' }, 1), null));
      store.change('delete mine', 'memory.delete', () => store.delete('mine'));
    } finally {
      store.close();
    }
    expect(operator.query(`SELECT content FROM ${t('memories')} WHERE id = ANY($1::text[]) ORDER BY content`, [[own, shared]]).map((r) => r['content'])).toEqual(['edited by coder@1', 'shared, edited by coder@1']);
    // Its writes reach the change feed (written by the feed's trigger, not by the agent), and it
    // reads the feed rows of the memories in its scope only: the delete of its own included.
    expect(refusal(() => agentA.query(`INSERT INTO ${t('mnemo_pg_feed')}(at, tbl, op, memory_id) VALUES (1, 'memory', 'insert', 'forged')`))?.details).toMatchObject({ sqlstate: '42501' });
    const heard = agentA.query<{ owner: string; op: string; memory_id: string }>(`SELECT owner, op, memory_id FROM ${t('mnemo_pg_feed')}`);
    expect(heard).toEqual(expect.arrayContaining([{ owner: 'coder@1', op: 'delete', memory_id: 'mine' }]));
    expect([...new Set(heard.map((r) => r.owner))].filter((o) => !['', 'coder', 'coder@1', 'coder@2'].includes(o))).toEqual([]);
  });

  it('an agent opens a store no engine has opened yet (its embedder unrecorded) and writes through the engine', async (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const warnings: string[] = [];
    const coder = openStore(granted.url, { owner: 'coder@1', clock: fixedClock(1_750_000_000), session: 'coder', onWarning: (m) => warnings.push(m) });
    try {
      expect(operator.query(`SELECT value FROM ${t('mnemo_meta')} WHERE key = 'embedder'`), 'the copy of nooa’s store records no embedder').toEqual([]);
      const { id } = await coder.remember({ content: 'written by an agent on a store copied from nooa' });
      expect(operator.query(`SELECT owner FROM ${t('memories')} WHERE id = $1`, [id])).toEqual([{ owner: 'coder@1' }]);
      // Recording the embedder is a store setting: the agent's role leaves it to an operator, and says so.
      expect(warnings.join('\n')).toMatch(/does not record its embedder yet/);
    } finally {
      coder.close();
    }
  });

  it('the CLI prints the password once with how to connect; a second grant replaces the password; bad owners are refused', (ctx) => {
    if (unavailable) return ctx.skip(unavailable);
    const run = (args: string[], input?: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'cli', 'main.ts'), 'pg', 'grant', ...args], { cwd: ROOT, encoding: 'utf8', input, timeout: 60_000 });
    const first = run(['writer@1', storeUrl]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/password \(shown once\): \S{32}\n/);
    expect(first.stdout).toContain(`connect as: ${storeUrl.replace('postgres://postgres@', `postgres://${encodeURIComponent(`${SCHEMA}.writer@1`)}@`).replace(/\?(.*)&schema=/, '?$1&schema=')}`);
    const again = run(['writer@1', storeUrl, '--password-stdin', '--json'], 'chosen secret\n');
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ existed: true, password: null, role: `${SCHEMA}.writer@1` });
    const role = run(['coder', storeUrl]);
    expect(role.status).toBe(2);
    expect(role.stderr).toContain('role@instance');
    expect(run(['co_der@1', storeUrl]).status).toBe(2);
  });
});
